import type { Subscription } from '../subscriptions/entities/subscription.entity.js';
import type { InvoiceLine } from './entities/invoice-line.entity.js';

/**
 * A subscription invoice line of `sub` with nothing rated yet (quantity, amount, discount 0, no
 * taxes, no usage); `fields` name its type, description, price and period. The period close makes
 * them with ids; the upcoming preview with `id` and `invoiceId` null (nothing is written).
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
    tax_amounts: [],
    usage_event_count: null,
    usage_quantity: null,
    usage_digest: null,
    created_at: now,
    updated_at: now,
    ...fields,
  } as InvoiceLine;
}
