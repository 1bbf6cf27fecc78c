import { Injectable } from '@nestjs/common';
import type { Mode } from '../../common/context/principal.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import { newId } from '../../common/ids.js';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import { ApplicationsService } from '../applications/index.js';
import type { ReconciliationRun } from './entities/reconciliation-run.entity.js';
import { MISMATCHES } from './outcomes.js';
import { reconciliationRunTransition } from './reconciliation-run.transitions.js';
import { ReconciliationRunsRepository } from './reconciliation-runs.repository.js';
import { ReconciliationMetrics } from './reconciliation.metrics.js';
import { toReconciliationRunResponse } from './reconciliation.responses.js';
import { SettlementSources } from './settlement-sources.js';

const INTERVAL_MS = 5_000;
/** How often a replica looks for new payouts to schedule runs for. */
const SCHEDULE_EVERY_MS = 60_000;
/** How long a replica holds a run it imports; a run whose replica died is taken again after it. */
const LEASE_MS = 10 * 60_000;
const DAY_MS = 24 * 3600_000;
/** The schedule looks this far back for payouts before its newest scheduled run (payouts listed late). */
const LOOKBACK_MS = DAY_MS;
/** Payouts a run over an interval takes at most. */
const INTERVAL_PAYOUTS = 100;

/** What importing a run's settlement came to: its line count, or why it failed. */
type Imported = { lines: number } | { error: string };

/**
 * Reconciles provider settlements with the ledger (docs/RECONCILIATION.md). Once a minute it makes a
 * scheduled run for each new payout of each provider, for each application that reconciles that
 * provider (a unique index keeps replicas from making two); every 5 s it claims pending runs one at
 * a time under a lease (FOR UPDATE SKIP LOCKED), imports the payout's settlement lines page by page into
 * the staging table (outside any transaction: the provider is called with no lock held), and
 * matches them with the ledger in one statement, in the transaction that checks the lease, writes
 * the result and records `reconciliation.mismatch`.
 */
@Injectable()
export class ReconciliationRunsJob extends PeriodicJob {
  constructor(
    private readonly runs: ReconciliationRunsRepository,
    private readonly sources: SettlementSources,
    private readonly applications: ApplicationsService,
    private readonly events: EventRecorder,
    private readonly metrics: ReconciliationMetrics,
  ) {
    super(INTERVAL_MS);
  }

  /** When this replica last looked for new payouts. */
  private scheduledAtMs = 0;

  protected runOnce(): Promise<unknown> {
    const now = this.clock.nowMs();
    const schedule = now - this.scheduledAtMs >= SCHEDULE_EVERY_MS;
    if (schedule) this.scheduledAtMs = now;
    return this.eachScopedMode({}, async (mode) => {
      if (schedule) await this.schedule(mode);
      return this.untilDrained(1, () => this.runOne(mode, {}));
    });
  }

  /** Runs every pending run of the scope; answers how many finished (succeeded or failed). */
  async runPending(scope: JobScope = {}): Promise<number> {
    const done = await this.eachScopedMode(scope, (mode) => this.untilDrained(1, () => this.runOne(mode, scope)));
    return done.reduce((sum, n) => sum + n, 0);
  }

  /** Makes the scheduled runs of every new payout in the scope's modes; answers how many were made. */
  async scheduleNew(scope: JobScope = {}): Promise<number> {
    const made = await this.eachScopedMode(scope, (mode) => this.schedule(mode, scope.applicationIds ?? null));
    return made.reduce((sum, n) => sum + n, 0);
  }

