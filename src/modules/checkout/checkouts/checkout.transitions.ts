import { AppError } from '../../../common/errors/app-error.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { CheckoutStatus } from '../entities/checkout.entity.js';

/** A new checkout is open until it is paid (`complete`) or its time runs out (`expire`). */
export const NEW_CHECKOUT_STATUS: CheckoutStatus = 'open';

export type CheckoutEvent = 'complete' | 'expire';

const NEXT: Record<CheckoutStatus, Partial<Record<CheckoutEvent, CheckoutStatus>>> = {
  open: { complete: 'complete', expire: 'expired' },
  complete: {},
  expired: {},
};

/** The checkout's state after `event`: E7006 once complete, E7005 once expired. */
export function checkoutTransition(from: CheckoutStatus, event: CheckoutEvent, id: string): CheckoutStatus {
  const to = NEXT[from][event];
  if (to) return to;
  if (from === 'complete') throw new AppError(CheckoutErrors.E7006, `Checkout "${id}" is already complete.`);
  throw new AppError(CheckoutErrors.E7005, `Checkout "${id}" has expired.`);
}
