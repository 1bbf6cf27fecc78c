import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import type { DataSource, EntityManager } from 'typeorm';
import type { Mode } from '../../common/context/principal.js';
import { GroupCommit } from '../../common/database/group-commit.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { PreparedStatements } from '../../common/database/prepared-statements.js';
import { Metrics } from '../../common/observability/metrics.js';
import { applyBatch, lockedBalance, type BatchPosting, type LockedBalance } from './posting-batch.js';
import {
  lockBalancesSql,
  readBalancesSql,
  settleBalancesParams,
  settleBalancesSql,
  writeBatchParams,
  writeBatchSql,
  writeRowsParams,
  writeRowsSql,
  type BatchTables,
} from './posting-batch.sql.js';
import { postingStatement, type EntryInput, type PostingResult } from './posting.sql.js';

/**
 * Batches in flight at once per mode. Pipelined (docs/LEDGER.md, "Hot balances"): each computes
 * from the balances as the batches before it leave them and writes its rows while they still hold
 * the balances, so a hot balance is held only for the moments a batch writes its new amounts and
 * commits.
 */
const BATCH_FLUSHES = 3;
/** The most postings one batch carries. */
const BATCH_POSTINGS = 200;
/**
 * How long a pipelined batch waits for a lock before it gives up and is done again with its
 * balances locked first. Below PostgreSQL's `deadlock_timeout` (1 s by default): in a wait cycle
 * with another writer (a posting that locked a balance first and inserts the same place of its
 * chain), the pipelined batch is always the one that yields, never a caller's transaction.
 */
export const PIPELINED_LOCK_TIMEOUT_MS = 500;

/** SQLSTATEs after which a pipelined batch is done again with its balances locked first. */
const RETRY_LOCKED = new Set([
  '55P03', // lock_not_available: another writer holds a balance (NOWAIT), or waited PIPELINED_LOCK_TIMEOUT_MS
  '40P01', // deadlock_detected
]);

/** A pipelined batch refused at its last statement: a balance moved after the state it computed from. */
class StaleBatch extends Error {}

/** A batch in flight; the batches computed from its balances wait for `locked` before they lock them. */
interface InFlight {
  locked: Promise<void>;
  settled: boolean;
}

/** The state a batch left a balance in (chain_count says how recent), and that batch while it is in flight. */
interface KnownState {
  balance: LockedBalance;
  batch: InFlight;
}

/** Balance states remembered per mode, at most (settled ones are forgotten past it). */
const KNOWN_STATES = 10_000;

/** Writes journals: the posting statement, prepared, in the caller's transaction when it gives one. */
@Injectable()
export class PostingsRepository {
  private readonly groups = new Map<Mode, GroupCommit<BatchPosting, PostingResult>>();
  /** Per mode, the latest state the batches of this process left each balance in. */
  private readonly known = new Map<Mode, Map<string, KnownState>>();
  /** Pipelined batches done again with their balances locked first (a balance moved meanwhile). */
  private readonly redone: Counter<'mode'>;
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
    this.redone = new Counter({
      name: 'wallet_ledger_batches_redone_total',
      help: 'Pipelined ledger batches rolled back and done again with their balances locked first (a balance moved meanwhile), by mode.',
      labelNames: ['mode'] as const,
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
      const sql: BatchSql = {
        lock: lockBalancesSql(tables),
        write: writeBatchSql(tables),
        read: readBalancesSql(tables),
        rows: writeRowsSql(tables),
        settle: settleBalancesSql(tables),
      };
      const perBatch = this.perBatch.labels({ mode });
      const redone = this.redone.labels({ mode });
      group = new GroupCommit({
        concurrency: BATCH_FLUSHES,
        maxRows: BATCH_POSTINGS,
        flush: async (postings) => {
          perBatch.observe(postings.length);
          try {
            return await this.pipelined(source, mode, sql, postings);
          } catch (error) {
            if (!(error instanceof StaleBatch) && !RETRY_LOCKED.has(sqlState(error))) throw error;
            redone.inc();
            return this.locked(source, mode, sql, postings);
          }
        },
      });
      this.groups.set(mode, group);
    }
    return group;
  }

