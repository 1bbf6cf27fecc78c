import { Injectable } from '@nestjs/common';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import { CreditGrantsService } from './credit-grants.service.js';

const INTERVAL_MS = 15_000;
const BATCH = 100;

/**
 * Every 15 s (when RUN_JOBS is true), in both modes: grants whose `expires_at` has come by their
 * customer's clock (a test clock's frozen time, else the service clock) expire, and their remaining
 * credit leaves the customer's balance. Credit stops counting at `expires_at` itself (ingestion and
 * invoices compare it), so the job's delay only postpones the ledger posting and the event. Safe
 * with several replicas (FOR UPDATE SKIP LOCKED).
 */
@Injectable()
export class CreditGrantsJob extends PeriodicJob {
  constructor(private readonly grants: CreditGrantsService) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.run();
  }

  /** One run as of the service clock (tests scope it to their applications). */
  async run(scope: JobScope = {}): Promise<{ expired: number }> {
    let expired = 0;
    await this.eachScopedMode(scope, async () => {
      expired += await this.untilDrained(BATCH, () => this.grants.expireDue(BATCH, scope));
    });
    return { expired };
  }
}
