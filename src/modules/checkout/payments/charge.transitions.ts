import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';

export type ChargeStatus = 'pending' | 'requires_capture' | 'succeeded' | 'failed' | 'canceled';

/**
 * A charge is recorded `pending` before its provider is called (the attempt), and its provider's
 * answer is applied as an event: `succeed` once the money is booked, `fail` when refused or
 * unanswered; a PromptPay QR code stays pending until paid, replaced (`cancel`) or expired (`fail`).
 */
export const NEW_CHARGE_STATUS: ChargeStatus = 'pending';

/**
 * What can happen to a charge after it is created: the provider's money arrives (`succeed`), the
 * provider or the buyer's bank refuses or never pays (`fail`), or a newer attempt on the same
 * checkout replaces a pending one (`cancel`). Manual capture: the card is only authorized
 * (`authorize`, the amount held at the provider), then captured (`capture`: the money is booked) or
 * voided (`void`: canceled by the merchant, or the authorization expired).
 */
export type ChargeEvent = 'succeed' | 'fail' | 'cancel' | 'authorize' | 'capture' | 'void';

const NEXT: Record<ChargeStatus, Partial<Record<ChargeEvent, ChargeStatus>>> = {
  pending: { succeed: 'succeeded', fail: 'failed', cancel: 'canceled', authorize: 'requires_capture' },
  requires_capture: { capture: 'succeeded', void: 'canceled' },
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
