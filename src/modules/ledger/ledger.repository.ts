import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid, newId } from '../../common/ids.js';
import { Balance } from './entities/balance.entity.js';
import { BalanceTransaction } from './entities/balance-transaction.entity.js';

/** Reads of the ledger's tables; every read is scoped to the application, the mode is the request's. */
@Injectable()
export class LedgerRepository {
  constructor(private readonly db: ModeDb) {}

  balances(applicationId: string, manager?: EntityManager): SelectQueryBuilder<Balance> {
    return this.db
      .repository(Balance, manager)
      .createQueryBuilder('b')
      .where('b.application_id = :applicationId', { applicationId });
  }

  entries(applicationId: string): SelectQueryBuilder<BalanceTransaction> {
    return this.db
      .repository(BalanceTransaction)
      .createQueryBuilder('bt')
      .where('bt.application_id = :applicationId', { applicationId });
  }

  /**
   * The balance of an owner (account, customer, currency), created with zero amounts on first use.
   * Read first: an `INSERT … ON CONFLICT DO NOTHING` on a balance that exists waits for any
   * transaction holding its row (a posting to it, until that commits), which for a hot balance (the
   * platform's fee balance, credited by every charge) queued every payment behind every other
   * (`bench:primary`: ~280 ms per payment waiting in that statement at 8 payments at once). A plain
   * read never waits; only a balance seen missing is inserted, then read again.
   */
  async upsertBalance(
    owner: {
      applicationId: string;
      customerId: string | null;
      account: string;
      currency: string;
      name: string | null;
      description: string | null;
      scalingFactor: number;
    },
    now: Date,
    manager?: EntityManager,
  ): Promise<Balance> {
    const m = manager ?? this.db.manager;
    const find = () =>
      this.db
        .repository(Balance, m)
        .createQueryBuilder('b')
        .where('b.application_id = :applicationId AND b.account = :account AND b.currency = :currency', {
          applicationId: owner.applicationId,
          account: owner.account,
          currency: owner.currency,
        })
        .andWhere(owner.customerId ? 'b.customer_id = :customerId' : 'b.customer_id IS NULL', {
          customerId: owner.customerId,
        })
        .getOne();
    const existing = await find();
    if (existing) return existing;
    await m.query(
      `INSERT INTO ${this.db.table('balances')}
        (id, application_id, customer_id, account, currency, name, description, available, hold, scaling_factor, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0, $8, $9, $9) ON CONFLICT DO NOTHING`,
      [
        newId(),
        owner.applicationId,
        owner.customerId,
        owner.account,
        owner.currency,
        owner.name,
        owner.description,
        owner.scalingFactor,
        now,
      ],
    );
    const balance = await find();
    if (!balance) throw new Error('balance vanished right after its upsert');
    return balance;
  }

  findBalance(applicationId: string, id: string, manager?: EntityManager): Promise<Balance | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Balance, manager).findOneBy({ application_id: applicationId, id });
  }

  findEntry(applicationId: string, id: string): Promise<BalanceTransaction | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(BalanceTransaction).findOneBy({ application_id: applicationId, id });
  }

  /**
   * Locks balances of this application in id order (the posting statement's order) until
   * `manager`'s transaction ends, and answers their amounts as they stand under the lock, queued
   * debits included.
   */
  async lockAmounts(
    applicationId: string,
    ids: string[],
    manager: EntityManager,
  ): Promise<Map<string, { available: number; hold: number }>> {
    // A hot balance's queued debits (pending_legs) count as applied: a debit decided on this amount
    // can never take the balance below what it saw once they are applied (docs/LEDGER.md, "Hot balances").
    const rows: Array<{ id: string; available: string; hold: string }> = await manager.query(
      `SELECT b.id, (b.available + (SELECT coalesce(sum(q.amount), 0) FROM ${this.db.table('pending_legs')} q
                                     WHERE q.balance_id = b.id AND q.amount < 0))::text AS available,
              b.hold::text AS hold
         FROM ${this.db.table('balances')} b
        WHERE b.application_id = $1 AND b.id = ANY($2::uuid[]) ORDER BY b.id FOR UPDATE OF b`,
      [applicationId, [...new Set(ids)]],
    );
    return new Map(rows.map((r) => [r.id, { available: Number(r.available), hold: Number(r.hold) }]));
  }

  /**
   * The balances' `available` with their queued legs (pending_legs: committed, not yet applied;
   * always `available`) counted, read in one statement: the applier moves a leg from the queue to the
   * balance in one commit, so a reading never misses or counts twice a leg being applied.
   */
  async availableWithQueued(
    applicationId: string,
    ids: string[],
    manager?: EntityManager,
  ): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: string; available: string }> = await (manager ?? this.db.manager).query(
      `SELECT b.id, (b.available + coalesce((SELECT sum(q.amount) FROM ${this.db.table('pending_legs')} q
                                             WHERE q.balance_id = b.id), 0))::text AS available
         FROM ${this.db.table('balances')} b WHERE b.application_id = $1 AND b.id = ANY($2::uuid[])`,
      [applicationId, [...new Set(ids)]],
    );
    return new Map(rows.map((r) => [r.id, Number(r.available)]));
  }

  /** Balances of this application by id. */
  /** `manager`: read inside that transaction (a record embedding a balance it just posted to). */
  async balancesById(applicationId: string, ids: Array<string | null>, manager?: EntityManager): Promise<Balance[]> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return [];
    return this.balances(applicationId, manager).andWhere('b.id IN (:...wanted)', { wanted }).getMany();
  }

  /**
   * The available and held amounts of balances as they were at `asOf` (an RFC 3339 string, passed to
   * PostgreSQL as sent so microseconds count): the sums of their entries created at or before it.
   * Balances without such entries are absent (zero). Read from the entries, never from a snapshot.
   */
  async amountsAsOf(
    applicationId: string,
    ids: string[],
    asOf: string,
  ): Promise<Map<string, { available: number; hold: number }>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ balance_id: string; available: string; hold: string }> = await this.db.manager.query(
      `SELECT balance_id,
              coalesce(sum(amount) FILTER (WHERE state = 'available'), 0)::text AS available,
              coalesce(sum(amount) FILTER (WHERE state = 'hold'), 0)::text AS hold
         FROM ${this.db.table('balance_transactions')}
        WHERE application_id = $1 AND balance_id = ANY($2::uuid[]) AND created_at <= $3::timestamptz
        GROUP BY balance_id`,
      [applicationId, [...new Set(ids)], asOf],
    );
    return new Map(rows.map((r) => [r.balance_id, { available: Number(r.available), hold: Number(r.hold) }]));
  }
}
