import { Injectable } from '@nestjs/common';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import { ChargesService } from './charges.service.js';
import { PaymentCapturesService } from './payment-captures.service.js';

const INTERVAL_MS = 60_000;
const BATCH = 100;

/**
 * Every minute (when RUN_JOBS is true), in both modes: manual-capture authorizations not captured
 * within their hold (AUTHORIZATION_LIFETIME_MS, 7 days by the service clock) are voided at their
 * provider and in the books (`charge.expired`, the intent `canceled` with `cancellation_reason:
 * automatic`), one claim, call and record each, as a cancel does (PaymentCapturesService.expire).
 * A provider that does not answer leaves the authorization for the next run.
 */
@Injectable()
export class AuthorizationExpiryJob extends PeriodicJob {
  constructor(
    private readonly charges: ChargesService,
    private readonly captures: PaymentCapturesService,
  ) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.run();
  }

  /** One run as of `now` (the service clock's); answers how many authorizations it voided. */
  async run(scope: JobScope = {}, now: Date = this.clock.now()): Promise<{ voided: number }> {
    let voided = 0;
    await this.eachScopedMode(scope, () =>
      this.untilDrained(BATCH, async () => {
        let done = 0;
        for (const charge of await this.charges.authorizationsDue(now, BATCH, scope)) {
          try {
            if (await this.captures.expire(charge, now)) done += 1;
          } catch (err) {
            this.logger.warn({ err }, `authorization of charge ${charge.id} could not be voided; retried next run`);
          }
        }
        voided += done;
        return done;
      }),
    );
    if (voided > 0) this.logger.log(`expired authorizations voided: ${voided}`);
    return { voided };
  }
}
