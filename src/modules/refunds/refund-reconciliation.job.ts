import { Injectable } from '@nestjs/common';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import { RefundsService } from './refunds.service.js';

const INTERVAL_MS = 60_000;
/**
 * How old an unanswered refund must be before the job asks for it: well past a request's own
 * provider call, so the job seldom asks while the request is still waiting (asking then is safe,
 * only wasted: the provider answers both by the refund id and the answer is applied once).
 */
export const UNANSWERED_AFTER_MS = 60_000;
const BATCH = 100;

/**
 * Every minute (when RUN_JOBS is true), in both modes: pending refunds whose provider answer was
 * never applied (the request lost the database or its process after recording the refund, so it
 * has no provider reference) are sent again by their id, the provider's idempotency key, and the
 * answer is applied (docs/REFUNDS.md). A provider that does not answer leaves them for the next
 * run. Safe with several replicas: the answer is applied under the refund's row lock, once.
 */
@Injectable()
export class RefundReconciliationJob extends PeriodicJob {
  constructor(private readonly refunds: RefundsService) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.run();
  }

  /** One run as of the service clock; answers how many refunds it read and finished. */
  async run(scope: JobScope = {}): Promise<{ read: number; applied: number }> {
    const before = new Date(this.clock.nowMs() - UNANSWERED_AFTER_MS);
    const out = { read: 0, applied: 0 };
    await this.eachScopedMode(scope, () =>
      this.untilDrained(BATCH, async () => {
        const run = await this.refunds.reconcileUnanswered(before, BATCH, scope);
        out.read += run.read;
        out.applied += run.applied;
        return run.applied;
      }),
    );
    if (out.applied > 0) this.logger.log(`refunds with a lost provider answer finished: ${JSON.stringify(out)}`);
    return out;
  }
}
