import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';

export type ChargeStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

/**
 * The state a charge is created in from its provider's first answer: refused is `failed` at once;
 * anything else is `pending` until the money is booked (succeed) or the QR code is paid or expires.
 */
export function initialChargeStatus(provider: 'succeeded' | 'failed' | 'pending'): ChargeStatus {
  return provider === 'failed' ? 'failed' : 'pending';
}

/**
 * What can happen to a charge after it is created: the provider's money arrives (`succeed`), the
 * provider or the buyer's bank refuses or never pays (`fail`), or a newer attempt on the same
 * checkout replaces a pending one (`cancel`). A charge is created in the state its provider answered.
 */
export type ChargeEvent = 'succeed' | 'fail' | 'cancel';

const NEXT: Record<ChargeStatus, Partial<Record<ChargeEvent, ChargeStatus>>> = {
  pending: { succeed: 'succeeded', fail: 'failed', cancel: 'canceled' },
  succeeded: {},
  failed: {},
  canceled: {},
};

/** The charge's state after `event`, or E4090 when the charge is past that point. */
export function chargeTransition(from: ChargeStatus, event: ChargeEvent): ChargeStatus {
  const to = NEXT[from]?.[event];
  if (!to) throw new AppError(Errors.E4090, `A ${from} charge cannot ${event}.`);
  return to;
}
