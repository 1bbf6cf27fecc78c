import type { InvoiceLine } from './entities/invoice-line.entity.js';

export function toInvoiceLineResponse(l: InvoiceLine) {
  const metered = l.type === 'metered' || l.type === 'metered_earlier';
  return {
    id: l.id,
    object: 'line_item' as const,
    livemode: l.livemode,
    invoice: l.invoice_id,
    subscription: l.subscription_id,
    type: l.type,
    description: l.description,
    price: l.price_id,
    meter: l.meter_id,
    quantity: Number(l.quantity),
    amount: Number(l.amount),
    discount_amount: Number(l.discount_amount),
    credit_amount: Number(l.credit_amount ?? 0),
    tax_amounts: l.tax_amounts,
    period: { start: l.period_start.toISOString(), end: l.period_end.toISOString() },
    usage: metered
      ? {
          aggregation: l.aggregation,
          event_count: l.usage_event_count ?? 0,
          quantity: l.usage_quantity ?? '0',
          digest: l.usage_digest ?? '',
        }
      : null,
    earlier_line: l.earlier_line_id,
    created_at: l.created_at.toISOString(),
    updated_at: l.updated_at.toISOString(),
  };
}

export type InvoiceLineResponse = ReturnType<typeof toInvoiceLineResponse>;
