import { Injectable } from '@nestjs/common';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import { SubscriptionStepsService } from './subscription-steps.service.js';

const INTERVAL_MS = 15_000;
/** Subscriptions per transaction: their periods close together, set-based (docs/BILLING.md, "Closing at scale"). */
const BATCH = 250;
/**
 * Claim loops per mode and run: a batch spends much of its time waiting on the database, so two
 * loops (disjoint batches: SKIP LOCKED) keep a core busy during a large period close.
 */
const LOOPS = 2;
/** Steps of one test clock per transaction (its clock row stays locked meanwhile). */
const CLOCK_STEPS = 50;

/**
 * Every 15 s (when RUN_JOBS is true), in both modes: subscriptions on the service clock take the
 * steps due by it (trial_will_end notices, trial ends, period rollovers, cancellations at period
 * end, incomplete expiry), and advancing test clocks move their customers' subscriptions up to
 * their new time, then turn `ready`. Safe with several replicas: subscriptions are claimed with
 * FOR UPDATE SKIP LOCKED, and a test clock is advanced by the replica that locked it.
 */
@Injectable()
export class SubscriptionsJob extends PeriodicJob {
  constructor(private readonly steps: SubscriptionStepsService) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.run();
  }

  /** One run as of the service clock (tests scope it to their applications). */
  async run(scope: JobScope = {}): Promise<{ subscriptions: number; clockBatches: number }> {
    const out = { subscriptions: 0, clockBatches: 0 };
    await this.eachScopedMode(scope, async () => {
      const now = this.clock.now();
      const loops = Array.from({ length: LOOPS }, () =>
        this.untilDrained(BATCH, () => this.steps.dueBatch(now, BATCH, scope)),
      );
      for (const claimed of await Promise.all(loops)) out.subscriptions += claimed;
      while (!this.stopping && (await this.steps.clockBatch(CLOCK_STEPS, scope))) out.clockBatches += 1;
    });
    return out;
  }
}
