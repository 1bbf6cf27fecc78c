import { Injectable } from '@nestjs/common';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import { ChargesService } from './charges.service.js';
import { PaymentCapturesService } from './payment-captures.service.js';
import { PROVIDER_TIMEOUT_MS } from './provider-call.js';

const INTERVAL_MS = 60_000;
const BATCH = 100;

/**
 * Every minute (when RUN_JOBS is true), in both modes: a capture or void of a manual-capture
 * authorization that was claimed (the intent `processing`) and never recorded, because its
 * provider call failed and nobody retried, or its process died mid-call, is read back from the
 * provider and completed as the provider did it or released (PaymentCapturesService.resumeStuck).
 * A claim younger than PROVIDER_TIMEOUT_MS by the service clock may still have a live caller and
 * is left alone. A provider that does not answer leaves the claim for the next run.
 */
@Injectable()
export class CaptureClaimRecoveryJob extends PeriodicJob {
  constructor(
    private readonly charges: ChargesService,
    private readonly captures: PaymentCapturesService,
  ) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.run();
  }

  /** One run as of `now` (the service clock's): how many claims it completed and released. */
  async run(scope: JobScope = {}, now: Date = this.clock.now()): Promise<{ completed: number; released: number }> {
    const done = { completed: 0, released: 0 };
    const claimedBefore = new Date(now.getTime() - PROVIDER_TIMEOUT_MS);
    await this.eachScopedMode(scope, async () => {
      for (const charge of await this.charges.stuckCaptureClaims(claimedBefore, BATCH, scope)) {
        try {
          const outcome = await this.captures.resumeStuck(charge);
          if (outcome) done[outcome] += 1;
        } catch (err) {
          this.logger.warn({ err }, `stuck capture claim of charge ${charge.id} not resumed; retried next run`);
        }
      }
    });
    if (done.completed + done.released > 0) this.logger.log(`stuck capture claims: ${JSON.stringify(done)}`);
    return done;
  }
}
