import { AppError } from '../../../common/errors/app-error.js';
import { PayoutErrors } from '../payouts.errors.js';

/**
 * The payout state machine (the only place a payout's next status is decided):
 *
 *   pending ──send──▶ in_transit ──pay──▶ paid
 *      │                  └──────fail──▶ failed
 *      ├──fail──▶ failed      (the provider refused the transfer when it was created)
 *      └──cancel──▶ canceled  (only while pending: nothing was sent yet)
 */
export type PayoutStatus = 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled';
export type PayoutEvent = 'send' | 'pay' | 'fail' | 'cancel';
export const NEW_PAYOUT_STATUS: PayoutStatus = 'pending';

const NEXT: Record<PayoutStatus, Partial<Record<PayoutEvent, PayoutStatus>>> = {
  pending: { send: 'in_transit', fail: 'failed', cancel: 'canceled' },
  in_transit: { pay: 'paid', fail: 'failed' },
  paid: {},
  failed: {},
  canceled: {},
};

export const isFinalPayoutStatus = (status: PayoutStatus) => Object.keys(NEXT[status]).length === 0;

export function canPayout(from: PayoutStatus, event: PayoutEvent): boolean {
  return NEXT[from][event] !== undefined;
}

export function payoutTransition(from: PayoutStatus, event: PayoutEvent, id: string): PayoutStatus {
  const to = NEXT[from][event];
  if (!to) throw new AppError(PayoutErrors.E6305, `Payout "${id}" is ${from}; it cannot ${event}.`);
  return to;
}
