import { Injectable } from '@nestjs/common';
import { QueryFailedError, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../../common/database/mode-db.js';
import { isUuid } from '../../../../common/ids.js';
import { PromotionCode } from './entities/promotion-code.entity.js';

/** Promotion codes of one application in the request's mode. */
@Injectable()
export class PromotionCodesRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Inserts the code; null when the application has the same code in any letter case (the unique index). */
  async insert(code: PromotionCode, manager: EntityManager): Promise<PromotionCode | null> {
    const repo = this.db.repository(PromotionCode, manager);
    try {
      return await repo.save(repo.create(code));
    } catch (err) {
      if (err instanceof QueryFailedError && (err as { code?: string }).code === '23505') return null;
      throw err;
    }
  }

  findById(applicationId: string, id: string, manager?: EntityManager): Promise<PromotionCode | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(PromotionCode, manager).findOneBy({ application_id: applicationId, id });
  }

  /** By code, in any letter case (through the lower(code) index). */
  findByCode(applicationId: string, code: string, manager?: EntityManager): Promise<PromotionCode | null> {
    return this.query(applicationId, manager).andWhere('lower(pc.code) = lower(:code)', { code }).getOne();
  }

  lockById(applicationId: string, id: string, manager: EntityManager): Promise<PromotionCode | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.query(applicationId, manager).andWhere('pc.id = :id', { id }).setLock('pessimistic_write').getOne();
  }

  async update(
    applicationId: string,
    id: string,
    changes: Partial<Pick<PromotionCode, 'active' | 'metadata' | 'updated_at'>>,
    manager: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(PromotionCode, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<PromotionCode>);
  }

  /**
   * One redemption, counted atomically: incremented only while the code is active, not expired and
   * below max_redemptions; a concurrent redemption waits for the row lock and re-checks. The updated
   * code, or null when the condition failed.
   */
  async redeem(applicationId: string, id: string, now: Date, manager: EntityManager): Promise<PromotionCode | null> {
    const table = this.db.table('promotion_codes');
    const rows: Array<{ id: string }> = await manager.query(
      `WITH redeemed AS (
         UPDATE ${table} SET times_redeemed = times_redeemed + 1
         WHERE application_id = $1 AND id = $2 AND active
           AND (max_redemptions IS NULL OR times_redeemed < max_redemptions)
           AND (expires_at IS NULL OR expires_at > $3)
         RETURNING id)
       SELECT id FROM redeemed`,
      [applicationId, id, now],
    );
    return rows.length === 0 ? null : this.findById(applicationId, id, manager);
  }

  /** Gives back one redemption (a subscription checkout that expired unpaid); never below zero. */
  async release(applicationId: string, id: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE ${this.db.table('promotion_codes')} SET times_redeemed = times_redeemed - 1
        WHERE application_id = $1 AND id = $2 AND times_redeemed > 0`,
      [applicationId, id],
    );
  }

  query(applicationId: string, manager?: EntityManager): SelectQueryBuilder<PromotionCode> {
    return this.db
      .repository(PromotionCode, manager)
      .createQueryBuilder('pc')
      .where('pc.application_id = :applicationId', { applicationId });
  }
}
