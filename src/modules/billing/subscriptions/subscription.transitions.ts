import { AppError } from '../../../common/errors/app-error.js';
import { SubscriptionErrors } from './subscriptions.errors.js';

/**
 * A subscription's statuses and what moves it between them, as Stripe's
 * (https://docs.stripe.com/billing/subscriptions/overview#subscription-statuses):
 *
 * - `incomplete`: created with charge_automatically and no trial; its first invoice is unpaid.
 *   `first_invoice_paid` -> active; after 23 hours unpaid, `expire` -> incomplete_expired (final).
 * - `trialing`: in its trial; `trial_end` (the customer's clock passes trial_end) -> active.
 * - `active`: `payment_failed` -> past_due.
 * - `past_due`: `payment_succeeded` -> active; `retries_exhausted` -> unpaid (or `cancel`).
 * - `unpaid`: `payment_succeeded` -> active.
 * - `canceled` and `incomplete_expired` are final: nothing moves them, nothing updates them.
 *
 * Every non-final status can `cancel` (now, or at period end by the job). Invoices and payments
 * (first_invoice_paid, payment_failed, payment_succeeded, retries_exhausted) are driven by part 2
 * (invoicing); the table already holds them so that part only adds callers.
 */
export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export type SubscriptionEvent =
  | 'first_invoice_paid'
  | 'expire'
  | 'trial_end'
  | 'payment_failed'
  | 'payment_succeeded'
  | 'retries_exhausted'
  | 'cancel';

const NEXT: Record<SubscriptionStatus, Partial<Record<SubscriptionEvent, SubscriptionStatus>>> = {
  incomplete: { first_invoice_paid: 'active', expire: 'incomplete_expired', cancel: 'canceled' },
  incomplete_expired: {},
  trialing: { trial_end: 'active', cancel: 'canceled' },
  active: { payment_failed: 'past_due', cancel: 'canceled' },
  past_due: {
    payment_failed: 'past_due',
    payment_succeeded: 'active',
    retries_exhausted: 'unpaid',
    cancel: 'canceled',
  },
  unpaid: { payment_succeeded: 'active', cancel: 'canceled' },
  canceled: {},
};

export function subscriptionTransition(
  from: SubscriptionStatus,
  event: SubscriptionEvent,
  id: string,
): SubscriptionStatus {
  const to = NEXT[from][event];
  if (!to) throw new AppError(SubscriptionErrors.E7722, `Subscription "${id}" is ${from}; it cannot ${event}.`);
  return to;
}

/** Whether nothing can change the subscription any more. */
export function isFinal(status: SubscriptionStatus): boolean {
  return status === 'canceled' || status === 'incomplete_expired';
}

/** Items, cancel_at_period_end, payment method and metadata change only on a subscription that is not final. */
export function assertUpdatable(status: SubscriptionStatus, id: string): void {
  if (isFinal(status))
    throw new AppError(SubscriptionErrors.E7722, `Subscription "${id}" is ${status}; it cannot change.`);
}

/**
 * The status a new subscription starts in: trialing with a trial; without one, active when it is
 * invoiced (send_invoice: the customer pays later), incomplete when its first invoice must be paid
 * first (charge_automatically).
 */
export function initialStatus(
  trial: boolean,
  collectionMethod: 'charge_automatically' | 'send_invoice',
): SubscriptionStatus {
  if (trial) return 'trialing';
  return collectionMethod === 'send_invoice' ? 'active' : 'incomplete';
}
