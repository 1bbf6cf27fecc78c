import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import { returnedRows } from '../../common/database/returned-rows.js';
import { claimOldestPendingSql } from '../../common/jobs/run-queue.sql.js';
import { isUuid, newId } from '../../common/ids.js';
import type { SettlementItem } from '../../providers/ports/settlement.port.js';
import { ReconciliationItem } from './entities/reconciliation-item.entity.js';
import { ReconciliationRun } from './entities/reconciliation-run.entity.js';
import { outcomeCounts, type Outcome } from './outcomes.js';
import type { ReconciliationRunStatus } from './reconciliation-run.transitions.js';
import { matchStatement, outcomeCountsStatement, stageLinesStatement } from './reconciliation.sql.js';

/** The only door to the reconciliation tables; every read is scoped to the application, the mode is the bound one. */
@Injectable()
export class ReconciliationRunsRepository {
  constructor(private readonly db: ModeDb) {}

  private readonly table = (name: string) => this.db.table(name);

  async insert(run: ReconciliationRun, manager?: EntityManager): Promise<ReconciliationRun> {
    const repo = this.db.repository(ReconciliationRun, manager);
    return repo.save(repo.create(run));
  }

  /** A scheduled run for a payout, unless one exists (replicas discovering the same payout make one): whether it was made. */
  async insertScheduled(run: ReconciliationRun): Promise<boolean> {
    const rows = returnedRows<{ id: string }>(
      await this.db.manager.query(
        `INSERT INTO ${this.table('reconciliation_runs')}
           (id, application_id, provider, payout, trigger, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'scheduled', 'pending', $5, $5)
         ON CONFLICT (application_id, provider, payout) WHERE trigger = 'scheduled' DO NOTHING
         RETURNING id`,
        [run.id, run.application_id, run.provider, run.payout, run.created_at],
      ),
    );
    return rows.length > 0;
  }

  find(applicationId: string, id: string, manager?: EntityManager): Promise<ReconciliationRun | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(ReconciliationRun, manager).findOneBy({ application_id: applicationId, id });
  }

  query(applicationId: string): SelectQueryBuilder<ReconciliationRun> {
    return this.db
      .repository(ReconciliationRun)
      .createQueryBuilder('r')
      .where('r.application_id = :applicationId', { applicationId });
  }

  items(applicationId: string, runId: string): SelectQueryBuilder<ReconciliationItem> {
    return this.db
      .repository(ReconciliationItem)
      .createQueryBuilder('i')
      .where('i.application_id = :applicationId AND i.run_id = :runId', { applicationId, runId });
  }

  /** The applications that reconcile `provider` already (a run of theirs exists): the schedule's subscribers. */
  async subscribers(provider: string): Promise<string[]> {
    const rows: Array<{ application_id: string }> = await this.db.manager.query(
      `SELECT DISTINCT application_id FROM ${this.table('reconciliation_runs')} WHERE provider = $1`,
      [provider],
    );
    return rows.map((r) => r.application_id);
  }

  /** The newest payout time a scheduled run of `provider` was made for, over every application; null when none. */
  async lastScheduledAt(provider: string): Promise<Date | null> {
    const rows: Array<{ at: Date | null }> = await this.db.manager.query(
      `SELECT max(created_at) AS at FROM ${this.table('reconciliation_runs')} WHERE provider = $1 AND trigger = 'scheduled'`,
      [provider],
    );
    return rows[0]?.at ? new Date(rows[0].at) : null;
  }

  /**
   * Claims the oldest pending run whose lease is free (none, or expired) until `until`: FOR UPDATE
   * SKIP LOCKED, so replicas never claim the same run at once, and a replica that died mid-run
   * leaves a lease that expires. `applicationIds` null: every application.
   */
  async claimPending(
    now: Date,
    until: Date,
    applicationIds: readonly string[] | null,
  ): Promise<ReconciliationRun | null> {
    const table = this.table('reconciliation_runs');
    const claimed = returnedRows<{ id: string; application_id: string }>(
      await this.db.manager.query(claimOldestPendingSql(table), [now, until, applicationIds]),
    );
    return claimed.length > 0 ? this.find(claimed[0].application_id, claimed[0].id) : null;
  }

  /** Forgets what an earlier, interrupted attempt of the run staged or matched. */
  async clearRun(applicationId: string, runId: string): Promise<void> {
    await this.db.manager.query(`DELETE FROM ${this.table('reconciliation_lines')} WHERE run_id = $1`, [runId]);
    await this.db.manager.query(
      `DELETE FROM ${this.table('reconciliation_items')} WHERE application_id = $1 AND run_id = $2`,
      [applicationId, runId],
    );
  }

  /** One page of the provider's settlement lines into the staging table, in one statement. */
  async stage(runId: string, payout: string, lines: readonly SettlementItem[]): Promise<void> {
    await this.db.manager.query(stageLinesStatement(this.table), [
      runId,
      payout,
      lines.map((l) => l.id),
      lines.map((l) => l.reference),
      lines.map((l) => l.type),
      lines.map((l) => l.amount),
      lines.map((l) => l.fee),
      lines.map((l) => l.currency),
      lines.map((l) => l.created_at),
    ]);
  }

  /**
   * Matches the staged lines with the ledger (reconciliation.sql.ts) into the run's items, in
   * `manager`'s transaction; answers the counts per outcome.
   */
  async match(
    applicationId: string,
    runId: string,
    provider: string,
    now: Date,
    manager: EntityManager,
  ): Promise<Record<Outcome, number>> {
    const [{ count }] = (await manager.query(matchStatement(this.table, 'count'), [
      runId,
      applicationId,
      provider,
    ])) as [{ count: number }];
    const ids = Array.from({ length: count }, () => newId());
    await manager.query(matchStatement(this.table, 'insert'), [runId, applicationId, provider, ids, now]);
    const rows: Array<{ outcome: string; count: number }> = await manager.query(outcomeCountsStatement(this.table), [
      applicationId,
      runId,
    ]);
    return outcomeCounts(rows);
  }

  /** Locks the run in `manager`'s transaction; whether it is still pending under the lease `claimedUntil`. */
  async holds(applicationId: string, id: string, claimedUntil: Date, manager: EntityManager): Promise<boolean> {
    const locked = await this.db
      .repository(ReconciliationRun, manager)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .where('r.application_id = :applicationId AND r.id = :id', { applicationId, id })
      .getOne();
    return !!locked && locked.status === 'pending' && locked.claimed_until?.getTime() === claimedUntil.getTime();
  }

  /**
   * The run's one status writer, in `manager`'s transaction: locks the row and writes the new status
   * only while the run is still pending under the lease `claimedUntil` (a replica whose lease expired
   * and was taken over writes nothing); answers the written run or null.
   */
  async writeStatus(
    applicationId: string,
    id: string,
    claimedUntil: Date,
    status: ReconciliationRunStatus,
    changes: Pick<
      Partial<ReconciliationRun>,
      'error' | 'line_count' | 'item_count' | 'mismatch_count' | 'outcomes' | 'succeeded_at' | 'updated_at'
    >,
    manager: EntityManager,
  ): Promise<ReconciliationRun | null> {
    if (!(await this.holds(applicationId, id, claimedUntil, manager))) return null;
    await this.db
      .repository(ReconciliationRun, manager)
      .update({ application_id: applicationId, id }, { ...changes, status, claimed_until: null });
    return this.find(applicationId, id, manager);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
