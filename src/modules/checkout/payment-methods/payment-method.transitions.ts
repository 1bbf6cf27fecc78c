import { AppError } from '../../../common/errors/app-error.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { SavedStatus } from '../entities/payment-method.entity.js';

/** A saved method starts attached (a setup checkout saved it); `detach` ends it for good. */
export const NEW_SAVED_STATUS: SavedStatus = 'attached';

export type SavedPaymentMethodEvent = 'detach';

const NEXT: Record<SavedStatus, Partial<Record<SavedPaymentMethodEvent, SavedStatus>>> = {
  attached: { detach: 'detached' },
  detached: {},
};

/** The saved method's state after `event`, or E7031 (a detached method cannot be detached again). */
export function savedPaymentMethodTransition(
  from: SavedStatus,
  event: SavedPaymentMethodEvent,
  id: string,
): SavedStatus {
  const to = NEXT[from][event];
  if (!to) throw new AppError(CheckoutErrors.E7031, `Payment method "${id}" is ${from}.`);
  return to;
}
