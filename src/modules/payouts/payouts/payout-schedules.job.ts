import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error.js';
import { inScope, type JobScope } from '../../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import { BalancesService } from '../../ledger/index.js';
import { WEEKDAYS, type PayoutSchedule } from '../entities/payout-schedule.entity.js';
import { PayoutLifecycleRepository } from './payout-lifecycle.repository.js';
import { PayoutLifecycleService } from './payout-lifecycle.service.js';
import { balanceAccountOf, PayoutsService } from './payouts.service.js';

const INTERVAL_MS = 60_000;
const RECONCILE_BATCH = 100;

/** The schedule period a run at `now` belongs to (UTC), or null when a weekly schedule is not due today. */
export function schedulePeriod(schedule: Pick<PayoutSchedule, 'schedule_interval' | 'weekly_anchor'>, now: Date) {
  const day = now.toISOString().slice(0, 10);
  if (schedule.schedule_interval === 'daily') return `daily:${day}`;
  if (schedule.schedule_interval === 'weekly') {
    const weekday = WEEKDAYS[(now.getUTCDay() + 6) % 7];
    return weekday === (schedule.weekly_anchor ?? 'monday') ? `weekly:${day}` : null;
  }
  return null;
}

/**
 * Runs the automatic payout schedules (`daily`, `weekly`). A run pays out the whole available
 * balance of every due account whose available balance is at least the schedule's
 * `minimum_amount`, one payout per account and period: the payouts table's unique key (account,
 * period) makes concurrent runs in several replicas agree on one payout. The same job reconciles
 * pending and in-transit payouts with the provider.
 */
@Injectable()
export class PayoutSchedulesJob extends PeriodicJob {
  constructor(
    private readonly repo: PayoutLifecycleRepository,
    private readonly payouts: PayoutsService,
    private readonly lifecycle: PayoutLifecycleService,
    private readonly balances: BalancesService,
  ) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.run(this.clock.now());
  }

  /** One run in the scope (everything when unscoped); answers how many automatic payouts it created. */
  async run(now: Date, scope: JobScope = {}): Promise<number> {
    const created = await this.eachScopedMode(scope, async (mode) => {
      let made = 0;
      for (const schedule of await this.repo.automaticSchedules()) {
        if (this.stopping) break;
        if (!inScope(scope, schedule.application_id)) continue;
        if (await this.runSchedule(schedule, now, mode === 'live')) made += 1;
      }
      for (const payout of await this.repo.unsettled(RECONCILE_BATCH)) {
        if (inScope(scope, payout.application_id)) await this.lifecycle.reconcile(payout);
      }
      return made;
    });
    return created.reduce((sum, n) => sum + n, 0);
  }

  private async runSchedule(schedule: PayoutSchedule, now: Date, livemode: boolean): Promise<boolean> {
    const period = schedulePeriod(schedule, now);
    if (!period || !schedule.destination) return false;
    const applicationId = schedule.application_id;
    try {
      const account = await this.payouts.payableAccount(applicationId, schedule.account_id);
      const destination = await this.payouts.destination(applicationId, account, schedule.destination);
      const balance = await this.balances.getOrCreate({
        application_id: applicationId,
        account: balanceAccountOf(account),
        currency: schedule.currency,
      });
      const available = Number(balance.available);
      if (available <= 0 || available < Number(schedule.minimum_amount)) return false;
      const payout = await this.payouts.open({
        applicationId,
        livemode,
        account,
        destination,
        amount: available,
        currency: schedule.currency,
        description: `Automatic ${schedule.schedule_interval} payout`,
        metadata: {},
        period,
      });
      return payout !== null;
    } catch (error) {
      // A refused account, destination or balance waits for the next period; other errors are the run's.
      if (error instanceof AppError) {
        this.logger.warn(`payout schedule of account ${schedule.account_id}: ${error.message}`);
        return false;
      }
      throw error;
    }
  }
}
