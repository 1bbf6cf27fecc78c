import { Injectable, type OnModuleInit } from '@nestjs/common';
import type {
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { auditHash } from './audit-chain.js';
import { AuditRepository, type NewAuditRow } from './audit.repository.js';

interface Deferred {
  row: NewAuditRow;
  /** The savepoint depth it was recorded at: a rollback to that savepoint drops it. */
  depth: number;
}

const depthOf = (runner: QueryRunner): number => (runner as unknown as { transactionDepth: number }).transactionDepth;

/**
 * Writes a transaction's audit rows at its commit: TypeORM's `beforeTransactionCommit`, on the
 * transaction's own connection, just before its COMMIT (a failure there rolls the change back).
 * So the chain head of an application is locked only for the commit itself, after every other
 * lock the transaction takes: a transaction never waits for a head while holding a row another
 * writer of that application needs, so the head cannot take part in a deadlock. Heads are taken in
 * chain id order (a transaction can touch two chains: an application's and the platform's).
 * Rows recorded inside a savepoint that is rolled back are dropped with it.
 */
@Injectable()
export class AuditOnCommit implements EntitySubscriberInterface, OnModuleInit {
  private readonly pending = new WeakMap<QueryRunner, Deferred[]>();

  constructor(private readonly repository: AuditRepository) {}

  onModuleInit(): void {
    this.repository.subscribeToCommits(this);
  }

  /** Holds `row` for the commit of `manager`'s transaction; outside a transaction, writes it in one of its own. */
  async defer(manager: EntityManager, row: NewAuditRow): Promise<void> {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) {
      await manager.transaction((tx) => this.write(tx, [row]));
      return;
    }
    const list = this.pending.get(runner) ?? [];
    list.push({ row, depth: depthOf(runner) });
    this.pending.set(runner, list);
  }

  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const runner = event.queryRunner;
    const list = this.pending.get(runner);
    if (!list || list.length === 0) return;
    const depth = depthOf(runner);
    if (depth > 1) {
      // A savepoint released: its rows now belong to the enclosing level.
      for (const d of list) if (d.depth >= depth) d.depth = depth - 1;
      return;
    }
    this.pending.delete(runner);
    await this.write(
      runner.manager,
      list.map((d) => d.row),
    );
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    const runner = event.queryRunner;
    const list = this.pending.get(runner);
    if (!list) return;
    // The depth is already decremented: what was recorded deeper than it is gone.
    const depth = depthOf(runner);
    const kept = depth === 0 ? [] : list.filter((d) => d.depth <= depth);
    if (kept.length === 0) this.pending.delete(runner);
    else this.pending.set(runner, kept);
  }

  private async write(manager: EntityManager, rows: NewAuditRow[]): Promise<void> {
    const ordered = rows
      .map((row, i) => ({ row, i }))
      .sort((a, b) => (a.row.chain_id < b.row.chain_id ? -1 : a.row.chain_id > b.row.chain_id ? 1 : a.i - b.i));
    for (const { row } of ordered) {
      await this.repository.append(manager, row, (previous, seq) => auditHash(previous, { ...row, chain_seq: seq }));
    }
  }
}