  private async schedule(mode: Mode, applicationIds: readonly string[] | null = null): Promise<number> {
    let made = 0;
    for (const provider of this.sources.scheduled(mode)) {
      const subscribers = (await this.runs.subscribers(provider)).filter(
        (id) => !applicationIds || applicationIds.includes(id),
      );
      if (subscribers.length === 0) continue;
      const now = this.clock.now();
      const last = await this.runs.lastScheduledAt(provider);
      const since = new Date((last?.getTime() ?? now.getTime() - 7 * DAY_MS) - LOOKBACK_MS);
      let payouts;
      try {
        payouts = await this.sources.of(provider, mode)!.listPayouts(since, INTERVAL_PAYOUTS);
      } catch (error) {
        this.logger.warn({ err: error, provider }, 'reconciliation: payouts could not be listed');
        continue;
      }
      for (const payout of payouts.filter((p) => p.status !== 'failed' && p.status !== 'canceled')) {
        for (const applicationId of subscribers) {
          const inserted = await this.runs.insertScheduled({
            id: newId(),
            application_id: applicationId,
            provider,
            payout: payout.reference,
            created_at: this.clock.now(),
          } as ReconciliationRun);
          if (inserted) made += 1;
        }
      }
    }
    return made;
  }

  private async runOne(mode: Mode, scope: JobScope): Promise<number> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + LEASE_MS);
    const run = await this.runs.claimPending(now, until, scope.applicationIds ?? null);
    if (!run) return 0;
    const application = (await this.applications.byIds([run.application_id])).get(run.application_id);
    if (!application) return 0;
    await this.context.runInMode(
      mode,
      async () => {
        let lines = 0;
        try {
          lines = await this.importLines(run, mode);
        } catch (error) {
          this.logger.error({ err: error, reconciliation_run: run.id }, 'reconciliation run failed');
          const message = error instanceof Error ? error.message : String(error);
          await this.complete(run, until, { error: `The settlement could not be imported: ${message}` });
          return;
        }
        await this.complete(run, until, { lines });
      },
      { application },
    );
    return 1;
  }

  /** The run's payouts' settlement lines into the staging table, a provider page at a time. */
  private async importLines(run: ReconciliationRun, mode: Mode): Promise<number> {
    const source = this.sources.of(run.provider, mode);
    if (!source) throw new Error(`provider ${run.provider} has no settlements in ${mode} mode`);
    await this.runs.clearRun(run.application_id, run.id);
    const payouts = run.payout
      ? [run.payout]
      : (await source.listPayouts(run.interval_start!, INTERVAL_PAYOUTS))
          .filter((p) => p.created_at < run.interval_end!)
          .map((p) => p.reference);
    let lines = 0;
    for (const payout of payouts) {
      lines += await source.settlementItems(payout, (page) => this.runs.stage(run.id, payout, page));
    }
    return lines;
  }

  private async complete(run: ReconciliationRun, claimedUntil: Date, outcome: Imported): Promise<void> {
    const now = this.clock.now();
    const succeeded = 'lines' in outcome;
    const status = reconciliationRunTransition(run.status, succeeded ? 'succeed' : 'fail', run.id);
    const counts = await this.runs.transaction(async (manager) => {
      if (!(await this.runs.holds(run.application_id, run.id, claimedUntil, manager))) return null;
      if (!succeeded) {
        await this.runs.writeStatus(
          run.application_id,
          run.id,
          claimedUntil,
          status,
          { error: outcome.error, updated_at: now },
          manager,
        );
        return null;
      }
      const found = await this.runs.match(run.application_id, run.id, run.provider, now, manager);
      const mismatches = MISMATCHES.reduce((sum, o) => sum + found[o], 0);
      const written = await this.runs.writeStatus(
        run.application_id,
        run.id,
        claimedUntil,
        status,
        {
          line_count: outcome.lines,
          item_count: Object.values(found).reduce((a, b) => a + b, 0),
          mismatch_count: mismatches,
          outcomes: found,
          succeeded_at: now,
          updated_at: now,
        },
        manager,
      );
      if (!written) return null;
      if (mismatches > 0) {
        await this.events.record(manager, {
          applicationId: run.application_id,
          type: 'reconciliation.mismatch',
          object: toReconciliationRunResponse(written),
          request: null,
        });
      }
      return found;
    });
    if (counts) this.metrics.finished(run.provider, counts);
  }
}
