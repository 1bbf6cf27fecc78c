import { Injectable } from '@nestjs/common';
import { Histogram } from 'prom-client';
import type { EntityManager } from 'typeorm';
import type { Mode } from '../../common/context/principal.js';
import { GroupCommit } from '../../common/database/group-commit.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { PreparedStatements } from '../../common/database/prepared-statements.js';
import { Metrics } from '../../common/observability/metrics.js';
import { applyBatch, lockedBalance, type BatchPosting, type LockedBalance } from './posting-batch.js';
import { lockBalancesSql, writeBatchParams, writeBatchSql, type BatchTables } from './posting-batch.sql.js';
import { postingStatement, type EntryInput, type PostingResult } from './posting.sql.js';

/**
 * Batches in flight at once per mode. Two: while one holds its balances' locks and commits, the next
 * is already waiting for them in the database, so a hot balance's lock is never idle for a round
 * trip to the service (measured in docs/LEDGER.md, "Hot balances").
 */
const BATCH_FLUSHES = 2;
/** The most postings one batch carries. */
const BATCH_POSTINGS = 200;

/** Writes journals: the posting statement, prepared, in the caller's transaction when it gives one. */
@Injectable()
export class PostingsRepository {
  private readonly groups = new Map<Mode, GroupCommit<BatchPosting, PostingResult>>();
  /** Postings per group-commit transaction: above 1, concurrent postings are sharing locks and commits. */
  private readonly perBatch: Histogram<'mode'>;

  constructor(
    private readonly db: ModeDb,
    private readonly prepared: PreparedStatements,
    metrics: Metrics,
  ) {
    this.perBatch = new Histogram({
      name: 'wallet_ledger_postings_per_batch',
      help: 'Postings per group-commit transaction of the ledger (postings outside a caller transaction), by mode.',
      labelNames: ['mode'] as const,
      buckets: [1, 2, 5, 10, 20, 50, 100, 200],
      registers: [metrics.registry],
    });
  }

  /** Whether this request's postings go to the live ledger (the journal answers it before it is read back). */
  get livemode(): boolean {
    return this.db.livemode;
  }

  async post(
    journal: Parameters<typeof postingStatement>[1],
    entries: EntryInput[],
    nonNegativeAvailable: string[],
    manager?: EntityManager,
  ): Promise<PostingResult> {
    const { sql, params } = postingStatement(
      {
        balances: this.db.table('balances'),
        journals: this.db.table('journals'),
        entries: this.db.table('balance_transactions'),
        holdReleases: this.db.table('hold_releases'),
        pendingLegs: this.db.table('pending_legs'),
        entryHash: `"${this.db.schema}".ledger_entry_hash`,
      },
      journal,
      entries,
      nonNegativeAvailable,
    );
    const [result] = await this.prepared.query<PostingResult>(manager ?? this.db.manager, 'ledger_post', sql, params);
    return result;
  }

  /**
   * Group commit (docs/LEDGER.md, "Hot balances"): the posting goes to the database with the other
   * postings of this mode that arrive while earlier batches are in flight, in one transaction that
   * locks their balances once, applies them in order (`applyBatch`) and commits once. Answers once
   * that transaction has committed, with this posting's own outcome: written, or refused on its own.
   */
  postGrouped(posting: BatchPosting): Promise<PostingResult> {
    return this.group()
      .submit([posting])
      .then(([result]) => result);
  }

  /** The current mode's group commit; its flush is bound to that mode's tables and connections. */
  private group(): GroupCommit<BatchPosting, PostingResult> {
    const mode = this.db.mode;
    let group = this.groups.get(mode);
    if (!group) {
      const source = this.db.dataSource;
      const tables: BatchTables = {
        balances: this.db.table('balances'),
        journals: this.db.table('journals'),
        entries: this.db.table('balance_transactions'),
        holdReleases: this.db.table('hold_releases'),
        pendingLegs: this.db.table('pending_legs'),
      };
      const sql = { lock: lockBalancesSql(tables), write: writeBatchSql(tables) };
      const perBatch = this.perBatch.labels({ mode });
      group = new GroupCommit({
        concurrency: BATCH_FLUSHES,
        maxRows: BATCH_POSTINGS,
        flush: (postings) => {
          perBatch.observe(postings.length);
          return source.transaction((manager) => this.flush(manager, sql, postings));
        },
      });
      this.groups.set(mode, group);
    }
    return group;
  }

  private async flush(
    manager: EntityManager,
    sql: { lock: string; write: string },
    postings: BatchPosting[],
  ): Promise<PostingResult[]> {
    const ids = [...new Set(postings.flatMap((p) => p.entries.map((e) => e.balance_id)))].sort();
    const rows = await this.prepared.query<Record<keyof LockedBalance, string | null>>(
      manager,
      'ledger_batch_lock',
      sql.lock,
      [ids],
    );
    const locked = new Map(rows.map((r): [string, LockedBalance] => [r.id!, lockedBalance(r)]));
    const { results, writes } = applyBatch(locked, postings);
    if (writes.journals.length) {
      await this.prepared.query(manager, 'ledger_batch_write', sql.write, writeBatchParams(writes));
    }
    return results;
  }
}