  /**
   * A pipelined batch (docs/LEDGER.md, "Hot balances"): reads its balances without a lock and takes
   * for each the most recent state known (what the batches before it in this process leave it in,
   * even before they commit), applies the postings to it (`applyBatch`), writes the journals and
   * entries, then, once the batches it computed from hold their balances, locks its balances in id
   * order and writes their new amounts only if none moved since the state it used. Throws
   * StaleBatch (or a lock timeout, a taken chain place) when one did: rolled back, nothing of it
   * stays.
   */
  private async pipelined(
    source: DataSource,
    mode: Mode,
    sql: BatchSql,
    postings: BatchPosting[],
  ): Promise<PostingResult[]> {
    let resolve!: () => void;
    const batch: InFlight = { locked: new Promise<void>((r) => (resolve = r)), settled: false };
    const known = this.knownStates(mode);
    let moved: LockedBalance[] = [];
    try {
      return await source.transaction(async (manager) => {
        const ids = balanceIds(postings);
        const rows = await this.prepared.query<Record<keyof LockedBalance, string | null>>(
          manager,
          'ledger_batch_read',
          sql.read,
          [ids, `${PIPELINED_LOCK_TIMEOUT_MS}ms`],
        );
        const state = new Map<string, LockedBalance>();
        const read = new Map<string, number>();
        const before: InFlight[] = [];
        const awaited = new Set<string>();
        for (const row of rows) {
          let b = lockedBalance(row);
          const latest = known.get(b.id);
          if (latest && latest.balance.chain_count > b.chain_count) {
            b = { ...latest.balance, pending_debits: b.pending_debits };
            if (!latest.batch.settled) {
              before.push(latest.batch);
              awaited.add(b.id);
            }
          }
          state.set(b.id, b);
          read.set(b.id, b.chain_count);
        }
        const { results, writes } = applyBatch(state, postings);
        moved = writes.balances;
        for (const b of moved) known.set(b.id, { balance: { ...b }, batch });
        const params = writeBatchParams(writes);
        if (writes.journals.length) {
          await this.prepared.query(manager, 'ledger_batch_rows', sql.rows, writeRowsParams(params));
        }
        await Promise.all(before.map((b) => b.locked));
        try {
          const [{ ok }] = await this.prepared.query<{ ok: boolean }>(
            manager,
            'ledger_batch_settle',
            sql.settle,
            settleBalancesParams(read, awaited, params),
          );
          if (!ok) throw new StaleBatch('a balance moved after the state the batch computed from');
        } finally {
          resolve();
        }
        return results;
      });
    } catch (error) {
      // Its states were never committed: the batches after it find the balances as they are.
      for (const b of moved) if (known.get(b.id)?.batch === batch) known.delete(b.id);
      throw error;
    } finally {
      resolve();
      batch.settled = true;
    }
  }

  /** A batch with its balances locked first (in id order), as every batch was before pipelining: never stale. */
  private locked(source: DataSource, mode: Mode, sql: BatchSql, postings: BatchPosting[]): Promise<PostingResult[]> {
    const known = this.knownStates(mode);
    const batch: InFlight = { locked: Promise.resolve(), settled: false };
    let moved: LockedBalance[] = [];
    return source
      .transaction(async (manager) => {
        const rows = await this.prepared.query<Record<keyof LockedBalance, string | null>>(
          manager,
          'ledger_batch_lock',
          sql.lock,
          [balanceIds(postings)],
        );
        const locked = new Map(rows.map((r): [string, LockedBalance] => [r.id!, lockedBalance(r)]));
        const { results, writes } = applyBatch(locked, postings);
        moved = writes.balances;
        for (const b of moved) known.set(b.id, { balance: { ...b }, batch });
        if (writes.journals.length) {
          await this.prepared.query(manager, 'ledger_batch_write', sql.write, writeBatchParams(writes));
        }
        return results;
      })
      .catch((error: unknown) => {
        for (const b of moved) if (known.get(b.id)?.batch === batch) known.delete(b.id);
        throw error;
      })
      .finally(() => {
        batch.settled = true;
      });
  }

  /** This mode's remembered balance states; past KNOWN_STATES, the settled ones are forgotten. */
  private knownStates(mode: Mode): Map<string, KnownState> {
    let known = this.known.get(mode);
    if (!known) this.known.set(mode, (known = new Map()));
    if (known.size > KNOWN_STATES) {
      for (const [id, state] of known) if (state.batch.settled) known.delete(id);
    }
    return known;
  }
}

interface BatchSql {
  lock: string;
  write: string;
  read: string;
  rows: string;
  settle: string;
}

/** The balances a batch's postings name, in id order. */
function balanceIds(postings: BatchPosting[]): string[] {
  return [...new Set(postings.flatMap((p) => p.entries.map((e) => e.balance_id)))].sort();
}

/** The SQLSTATE of a database error (TypeORM wraps the driver's), or ''. */
function sqlState(error: unknown): string {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : '';
}
