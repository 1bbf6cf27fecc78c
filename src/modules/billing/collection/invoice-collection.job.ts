import { Injectable } from '@nestjs/common';
import { scopeOf } from '../../../common/context/principal.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import { ApplicationsService } from '../../applications/index.js';
import { InvoicesService } from '../../checkout/index.js';
import { BillingClock } from '../subscriptions/index.js';
import { InvoiceCollectionService } from './invoice-collection.service.js';

const INTERVAL_MS = 15_000;
const BATCH = 50;

/**
 * Every 15 s (when RUN_JOBS is true), in both modes: the off-session attempts on open subscription
 * invoices that are due by their customer's clock (the service clock, or a test clock's
 * frozen_time), earliest first, each after its claim's transaction committed (no row locked while
 * the provider is called). Safe with several replicas: invoices are claimed with FOR UPDATE SKIP
 * LOCKED, and an attempt is recorded on the locked invoice only if it is still due and none is in
 * flight, so one due attempt is made once. A test clock advanced past several retries gets them in
 * order within one run, each as of its scheduled time.
 */
@Injectable()
export class InvoiceCollectionJob extends PeriodicJob {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly collection: InvoiceCollectionService,
    private readonly applications: ApplicationsService,
    private readonly billingClock: BillingClock,
  ) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.run();
  }

  /** One run (tests scope it to their applications); answers the attempts made by outcome. */
  async run(scope: JobScope = {}): Promise<{ paid: number; failed: number; skipped: number }> {
    const out = { paid: 0, failed: 0, skipped: 0 };
    await this.eachScopedMode(scope, async (mode) => {
      const clocks = await this.invoices.clocksWithAttempts(scope.applicationIds);
      const applications = await this.applications.byIds(clocks.map((c) => c.applicationId));
      for (const { applicationId, clockId } of clocks) {
        const application = applications.get(applicationId);
        if (!application || this.stopping) continue;
        const now = clockId
          ? await this.billingClock.nowFor({ application_id: applicationId, test_clock_id: clockId })
          : this.clock.now();
        const tried = new Set<string>();
        for (let progress = true; progress && !this.stopping;) {
          progress = false;
          const due = await this.invoices.dueAttempts(applicationId, clockId, now, BATCH);
          for (const invoice of due) {
            // An attempt still in flight (skipped) is not asked again in this run.
            if (tried.has(`${invoice.id}:${invoice.next_payment_attempt?.toISOString()}`)) continue;
            tried.add(`${invoice.id}:${invoice.next_payment_attempt?.toISOString()}`);
            const result = await this.context.runInMode(
              mode,
              () => this.collection.attempt(scopeOf(application, mode, invoice.country), invoice),
              { application },
            );
            out[result.status] += 1;
            if (result.status !== 'skipped') progress = true;
          }
        }
      }
    });
    return out;
  }
}
