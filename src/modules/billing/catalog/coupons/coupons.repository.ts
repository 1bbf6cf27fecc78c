import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../../common/database/mode-db.js';
import { isUuid } from '../../../../common/ids.js';
import { Coupon } from './entities/coupon.entity.js';

/** Coupons of one application in the request's mode; a deleted coupon (deleted_at) is found by no read. */
@Injectable()
export class CouponsRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(coupon: Coupon, manager: EntityManager): Promise<Coupon> {
    const repo = this.db.repository(Coupon, manager);
    await repo.insert(coupon as QueryDeepPartialEntity<Coupon>);
    return (await this.findById(coupon.application_id, coupon.id, manager))!;
  }

  findById(applicationId: string, id: string, manager?: EntityManager): Promise<Coupon | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.query(applicationId, manager).andWhere('c.id = :id', { id }).getOne();
  }

  async findMany(applicationId: string, ids: string[], manager?: EntityManager): Promise<Coupon[]> {
    const wanted = [...new Set(ids.filter(isUuid))];
    if (wanted.length === 0) return [];
    return this.db
      .repository(Coupon, manager)
      .createQueryBuilder('c')
      .where('c.application_id = :applicationId AND c.id IN (:...wanted)', { applicationId, wanted })
      .getMany();
  }

  lockById(applicationId: string, id: string, manager: EntityManager): Promise<Coupon | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.query(applicationId, manager).andWhere('c.id = :id', { id }).setLock('pessimistic_write').getOne();
  }

  async update(
    applicationId: string,
    id: string,
    changes: Partial<Pick<Coupon, 'name' | 'metadata' | 'deleted_at' | 'updated_at'>>,
    manager: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(Coupon, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<Coupon>);
  }

  /**
   * One redemption, counted atomically: the row is incremented only while it is not deleted, its
   * redeem_by has not passed and times_redeemed is below max_redemptions. A concurrent redemption
   * waits for this row's lock and re-checks the condition, so the count never passes the maximum.
   * The updated coupon, or null when the condition failed.
   */
  async redeem(applicationId: string, id: string, now: Date, manager: EntityManager): Promise<Coupon | null> {
    const table = this.db.table('coupons');
    const rows: Array<{ id: string }> = await manager.query(
      `WITH redeemed AS (
         UPDATE ${table} SET times_redeemed = times_redeemed + 1
         WHERE application_id = $1 AND id = $2 AND deleted_at IS NULL
           AND (max_redemptions IS NULL OR times_redeemed < max_redemptions)
           AND (redeem_by IS NULL OR redeem_by > $3)
         RETURNING id)
       SELECT id FROM redeemed`,
      [applicationId, id, now],
    );
    return rows.length === 0 ? null : this.findById(applicationId, id, manager);
  }

  /** Gives back one redemption (a subscription checkout that expired unpaid); never below zero. */
  async release(applicationId: string, id: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE ${this.db.table('coupons')} SET times_redeemed = times_redeemed - 1
        WHERE application_id = $1 AND id = $2 AND times_redeemed > 0`,
      [applicationId, id],
    );
  }

  /** The application's coupons that are not deleted, for lists and reads. */
  query(applicationId: string, manager?: EntityManager): SelectQueryBuilder<Coupon> {
    return this.db
      .repository(Coupon, manager)
      .createQueryBuilder('c')
      .where('c.application_id = :applicationId AND c.deleted_at IS NULL', { applicationId });
  }
}
