import { Injectable } from '@nestjs/common';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import { ChargeOutcomesService } from './charge-outcomes.service.js';
import { PROVIDER_TIMEOUT_MS } from './provider-call.js';

const INTERVAL_MS = 60_000;
/**
 * How old an unanswered charge must be before the job reads it back: past its request's own
 * provider call (PROVIDER_TIMEOUT_MS) with room to spare, so a provider that has no payment for it
 * never will, and the job seldom reads back a charge whose request is still applying the answer
 * (harmless: the answer is applied under the charge's row lock, once).
 */
export const CHARGE_UNANSWERED_AFTER_MS = 2 * PROVIDER_TIMEOUT_MS;
const BATCH = 100;

/**
 * Every minute (when RUN_JOBS is true), in both modes: pending charges that never got their
 * provider's answer applied (the confirm request lost the database or its process after recording
 * the attempt, so the charge has no provider reference) are read back from the provider by the
 * service's charge id and the answer applied through the webhook's own code
 * (ChargeOutcomesService.applyTo); a provider that made no payment for it fails the attempt, and
 * one that does not answer leaves it for the next run (docs/PROVIDERS.md, docs/IDEMPOTENCY.md).
 */
@Injectable()
export class ChargeReconciliationJob extends PeriodicJob {
  constructor(private readonly outcomes: ChargeOutcomesService) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.run();
  }

  /** One run as of the service clock; answers how many charges it read and finished. */
  async run(scope: JobScope = {}): Promise<{ read: number; applied: number }> {
    const before = new Date(this.clock.nowMs() - CHARGE_UNANSWERED_AFTER_MS);
    const out = { read: 0, applied: 0 };
    await this.eachScopedMode(scope, () =>
      this.untilDrained(BATCH, async () => {
        const run = await this.outcomes.reconcileUnanswered(before, BATCH, scope);
        out.read += run.read;
        out.applied += run.applied;
        return run.applied;
      }),
    );
    if (out.applied > 0) this.logger.log(`charges with a lost provider answer finished: ${JSON.stringify(out)}`);
    return out;
  }
}
