import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';

/** A hold entry whose funds are due to become available, with what its release posting repeats. */
export interface DueHold {
  entry_id: string;
  application_id: string;
  balance_id: string;
  /** What is left to release: the entry's amount less the held funds taken since (posting.sql.ts). */
  amount: number | string;
  currency: string;
  type: string;
  source: string;
  event_type: string;
  event_id: string | null;
}

/** The queue of held funds waiting for their `available_on` (rows are written by the posting statement). */
@Injectable()
export class HoldsRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Claims up to `limit` due holds (of the given applications, or all) until `manager`'s transaction ends; replicas skip them. */
  claimDue(
    manager: EntityManager,
    now: Date,
    applicationIds: readonly string[] | null,
    limit: number,
  ): Promise<DueHold[]> {
    return manager.query(
      `SELECT r.entry_id, r.application_id, r.balance_id, r.amount, e.currency, e.type, e.source, e.event_type, e.event_id
         FROM ${this.db.table('hold_releases')} r
         JOIN ${this.db.table('balance_transactions')} e ON e.id = r.entry_id
        WHERE r.available_on <= $1 AND ($2::uuid[] IS NULL OR r.application_id = ANY($2::uuid[]))
        ORDER BY r.available_on, r.entry_id
        LIMIT ${Math.trunc(limit)}
        FOR UPDATE OF r SKIP LOCKED`,
      [now, applicationIds],
    );
  }

  /** Locks the balance until `manager`'s transaction ends and answers its hold as it stands. */
  async lockedHold(manager: EntityManager, applicationId: string, balanceId: string): Promise<number> {
    const [row] = await manager.query(
      `SELECT hold::text AS hold FROM ${this.db.table('balances')} WHERE application_id = $1 AND id = $2 FOR UPDATE`,
      [applicationId, balanceId],
    );
    return Number(row?.hold ?? 0);
  }

  async remove(manager: EntityManager, entryIds: string[]): Promise<void> {
    if (entryIds.length === 0) return;
    await manager.query(`DELETE FROM ${this.db.table('hold_releases')} WHERE entry_id = ANY($1::uuid[])`, [entryIds]);
  }
}
