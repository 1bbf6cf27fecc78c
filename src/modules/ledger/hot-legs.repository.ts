import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { Histogram } from 'prom-client';
import type {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import type { Mode } from '../../common/context/principal.js';
import { GroupCommit } from '../../common/database/group-commit.js';
import { PreparedStatements } from '../../common/database/prepared-statements.js';
import { Metrics } from '../../common/observability/metrics.js';
import type { AllConfig } from '../../config/app.config.js';
import { applyLegs, lockedBalance, type JournalInput, type LockedBalance } from './posting-batch.js';
import { lockBalancesSql, writeBatchParams, writeBatchSql, type BatchTables } from './posting-batch.sql.js';
import type { EntryInput } from './posting.sql.js';
import {
  queuedBalancesSql,
  queuedLeg,
  queueLegsParams,
  queueLegsSql,
  takeLegsSql,
  type TakenLegRow,
} from './pending-legs.sql.js';

/** The most legs one applier transaction moves. */
const APPLY_LEGS = 5_000;
/** Applier transactions in flight at once per mode (the second waits for the balances' locks). */
const APPLY_FLUSHES = 2;
/** Balances whose account and currency are remembered (both never change). */
const DESCRIBED = 10_000;

/** What a posting needs to know of a balance to queue a leg on it: both never change. */
export interface BalanceFacts {
  application_id: string;
  currency: string;
  hot: boolean;
}

/**
 * Hot balances in callers' transactions (docs/LEDGER.md, "Hot balances"). A posting made inside a
 * caller's transaction writes its legs on a hot balance (an account of `LEDGER_HOT_ACCOUNTS`) to
 * `pending_legs` with its journal, in the caller's transaction, and takes no lock on that balance:
 * the legs commit with the caller's business change or not at all. After the commit, the balances
 * are handed to the applier: one transaction per batch locks them once (in id order), takes their
 * queued legs in queue order, writes them as entries (running balances, places and hashes in the
 * chains, as `applyLegs` computes them), moves the balances and deletes the queue rows, one commit.
 * Legs left queued (the process died between the caller's commit and the applier's, or an applier
 * transaction failed) are applied by `PendingLegsJob`'s sweep, by any replica.
 */
@Injectable()
export class HotLegsRepository implements EntitySubscriberInterface, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(HotLegsRepository.name);
  private readonly hotAccounts: Set<string>;
  private readonly facts = new Map<string, BalanceFacts>();
  /** Hot balances that got queued legs in a transaction still open, by its runner. */
  private readonly touched = new WeakMap<QueryRunner, Set<string>>();
  private readonly appliers = new Map<Mode, GroupCommit<string, number>>();
  private readonly perApply: Histogram<'mode'>;
  /** Applies started after commits and not finished: awaited before the database closes. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    @InjectDataSource('wallet_test') private readonly test: DataSource,
    @InjectDataSource('wallet_live') private readonly live: DataSource,
    private readonly prepared: PreparedStatements,
    config: ConfigService<AllConfig, true>,
    metrics: Metrics,
  ) {
    this.hotAccounts = new Set(config.get('app.ledgerHotAccounts', { infer: true }));
    this.perApply = new Histogram({
      name: 'wallet_ledger_legs_per_apply',
      help: 'Queued legs on hot balances applied per applier transaction, by mode.',
      labelNames: ['mode'] as const,
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000],
      registers: [metrics.registry],
    });
  }

  onModuleInit(): void {
    for (const source of [this.test, this.live]) {
      if (!source.subscribers.includes(this)) source.subscribers.push(this);
    }
  }

  /** Whether any account is hot (else postings never ask). */
  get enabled(): boolean {
    return this.hotAccounts.size > 0;
  }

  /** The balances' application, currency and hotness (remembered: none of them ever changes). */
  async describe(mode: Mode, ids: string[], manager: EntityManager): Promise<Map<string, BalanceFacts>> {
    const out = new Map<string, BalanceFacts>();
    const unknown: string[] = [];
    for (const id of ids) {
      const known = this.facts.get(`${mode}:${id}`);
      if (known) out.set(id, known);
      else unknown.push(id);
    }
    if (unknown.length === 0) return out;
    const rows = await this.prepared.query<{ id: string; application_id: string; currency: string; account: string }>(
      manager,
      'ledger_balance_facts',
      `SELECT id, application_id, currency, account FROM ${this.tables(mode).balances} WHERE id = ANY($1::uuid[])`,
      [unknown],
    );
    if (this.facts.size + rows.length > DESCRIBED) this.facts.clear();
    for (const r of rows) {
      const facts = { application_id: r.application_id, currency: r.currency, hot: this.hotAccounts.has(r.account) };
      this.facts.set(`${mode}:${r.id}`, facts);
      out.set(r.id, facts);
    }
    return out;
  }

  /**
   * Queues `legs` (all on hot balances) in `manager`'s transaction, with the journal when
   * `withJournal`; the applier takes them once that transaction has committed.
   */
  async queue(
    mode: Mode,
    manager: EntityManager,
    journal: JournalInput,
    legs: EntryInput[],
    withJournal: boolean,
  ): Promise<void> {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) throw new Error('queued legs need the caller transaction');
    await this.prepared.query(
      manager,
      'ledger_queue_legs',
      queueLegsSql(this.tables(mode)),
      queueLegsParams(journal, legs, withJournal),
    );
    const set = this.touched.get(runner) ?? new Set<string>();
    for (const leg of legs) set.add(leg.balance_id);
    this.touched.set(runner, set);
  }

  /** The caller's transaction committed: its hot balances go to the applier (not awaited: the sweep covers a failure). */
  afterTransactionCommit(event: TransactionCommitEvent): void {
    const runner = event.queryRunner;
    const set = this.touched.get(runner);
    if (!set || runner.isTransactionActive) return;
    this.touched.delete(runner);
    const mode: Mode = runner.connection === this.live ? 'live' : 'test';
    const applying = this.applier(mode)
      .submit([...set])
      .catch((error: unknown) => this.logger.warn(`applying queued legs failed (the sweep retries): ${String(error)}`))
      .finally(() => this.inFlight.delete(applying));
    this.inFlight.add(applying);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    // Rolled back whole: its legs are gone. (A savepoint's rollback keeps the set: an apply finds nothing more.)
    if (!event.queryRunner.isTransactionActive) this.touched.delete(event.queryRunner);
  }

  /**
   * Applies every queued leg of `mode` committed so far (the sweep, and tests before they check the
   * ledger); answers how many legs it applied.
   */
  async drain(mode: Mode): Promise<number> {
    const source = this.source(mode);
    let total = 0;
    for (;;) {
      const rows: Array<{ balance_id: string }> = await source.query(queuedBalancesSql(this.tables(mode)));
      if (rows.length === 0) return total;
      const ids = rows.map((r) => r.balance_id);
      const applied = await source.transaction((manager) => this.apply(mode, manager, ids));
      total += applied;
      if (applied === 0) return total;
    }
  }

  private applier(mode: Mode): GroupCommit<string, number> {
    let applier = this.appliers.get(mode);
    if (!applier) {
      const source = this.source(mode);
      const perApply = this.perApply.labels({ mode });
      applier = new GroupCommit<string, number>({
        concurrency: APPLY_FLUSHES,
        maxRows: 1_000,
        flush: async (ids) => {
          let total = 0;
          for (;;) {
            const applied = await source.transaction((manager) => this.apply(mode, manager, [...new Set(ids)]));
            perApply.observe(applied);
            total += applied;
            if (applied < APPLY_LEGS) return ids.map(() => total);
          }
        },
      });
      this.appliers.set(mode, applier);
    }
    return applier;
  }

  /** One applier transaction: lock the balances, take their queued legs, write them, move the balances. */
  private async apply(mode: Mode, manager: EntityManager, ids: string[]): Promise<number> {
    const tables = this.tables(mode);
    const sorted = [...ids].sort();
    const rows = await this.prepared.query<Record<keyof LockedBalance, string | null>>(
      manager,
      'ledger_batch_lock',
      lockBalancesSql(tables),
      [sorted],
    );
    const locked = new Map(rows.map((r): [string, LockedBalance] => [r.id!, lockedBalance(r)]));
    const taken = await this.prepared.query<TakenLegRow>(manager, 'ledger_take_legs', takeLegsSql(tables), [
      sorted,
      APPLY_LEGS,
    ]);
    if (taken.length === 0) return 0;
    const writes = applyLegs(locked, taken.map(queuedLeg));
    await this.prepared.query(manager, 'ledger_batch_write', writeBatchSql(tables), writeBatchParams(writes));
    return taken.length;
  }

  private source(mode: Mode): DataSource {
    return mode === 'live' ? this.live : this.test;
  }

  private tables(mode: Mode): BatchTables {
    const s = `"wallet_${mode}"`;
    return {
      balances: `${s}."balances"`,
      journals: `${s}."journals"`,
      entries: `${s}."balance_transactions"`,
      holdReleases: `${s}."hold_releases"`,
      pendingLegs: `${s}."pending_legs"`,
    };
  }
}
