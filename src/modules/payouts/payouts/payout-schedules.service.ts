import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../../common/clock.js';
import type { Mode, Principal } from '../../../common/context/principal.js';
import { RequestContext } from '../../../common/context/request-context.js';
import { AppError } from '../../../common/errors/app-error.js';
import { MigrationStatus } from '../../../common/database/migration-status.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import type { AllConfig } from '../../../config/app.config.js';
import { AccountsService } from '../../accounts/index.js';
import { BalancesService } from '../../ledger/index.js';
import type { PayoutScheduleInputDto } from '../dto/payout.dto.js';
import { WEEKDAYS, type PayoutSchedule } from '../entities/payout-schedule.entity.js';
import { PayoutErrors } from '../payouts.errors.js';
import { PayoutLifecycleRepository } from './payout-lifecycle.repository.js';
import { PayoutLifecycleService } from './payout-lifecycle.service.js';
import { balanceAccountOf, PayoutsService } from './payouts.service.js';
import { toPayoutScheduleResponse } from './payouts.responses.js';

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
 * Per-account payout schedules (`manual`, `daily`, `weekly`) and the job that runs them. A run pays
 * out the whole available balance of every due account whose available balance is at least the
 * schedule's `minimum_amount`, one payout per account and period: the payouts table's unique key
 * (account, period) makes concurrent runs in several replicas agree on one payout. The same job
 * reconciles pending and in-transit payouts with the provider.
 */
@Injectable()
export class PayoutSchedulesService extends PeriodicJob {
  constructor(
    private readonly repo: PayoutLifecycleRepository,
    private readonly payouts: PayoutsService,
    private readonly lifecycle: PayoutLifecycleService,
    private readonly accounts: AccountsService,
    private readonly balances: BalancesService,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    config: ConfigService<AllConfig, true>,
    migrationStatus: MigrationStatus,
  ) {
    super(config, migrationStatus, INTERVAL_MS);
  }

  async set(principal: Principal, dto: PayoutScheduleInputDto) {
    const applicationId = principal.application.id;
    const account = dto.account
      ? await this.payouts.payableAccount(applicationId, dto.account)
      : await this.accounts.ownAccount(principal.application);
    let currency = dto.currency?.toUpperCase() ?? 'THB';
    if (dto.interval !== 'manual' && !dto.destination) {
      throw new AppError(PayoutErrors.E6307, `A ${dto.interval} payout schedule needs a destination.`);
    }
    if (dto.destination) {
      const destination = await this.payouts.destination(applicationId, account, dto.destination);
      currency = dto.currency?.toUpperCase() ?? destination.currency;
      if (currency !== destination.currency) {
        throw new AppError(PayoutErrors.E6304, `Bank account "${destination.id}" is in ${destination.currency}.`);
      }
    }
    const existing = await this.repo.schedule(applicationId, account.id);
    const now = this.clock.now();
    const saved = await this.repo.upsertSchedule({
      account_id: account.id,
      application_id: applicationId,
      schedule_interval: dto.interval,
      weekly_anchor: dto.interval === 'weekly' ? (dto.weekly_anchor ?? 'monday') : null,
      destination: dto.destination ?? null,
      currency,
      minimum_amount: dto.minimum_amount ?? 0,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    });
    return toPayoutScheduleResponse(saved, account.id, principal.livemode);
  }

  async get(principal: Principal, accountId: string) {
    const account = await this.accounts.findById(principal.application.id, accountId);
    if (!account) throw new AppError(PayoutErrors.E6101, `No account with id "${accountId}".`);
    const schedule = await this.repo.schedule(principal.application.id, account.id);
    return toPayoutScheduleResponse(schedule, account.id, principal.livemode);
  }

  protected runOnce(): Promise<unknown> {
    return this.run(this.clock.now());
  }

  /** One run in both modes (or those of `scope`); answers how many automatic payouts it created. */
  async run(now: Date, scope: { applicationId?: string; modes?: Mode[] } = {}): Promise<number> {
    let created = 0;
    for (const mode of scope.modes ?? (['test', 'live'] as Mode[])) {
      created += await this.context.runInMode(mode, async () => {
        let made = 0;
        for (const schedule of await this.repo.automaticSchedules()) {
          if (this.stopping) break;
          if (scope.applicationId && schedule.application_id !== scope.applicationId) continue;
          if (await this.runSchedule(schedule, now, mode === 'live')) made += 1;
        }
        for (const payout of await this.repo.unsettled(RECONCILE_BATCH)) {
          if (scope.applicationId && payout.application_id !== scope.applicationId) continue;
          await this.lifecycle.reconcile(payout);
        }
        return made;
      });
    }
    return created;
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
