import type { RecordEvent } from '../../../common/events/event-recorder.js';
import type { EventType } from '../../../common/events/event-types.js';
import type { PayoutSchedule } from '../entities/payout-schedule.entity.js';
import type { Payout } from '../entities/payout.entity.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toPayoutResponse(p: Payout) {
  return {
    id: p.id,
    object: 'payout' as const,
    livemode: p.livemode,
    amount: Number(p.amount),
    currency: p.currency,
    scaling_factor: p.scaling_factor,
    status: p.status,
    account: p.account_id,
    destination: p.destination,
    country: p.country,
    balance_id: p.balance_id,
    type: 'bank_account' as const,
    method: p.method,
    automatic: p.automatic,
    description: p.description,
    provider: p.provider,
    provider_reference: p.provider_reference,
    failure_code: p.failure_code,
    failure_message: p.failure_message,
    metadata: p.metadata,
    arrival_date: iso(p.arrival_date),
    paid_at: iso(p.paid_at),
    failed_at: iso(p.failed_at),
    canceled_at: iso(p.canceled_at),
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export type PayoutResponse = ReturnType<typeof toPayoutResponse>;

/** An account without a schedule row is `manual`. */
export function toPayoutScheduleResponse(s: PayoutSchedule | null, accountId: string, livemode: boolean) {
  return {
    object: 'payout_schedule' as const,
    account: accountId,
    interval: s?.schedule_interval ?? 'manual',
    weekly_anchor: s?.weekly_anchor ?? null,
    destination: s?.destination ?? null,
    currency: s?.currency ?? 'THB',
    minimum_amount: s ? Number(s.minimum_amount) : 0,
    livemode,
    created_at: iso(s?.created_at ?? null),
    updated_at: iso(s?.updated_at ?? null),
  };
}

/** A payout's event, its object as GET /payouts/{id} answers it. */
export function payoutEvent(
  type: EventType,
  payout: Payout,
  previous_attributes?: Record<string, unknown>,
): RecordEvent {
  return {
    applicationId: payout.application_id,
    type,
    object: toPayoutResponse(payout),
    ...(previous_attributes ? { previous_attributes } : {}),
  };
}
