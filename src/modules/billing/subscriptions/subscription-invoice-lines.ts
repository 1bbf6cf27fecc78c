import { computeInvoiceLines, type ComputedInvoice } from '../pricing/index.js';
import type { CreatedSubscription } from './created-subscription.js';

/** One line of a subscription's invoice as the invoice stores it (minor units). */
export interface FirstInvoiceLine {
  description: string;
  amount: number;
  quantity: number;
}

/**
 * A subscription's first invoice, priced (docs/BILLING.md, "Subscription checkout"): each licensed
 * item at quantity x price, one discount line (the coupon, split over the lines), one line per
 * exclusive tax rate (each line's tax half-up). Metered items are billed from usage later.
 */
export function subscriptionInvoiceLines(
  created: Pick<CreatedSubscription, 'subscription' | 'lines' | 'coupon' | 'taxRates'>,
): {
  currency: string;
  lines: FirstInvoiceLine[];
  totals: Pick<ComputedInvoice, 'subtotal' | 'total_discount' | 'total_tax' | 'total'>;
} {
  const licensed = created.lines.filter((l) => l.quantity !== null);
  const computed = computeInvoiceLines({
    currency: created.subscription.currency,
    lines: licensed.map((l) => ({
      price: { ...l.price, unit_amount: l.price.unit_amount === null ? null : Number(l.price.unit_amount) },
      quantity: l.quantity!,
    })),
    discount: created.coupon
      ? {
          id: created.coupon.id,
          percent_off: created.coupon.percent_off,
          amount_off: created.coupon.amount_off === null ? null : Number(created.coupon.amount_off),
          currency: created.coupon.currency,
        }
      : null,
    default_tax_rates: created.taxRates.map((t) => ({ id: t.id, percentage: t.percentage, inclusive: t.inclusive })),
  });
  const lines: FirstInvoiceLine[] = computed.lines.map((line, n) => ({
    description: `${licensed[n].price.lookup_key ?? licensed[n].price.id} x ${line.quantity}`,
    amount: line.amount,
    quantity: 1,
  }));
  if (computed.total_discount > 0) {
    lines.push({ description: `Discount (${created.coupon!.id})`, amount: -computed.total_discount, quantity: 1 });
  }
  for (const rate of created.taxRates.filter((t) => !t.inclusive)) {
    const amount = computed.lines.reduce(
      (sum, l) => sum + l.tax_amounts.filter((t) => t.tax_rate_id === rate.id).reduce((s, t) => s + t.amount, 0),
      0,
    );
    lines.push({ description: `${rate.display_name} ${rate.percentage}%`, amount, quantity: 1 });
  }
  return {
    currency: computed.currency,
    lines,
    totals: {
      subtotal: computed.subtotal,
      total_discount: computed.total_discount,
      total_tax: computed.total_tax,
      total: computed.total,
    },
  };
}
