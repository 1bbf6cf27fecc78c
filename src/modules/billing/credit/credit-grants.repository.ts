import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { isUuid } from '../../../common/ids.js';
import { CreditGrant, type CreditGrantStatus } from './entities/credit-grant.entity.js';

/** Credit grants of one application in the request's (or job's) mode. */
@Injectable()
export class CreditGrantsRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(grant: CreditGrant, manager: EntityManager): Promise<CreditGrant> {
    await this.db.repository(CreditGrant, manager).insert(grant as QueryDeepPartialEntity<CreditGrant>);
    return (await this.findById(grant.application_id, grant.id, manager))!;
  }

  findById(applicationId: string, id: string, manager?: EntityManager, lock = false): Promise<CreditGrant | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    const qb = this.query(applicationId, manager).andWhere('g.id = :id', { id });
    return (lock ? qb.setLock('pessimistic_write') : qb).getOne();
  }

  query(applicationId: string, manager?: EntityManager): SelectQueryBuilder<CreditGrant> {
    return this.db
      .repository(CreditGrant, manager)
      .createQueryBuilder('g')
      .where('g.application_id = :applicationId', { applicationId });
  }

  /**
   * The customer's grants in `currency` that can pay at `at` (active, effective, not expired), locked
   * in id order (one fixed order, so two invoices of one customer never deadlock).
   */
  lockUsable(
    applicationId: string,
    customerId: string,
    currency: string,
    at: Date,
    manager: EntityManager,
  ): Promise<CreditGrant[]> {
    return this.query(applicationId, manager)
      .andWhere("g.customer_id = :customerId AND g.currency = :currency AND g.status = 'active'", {
        customerId,
        currency,
      })
      .andWhere('g.remaining > 0 AND g.effective_at <= :at AND (g.expires_at IS NULL OR g.expires_at > :at)', { at })
      .orderBy('g.id')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** Takes `amount` from each grant's remaining (never below zero: the CHECK constraint refuses it). */
  async draw(applicationId: string, draws: Array<{ id: string; amount: number }>, at: Date, manager: EntityManager) {
    if (draws.length === 0) return;
    await manager.query(
      `UPDATE ${this.db.table('credit_grants')} g SET remaining = g.remaining - d.amount, updated_at = $3
         FROM unnest($2::uuid[], $4::bigint[]) AS d(id, amount)
        WHERE g.application_id = $1 AND g.id = d.id`,
      [applicationId, draws.map((d) => d.id), at, draws.map((d) => d.amount)],
    );
  }

  /** Ends an active grant (voided or expired at `at`): its remaining goes to zero. */
  async end(
    applicationId: string,
    id: string,
    status: Exclude<CreditGrantStatus, 'active'>,
    at: Date,
    now: Date,
    manager: EntityManager,
  ): Promise<void> {
    await this.db.repository(CreditGrant, manager).update(
      { application_id: applicationId, id, status: 'active' },
      {
        status,
        remaining: '0',
        ...(status === 'voided' ? { voided_at: at } : { expired_at: at }),
        updated_at: now,
      },
    );
  }

  /**
   * Active grants whose expiry has come by their own clock (the customer's test clock's frozen time,
   * else `now`), locked with SKIP LOCKED so replicas share the work.
   */
  async claimExpired(
    now: Date,
    limit: number,
    scope: JobScope,
    manager: EntityManager,
  ): Promise<Array<CreditGrant & { expiry_now: Date }>> {
    const grants = this.db.table('credit_grants');
    const clocks = this.db.table('test_clocks');
    const rows: Array<{ id: string; application_id: string; expiry_now: Date }> = await manager.query(
      `SELECT g.id, g.application_id, coalesce(tc.frozen_time, $1) AS expiry_now
         FROM ${grants} g LEFT JOIN ${clocks} tc ON tc.id = g.test_clock_id
        WHERE g.status = 'active' AND g.expires_at IS NOT NULL
          AND g.expires_at <= coalesce(tc.frozen_time, $1)
          ${scope.applicationIds ? 'AND g.application_id = ANY($3::uuid[])' : ''}
        ORDER BY g.expires_at LIMIT $2
        FOR UPDATE OF g SKIP LOCKED`,
      scope.applicationIds ? [now, limit, [...scope.applicationIds]] : [now, limit],
    );
    if (rows.length === 0) return [];
    const found = await this.db
      .repository(CreditGrant, manager)
      .createQueryBuilder('g')
      .where('g.id IN (:...ids)', { ids: rows.map((r) => r.id) })
      .getMany();
    const nowOf = new Map(rows.map((r) => [r.id, new Date(r.expiry_now)]));
    return found.map((g) => Object.assign(g, { expiry_now: nowOf.get(g.id)! }));
  }
}
