import { Injectable } from '@nestjs/common';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import { InvoiceFinalizationService } from './invoice-finalization.service.js';
import { UpcomingInvoicesService } from './upcoming-invoices.service.js';

const INTERVAL_MS = 15_000;
const BATCH = 50;

/**
 * Every 15 s (when RUN_JOBS is true), in both modes: subscription invoices whose grace window
 * ended by their customer's clock are finalized, and subscriptions 3 days before their period end
 * get their `invoice.upcoming` notice. Safe with several replicas: invoices are claimed FOR UPDATE
 * SKIP LOCKED, and a notice is recorded once per period by a unique key.
 */
@Injectable()
export class InvoicingJob extends PeriodicJob {
  constructor(
    private readonly finalization: InvoiceFinalizationService,
    private readonly upcoming: UpcomingInvoicesService,
  ) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.run();
  }

  /** One run as of the service clock (tests scope it to their applications). */
  async run(scope: JobScope = {}): Promise<{ finalized: number; notices: number }> {
    const out = { finalized: 0, notices: 0 };
    await this.eachScopedMode(scope, async () => {
      const now = this.clock.now();
      out.finalized += await this.untilDrained(BATCH, () => this.finalization.dueBatch(now, BATCH, scope));
      out.notices += await this.untilDrained(BATCH, () => this.upcoming.noticeBatch(now, BATCH, scope));
    });
    return out;
  }
}
