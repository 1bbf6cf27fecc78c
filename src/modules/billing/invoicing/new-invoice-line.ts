import type { Subscription } from '../subscriptions/entities/subscription.entity.js';
import type { InvoiceLine } from './entities/invoice-line.entity.js';
import type { PendingItem } from '../subscriptions/entities/pending-item.entity.js';

/**
 * A subscription invoice line of `sub` with nothing rated yet (quantity, amount, discount and credit
 * 0, no taxes, no usage); `fields` name its type, description, price and period. The period close
 * and the immediate invoices make them with ids; the upcoming preview with `id` and `invoiceId` null
 * (nothing is written).
 */
export function newInvoiceLine(
  sub: Pick<Subscription, 'application_id' | 'id' | 'customer_id'>,
  ids: { id: string | null; invoiceId: string | null },
  now: Date,
  fields: Partial<InvoiceLine> & Pick<InvoiceLine, 'type' | 'description' | 'period_start' | 'period_end'>,
): InvoiceLine {
  return {
    id: ids.id,
    application_id: sub.application_id,
    invoice_id: ids.invoiceId,
    subscription_id: sub.id,
    customer_id: sub.customer_id,
    price_id: null,
    meter_id: null,
    aggregation: null,
    earlier_line_id: null,
    quantity: '0',
    amount: '0',
    discount_amount: '0',
    credit_amount: '0',
    tax_amounts: [],
    usage_event_count: null,
    usage_quantity: null,
    usage_digest: null,
    created_at: now,
    updated_at: now,
    ...fields,
  } as InvoiceLine;
}

/** The fields of the line that bills a pending item (a proration of a mid-period change), for {@link newInvoiceLine}. */
export function pendingItemLineFields(
  item: Pick<PendingItem, 'description' | 'price_id' | 'quantity' | 'amount' | 'period_start' | 'period_end'>,
) {
  return {
    type: 'proration' as const,
    description: item.description,
    price_id: item.price_id,
    quantity: String(item.quantity),
    amount: String(item.amount),
    period_start: item.period_start,
    period_end: item.period_end,
  };
}
