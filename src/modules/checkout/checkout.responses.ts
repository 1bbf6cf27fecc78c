import type { Checkout } from './entities/checkout.entity.js';
import { invoiceAmountDue, type Invoice } from './entities/invoice.entity.js';
import type { PaymentIntent } from './entities/payment-intent.entity.js';
import type { PaymentLink } from './entities/payment-link.entity.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Stripe's shape: `{destination}` plus, on a payment intent, the amount the destination will receive. */
const transferData = (destination: string | null) => (destination ? { destination } : null);

export function toPaymentIntentResponse(pi: PaymentIntent) {
  return {
    id: pi.id,
    object: 'payment_intent' as const,
    livemode: pi.livemode,
    status: pi.status,
    amount: Number(pi.amount),
    amount_received: Number(pi.amount_received),
    amount_capturable: Number(pi.amount_capturable),
    capture_method: pi.capture_method,
    currency: pi.currency,
    scaling_factor: pi.scaling_factor,
    customer_id: pi.customer_id,
    description: pi.description,
    country: pi.country,
    payment_method_types: pi.payment_method_types,
    transfer_data: transferData(pi.transfer_destination),
    application_fee_amount: Number(pi.application_fee_amount),
    latest_charge: pi.latest_charge,
    payment_method: pi.payment_method,
    next_action: pi.next_action,
    last_payment_error: pi.last_payment_error,
    cancellation_reason: pi.cancellation_reason,
    canceled_at: iso(pi.canceled_at),
    succeeded_at: iso(pi.succeeded_at),
    metadata: pi.metadata,
    labels: pi.labels,
    created_at: pi.created_at.toISOString(),
    updated_at: pi.updated_at.toISOString(),
  };
}

export type PaymentIntentResponse = ReturnType<typeof toPaymentIntentResponse>;

export function toInvoiceResponse(inv: Invoice) {
  const total = Number(inv.total);
  const paid = Number(inv.amount_paid);
  const due = invoiceAmountDue(inv);
  return {
    id: inv.id,
    object: 'invoice' as const,
    livemode: inv.livemode,
    number: inv.number,
    status: inv.status,
    customer_id: inv.customer_id,
    currency: inv.currency,
    scaling_factor: inv.scaling_factor,
    country: inv.country,
    description: inv.description,
    line_items: inv.line_items.map((l) => ({ ...l, total: l.amount * l.quantity })),
    subtotal: Number(inv.subtotal),
    total,
    credit_applied: Number(inv.credit_applied ?? 0),
    amount_due: due,
    amount_paid: paid,
    amount_remaining: inv.status === 'void' ? 0 : Math.max(0, due - paid),
    due_date: iso(inv.due_date),
    payment_method_types: inv.payment_method_types,
    transfer_data: transferData(inv.transfer_destination),
    application_fee_amount: Number(inv.application_fee_amount),
    charge_id: inv.charge_id,
    paid: inv.status === 'paid',
    finalized_at: iso(inv.finalized_at),
    paid_at: iso(inv.paid_at),
    voided_at: iso(inv.voided_at),
    subscription: inv.subscription_id ?? null,
    billing_reason: inv.billing_reason ?? null,
    period_start: iso(inv.period_start ?? null),
    period_end: iso(inv.period_end ?? null),
    collection_method: inv.collection_method ?? null,
    attempt_count: inv.attempt_count ?? 0,
    attempted: (inv.attempt_count ?? 0) > 0,
    next_payment_attempt: iso(inv.next_payment_attempt ?? null),
    amount_refunded: Number(inv.amount_refunded ?? 0),
    hosted_invoice_url: inv.hosted_invoice_url ?? null,
    metadata: inv.metadata,
    labels: inv.labels,
    created_at: inv.created_at.toISOString(),
    updated_at: inv.updated_at.toISOString(),
  };
}

export type InvoiceResponse = ReturnType<typeof toInvoiceResponse>;

/** `url` carries the session in its fragment only in the creation response (`session` is shown once). */
export function toCheckoutResponse(c: Checkout, url: string, session: string | null = null) {
  return {
    id: c.id,
    object: 'checkout' as const,
    livemode: c.livemode,
    url: session ? `${url}#session=${session}` : url,
    session,
    status: c.status,
    payment_status: c.payment_status,
    target_type: c.target_type,
    target_id: c.target_id,
    payment_link_id: c.payment_link_id,
    amount: Number(c.amount),
    currency: c.currency,
    scaling_factor: c.scaling_factor,
    customer_id: c.customer_id,
    country: c.country,
    transfer_data: transferData(c.transfer_destination),
    application_fee_amount: Number(c.application_fee_amount),
    payment_method_types: c.payment_method_types,
    success_url: c.success_url,
    cancel_url: c.cancel_url,
    mode: c.mode,
    line_items: c.line_items,
    allow_promotion_codes: c.allow_promotion_codes,
    payment_method_collection: c.payment_method_collection,
    subscription_data: c.subscription_data,
    charge_id: c.charge_id,
    setup_payment_method: c.setup_payment_method,
    subscription: c.subscription_id ?? null,
    invoice: c.invoice_id ?? null,
    metadata: c.metadata,
    expires_at: c.expires_at.toISOString(),
    completed_at: iso(c.completed_at),
    expired_at: iso(c.expired_at),
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

export type CheckoutResponse = ReturnType<typeof toCheckoutResponse>;

export function toPaymentLinkResponse(l: PaymentLink, url: string) {
  return {
    id: l.id,
    object: 'payment_link' as const,
    livemode: l.livemode,
    url,
    active: l.active,
    target_type: l.target_type,
    target_id: l.target_id,
    country: l.country,
    success_url: l.success_url,
    cancel_url: l.cancel_url,
    metadata: l.metadata,
    created_at: l.created_at.toISOString(),
    updated_at: l.updated_at.toISOString(),
  };
}

export type PaymentLinkResponse = ReturnType<typeof toPaymentLinkResponse>;
