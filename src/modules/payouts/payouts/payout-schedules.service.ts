import { Injectable } from '@nestjs/common';
import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { AccountsService } from '../../accounts/index.js';
import type { PayoutScheduleInputDto } from '../dto/payout.dto.js';
import { PayoutErrors } from '../payouts.errors.js';
import { PayoutLifecycleRepository } from './payout-lifecycle.repository.js';
import { PayoutsService } from './payouts.service.js';
import { toPayoutScheduleResponse } from './payouts.responses.js';

/** A schedule's settings as the API answers them, without its timestamps: its audit row's before/after. */
function settingsOf(schedule: ReturnType<typeof toPayoutScheduleResponse>) {
  const { interval, weekly_anchor, destination, currency, minimum_amount } = schedule;
  return { interval, weekly_anchor, destination, currency, minimum_amount };
}

/** Per-account payout schedules (`manual`, `daily`, `weekly`); PayoutSchedulesJob runs them. */
@Injectable()
export class PayoutSchedulesService {
  constructor(
    private readonly repo: PayoutLifecycleRepository,
    private readonly payouts: PayoutsService,
    private readonly accounts: AccountsService,
    private readonly clock: Clock,
    private readonly audit: AuditRecorder,
  ) {}

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
    const row = {
      account_id: account.id,
      application_id: applicationId,
      schedule_interval: dto.interval,
      weekly_anchor: dto.interval === 'weekly' ? (dto.weekly_anchor ?? 'monday') : null,
      destination: dto.destination ?? null,
      currency,
      minimum_amount: dto.minimum_amount ?? 0,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    const saved = await this.repo.transaction(async (manager) => {
      const stored = await this.repo.upsertSchedule(row, manager);
      await this.audit.record(manager, {
        applicationId,
        action: 'payout_schedule.updated',
        target: { type: 'payout_schedule', id: account.id },
        before: settingsOf(toPayoutScheduleResponse(existing, account.id, principal.livemode)),
        after: settingsOf(toPayoutScheduleResponse(stored, account.id, principal.livemode)),
      });
      return stored;
    });
    return toPayoutScheduleResponse(saved, account.id, principal.livemode);
  }

  async get(principal: Principal, accountId: string) {
    const account = await this.accounts.findById(principal.application.id, accountId);
    if (!account) throw new AppError(PayoutErrors.E6101, `No account with id "${accountId}".`);
    const schedule = await this.repo.schedule(principal.application.id, account.id);
    return toPayoutScheduleResponse(schedule, account.id, principal.livemode);
  }
}
