import type { PendingItem } from './entities/pending-item.entity.js';
import type { SubscriptionItem } from './entities/subscription-item.entity.js';
import type { Subscription } from './entities/subscription.entity.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toSubscriptionItemResponse(i: SubscriptionItem) {
  return {
    id: i.id,
    object: 'subscription_item' as const,
    price_id: i.price_id,
    quantity: i.quantity,
    metadata: i.metadata,
    created_at: i.created_at.toISOString(),
  };
}

export function toSubscriptionResponse(s: Subscription, items: SubscriptionItem[]) {
  return {
    id: s.id,
    object: 'subscription' as const,
    livemode: s.livemode,
    customer_id: s.customer_id,
    status: s.status,
    currency: s.currency,
    items: { object: 'list' as const, data: items.map(toSubscriptionItemResponse) },
    current_period_start: s.current_period_start.toISOString(),
    current_period_end: s.current_period_end.toISOString(),
    billing_cycle_anchor: s.billing_cycle_anchor.toISOString(),
    trial_start: iso(s.trial_start),
    trial_end: iso(s.trial_end),
    cancel_at_period_end: s.cancel_at_period_end,
    canceled_at: iso(s.canceled_at),
    ended_at: iso(s.ended_at),
    collection_method: s.collection_method,
    days_until_due: s.days_until_due,
    default_payment_method: s.default_payment_method,
    retries_exhausted_action: s.retries_exhausted_action,
    discount: s.coupon ? { coupon: s.coupon, promotion_code: s.promotion_code, start: s.created.toISOString() } : null,
    default_tax_rates: s.default_tax_rates,
    latest_invoice: s.latest_invoice,
    test_clock: s.test_clock_id,
    metadata: s.metadata,
    created: s.created.toISOString(),
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

export type SubscriptionResponse = ReturnType<typeof toSubscriptionResponse>;

export function toPendingItemResponse(p: PendingItem) {
  return {
    id: p.id,
    object: 'subscription_pending_item' as const,
    livemode: p.livemode,
    subscription_id: p.subscription_id,
    subscription_item_id: p.subscription_item_id,
    price_id: p.price_id,
    kind: p.kind,
    description: p.description,
    quantity: p.quantity,
    amount: Number(p.amount),
    currency: p.currency,
    scaling_factor: p.scaling_factor,
    period_start: p.period_start.toISOString(),
    period_end: p.period_end.toISOString(),
    invoice_id: p.invoice_id,
    created_at: p.created_at.toISOString(),
  };
}

export type PendingItemResponse = ReturnType<typeof toPendingItemResponse>;
