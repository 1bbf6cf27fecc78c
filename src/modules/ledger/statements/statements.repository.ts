import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ModeDb } from '../../../common/database/mode-db.js';
import { GENESIS_HASH } from './entry-chain.js';

export interface ChainAsOf {
  entry_count: number;
  last_entry_id: string | null;
  last_entry_hash: string;
  available: number;
  pending: number;
}

export interface StatementRecord {
  id: string;
  application_id: string;
  balance_id: string;
  as_of: Date;
  kid: string;
  payload: Record<string, unknown>;
  jws: string;
  created_at: Date;
}

/** Statements and the reads of a balance's hash chain they sign (hand-written SQL over the ledger's tables). */
@Injectable()
export class StatementsRepository {
  constructor(private readonly db: ModeDb) {}

  /**
   * The chain's longest beginning whose entries were all created at or before `asOf` (in one
   * snapshot): its length, last entry and hash, and the amounts its entries sum to.
   */
  async chainAsOf(applicationId: string, balanceId: string, asOf: Date): Promise<ChainAsOf> {
    const entries = this.db.table('balance_transactions');
    const [row] = await this.db.manager.query(
      `WITH cut AS (
         SELECT coalesce((SELECT min(chain_seq) - 1 FROM ${entries}
                           WHERE application_id = $1 AND balance_id = $2 AND created_at > $3),
                         (SELECT chain_count FROM ${this.db.table('balances')} WHERE application_id = $1 AND id = $2)) AS n
       )
       SELECT (SELECT n FROM cut)::text AS entry_count,
              coalesce(sum(amount) FILTER (WHERE state = 'available'), 0)::text AS available,
              coalesce(sum(amount) FILTER (WHERE state = 'hold'), 0)::text AS pending,
              (array_agg(id ORDER BY chain_seq DESC))[1] AS last_entry_id,
              (array_agg(entry_hash ORDER BY chain_seq DESC))[1] AS last_entry_hash
         FROM ${entries}
        WHERE application_id = $1 AND balance_id = $2 AND chain_seq <= (SELECT n FROM cut)`,
      [applicationId, balanceId, asOf],
    );
    return {
      entry_count: Number(row.entry_count),
      last_entry_id: row.last_entry_id ?? null,
      last_entry_hash: row.last_entry_hash ?? GENESIS_HASH,
      available: Number(row.available),
      pending: Number(row.pending),
    };
  }

  async find(applicationId: string, balanceId: string, id: string): Promise<StatementRecord | null> {
    const [row] = await this.db.manager.query(
      `SELECT id, application_id, balance_id, as_of, kid, payload, jws, created_at FROM ${this.db.table('balance_statements')}
        WHERE application_id = $1 AND balance_id = $2 AND id = $3`,
      [applicationId, balanceId, id],
    );
    return row ?? null;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(record: StatementRecord, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.query(
      `INSERT INTO ${this.db.table('balance_statements')} (id, application_id, balance_id, as_of, kid, payload, jws, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        record.id,
        record.application_id,
        record.balance_id,
        record.as_of,
        record.kid,
        JSON.stringify(record.payload),
        record.jws,
        record.created_at,
      ],
    );
  }

  /**
   * Every entry of the mode (or of one balance) whose stored hash, place or running balance does not
   * recompute, and every balance whose head is not its last entry: what `ledger:verify-chain` reports.
   */
  async brokenChains(
    balanceId?: string,
  ): Promise<Array<{ balance_id: string; entry_id: string | null; problem: string }>> {
    const entries = this.db.table('balance_transactions');
    const balances = this.db.table('balances');
    const hash = `"${this.db.schema}".ledger_entry_hash`;
    const only = balanceId ? 'AND e.balance_id = $1' : '';
    const onlyBalance = balanceId ? 'AND b.id = $1' : '';
    return this.db.manager.query(
      `SELECT e.balance_id, e.id AS entry_id,
              CASE WHEN e.entry_hash IS NULL THEN 'no hash'
                   WHEN e.chain_seq <> e.place THEN 'place ' || e.place || ' has chain_seq ' || e.chain_seq
                   WHEN e.running_balance <> coalesce(e.prev_running, 0) + e.amount THEN 'running_balance does not follow'
                   ELSE 'entry_hash does not recompute' END AS problem
         FROM (SELECT e.*, row_number() OVER w AS place, lag(e.entry_hash) OVER w AS prev_hash,
                      lag(e.running_balance) OVER w AS prev_running
                 FROM ${entries} e WHERE true ${only}
               WINDOW w AS (PARTITION BY e.balance_id ORDER BY e.chain_seq)) e
        WHERE e.entry_hash IS NULL OR e.chain_seq <> e.place
           OR e.running_balance <> coalesce(e.prev_running, 0) + e.amount
           OR e.entry_hash <> ${hash}(coalesce(e.prev_hash, '${GENESIS_HASH}'), e.chain_seq, e.id, e.balance_id,
                e.journal_id, e.amount, e.currency, e.state, e.running_balance, e.created_at)
       UNION ALL
       SELECT b.id, NULL, 'the balance''s chain head is not its last entry'
         FROM ${balances} b
         LEFT JOIN LATERAL (SELECT count(*) AS n, (array_agg(entry_hash ORDER BY chain_seq DESC))[1] AS last
                              FROM ${entries} e WHERE e.balance_id = b.id) c ON true
        WHERE (b.chain_count <> c.n OR b.chain_head <> coalesce(c.last, '${GENESIS_HASH}')) ${onlyBalance}`,
      balanceId ? [balanceId] : [],
    );
  }
}
