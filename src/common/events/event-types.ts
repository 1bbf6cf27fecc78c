/**
 * Every event type the service emits, with when it fires (docs/EVENTS.md repeats this list with
 * example payloads). A webhook endpoint's `enabled_events` may name only these (or `*`). The OpenAPI
 * schema of each type's `data.object` is wired in src/event-payloads.ts.
 */
export const EVENT_TYPES = {
  'checkout.completed': 'A checkout was paid: its charge succeeded.',
  'checkout.expired': 'A checkout expired unpaid (its 24 hours passed, or the test helper expired it).',
  'payment_intent.succeeded': "A payment intent was paid by a checkout's charge.",
  'payment_intent.payment_failed': 'A payment attempt on a payment intent failed (declined or target not payable).',
  'payment_intent.requires_action':
    'An off-session payment of a payment intent needs the customer to authenticate (3-D Secure): next_action has the link.',
  'payment_intent.amount_capturable_updated':
    'A manual-capture payment intent was authorized: amount_capturable is held at the provider until it is captured or voided.',
  'payment_intent.canceled':
    'A payment intent was canceled: by the merchant (its authorization, if any, voided) or because its authorization expired.',
  'payment_method.attached': 'A payment method was saved to a customer (a setup checkout completed).',
  'payment_method.detached': 'A saved payment method was detached from its customer; it can no longer be charged.',
  'invoice.created':
    'A subscription period closed into a draft invoice (billing_reason subscription_cycle); it is finalized when BILLING_GRACE_PERIOD ends.',
  'invoice.upcoming':
    "A subscription's period ends in 3 days: the preview of its next invoice (GET /invoices/upcoming), with usage so far.",
  'invoice.finalized':
    'An invoice left draft: it is open and can be paid (by the merchant or at the end of a billing grace window).',
  'invoice.paid': "An invoice was paid by a checkout's charge or an off-session attempt on its customer's card.",
  'invoice.updated':
    "An open invoice's amounts changed: a promotion code entered on its subscription checkout's page priced it again.",
  'invoice.payment_failed':
    'An off-session attempt on a subscription invoice failed: attempt_count counts it, next_payment_attempt is the next retry (null: retries exhausted).',
  'charge.succeeded': 'A charge succeeded: the money is booked to the balance.',
  'charge.captured':
    'An authorized charge was captured (in full or in part): the captured amount is booked to the balance.',
  'charge.expired': 'An authorized charge was not captured in time: the authorization was voided at the provider.',
  'charge.failed': 'A charge failed (declined, provider error or unavailable, or the target stopped being payable).',
  'charge.dispute.created': 'A cardholder disputed a charge.',
  'charge.dispute.updated': 'Evidence or metadata of a dispute changed, or its evidence was submitted (under_review).',
  'charge.dispute.closed': 'A dispute was closed: won, lost (lost or accepted) or warning_closed.',
  'charge.refunded': 'A refund of a charge succeeded (in full or in part): amount_refunded and refunded say how much.',
  'refund.created': 'A refund was created (pending): the balance is debited and the provider is asked.',
  'refund.updated': 'A refund changed status (succeeded or failed).',
  'refund.succeeded': 'A refund succeeded: the money went back to the payer through the provider.',
  'refund.failed': 'A refund failed: the provider refused it, and the debit went back to the balance.',
  'balance.available': 'Held funds were released to the available balance.',
  'report_run.succeeded': "A report run's CSV is ready: `result` names its file.",
  'report_run.failed': 'A report run could not be produced; `error` says so.',
  'reconciliation.mismatch':
    "A reconciliation run found settlement items that do not match the ledger: `outcomes` counts them, the run's items list them.",
  'account.updated': 'A connected account changed: its KYB was decided.',
  'bank_account.created': 'A bank account was added for payouts.',
  'payout.created': 'A payout was created: its amount left the available balance for payouts_in_transit.',
  'payout.updated': 'A payout changed: the transfer provider accepted it and it is in transit.',
  'payout.paid': 'A payout arrived at the bank account.',
  'payout.failed': 'A payout failed; its amount returned to the available balance.',
  'payout.canceled': 'A pending payout was canceled; its amount returned to the available balance.',
  'meter_event.delivery_failed': 'A meter event could not be delivered to the billing provider and was abandoned.',
  'test_helpers.test_clock.created': 'A test clock was created (test mode).',
  'test_helpers.test_clock.advancing': 'A test clock started advancing to a new frozen_time.',
  'test_helpers.test_clock.ready': 'A test clock finished advancing: everything due up to its frozen_time happened.',
  'test_helpers.test_clock.deleted':
    "A test clock was deleted: its customers' subscriptions were canceled and its customers detached.",
  'customer.subscription.created': 'A subscription was created.',
  'customer.subscription.updated':
    'A subscription changed: its items, status (trial ended, expired), period (renewed) or settings.',
  'customer.subscription.deleted': 'A subscription was canceled (now, at period end, or with its test clock).',
  'customer.subscription.trial_will_end': "A subscription's trial ends in three days (at once for a shorter trial).",
  'webhook_endpoint.disabled': 'A webhook endpoint was disabled after its deliveries failed for 3 days.',
  'product.created': 'A product was created.',
  'product.updated': 'A product changed: name, description, active or metadata.',
  'price.created': 'A price was created.',
  'price.updated': 'A price changed: active, lookup_key (also when another price took it) or metadata.',
  'coupon.created': 'A coupon was created.',
  'coupon.updated': 'A coupon changed: name or metadata.',
  'coupon.deleted': 'A coupon was deleted: it and its promotion codes can no longer be redeemed.',
  'promotion_code.created': 'A promotion code was created.',
  'promotion_code.updated': 'A promotion code changed: active or metadata.',
  'tax_rate.created': 'A tax rate was created.',
  'tax_rate.updated': 'A tax rate changed: display_name, description, country, jurisdiction, active or metadata.',
  'billing.credit_grant.created':
    'A customer was granted prepaid credit (moved into its credit balance in the ledger).',
  'billing.credit_grant.voided': "A credit grant was voided: its remaining credit left the customer's balance.",
  'billing.credit_grant.expired':
    "A credit grant reached expires_at by its customer's clock: its remaining credit left the customer's balance.",
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_TYPES, value);
