import { AppError } from '../../../common/errors/app-error.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { PaymentIntentStatus } from '../entities/payment-intent.entity.js';

export const NEW_PAYMENT_INTENT_STATUS: PaymentIntentStatus = 'requires_payment_method';

/**
 * `process`: a payment is under way (a PromptPay QR code waits to be paid); `succeed`: it is paid;
 * `fail`: the attempt failed or expired and the intent waits for another payment method;
 * `cancel`: the merchant cancels it; `require_action`: an off-session payment needs the customer to
 * authenticate (3-D Secure) on the page its `next_action` links. Manual capture
 * (docs/COLLECTION.md, "Manual capture"): `authorize`: the card is authorized and the amount held
 * (`requires_capture`); `begin_capture`: a capture claimed the authorization and its provider is
 * being asked (`processing`); a capture that lands is `succeed`; a void (`cancel`, the expiry job,
 * or a provider that no longer holds the authorization) is `cancel`.
 */
export type PaymentIntentEvent =
  'process' | 'succeed' | 'fail' | 'cancel' | 'require_action' | 'authorize' | 'begin_capture';

const NEXT: Record<PaymentIntentStatus, Partial<Record<PaymentIntentEvent, PaymentIntentStatus>>> = {
  requires_payment_method: {
    process: 'processing',
    succeed: 'succeeded',
    fail: 'requires_payment_method',
    cancel: 'canceled',
    require_action: 'requires_action',
    authorize: 'requires_capture',
  },
  requires_action: {
    authorize: 'requires_capture',
    process: 'processing',
    succeed: 'succeeded',
    fail: 'requires_payment_method',
    cancel: 'canceled',
  },
  processing: {
    process: 'processing',
    succeed: 'succeeded',
    fail: 'requires_payment_method',
    cancel: 'canceled',
    require_action: 'requires_action',
    authorize: 'requires_capture',
  },
  requires_capture: {
    begin_capture: 'processing',
    cancel: 'canceled',
  },
  succeeded: {},
  canceled: {},
};

/** The payment intent's state after `event`, or E7016 once it succeeded or was canceled. */
export function paymentIntentTransition(
  from: PaymentIntentStatus,
  event: PaymentIntentEvent,
  id: string,
): PaymentIntentStatus {
  const to = NEXT[from][event];
  if (!to) throw new AppError(CheckoutErrors.E7016, `Payment intent "${id}" is ${from}.`);
  return to;
}
