import { computeInvoiceLines, type ComputedInvoice } from '../pricing/index.js';
import type { Coupon } from '../catalog/coupons/entities/coupon.entity.js';
import type { Price } from '../catalog/prices/entities/price.entity.js';
import type { TaxRate } from '../catalog/tax-rates/entities/tax-rate.entity.js';

/** One line of a subscription's invoice as the invoice stores it (minor units). */
export interface FirstInvoiceLine {
  description: string;
  amount: number;
  quantity: number;
}

/** What a subscription's first invoice is priced from: its currency, items (quantity null: metered), coupon and tax rates. */
export interface FirstInvoiceInput {
  currency: string;
  items: Array<{ price: Price; quantity: number | null }>;
  coupon: Coupon | null;
  taxRates: TaxRate[];
}

/**
 * A subscription's first invoice, priced (docs/BILLING.md, "Subscription checkout"): each licensed
 * item at quantity x price, one discount line (the coupon, split over the lines), one line per
 * exclusive tax rate (each line's tax half-up). Metered items are billed from usage later.
 */
export function subscriptionInvoiceLines(input: FirstInvoiceInput): {
  currency: string;
  lines: FirstInvoiceLine[];
  totals: Pick<ComputedInvoice, 'subtotal' | 'total_discount' | 'total_tax' | 'total'>;
} {
  const licensed = input.items.filter((l) => l.quantity !== null);
  const computed = computeInvoiceLines({
    currency: input.currency,
    lines: licensed.map((l) => ({
      price: { ...l.price, unit_amount: l.price.unit_amount === null ? null : Number(l.price.unit_amount) },
      quantity: l.quantity!,
    })),
    discount: input.coupon
      ? {
          id: input.coupon.id,
          percent_off: input.coupon.percent_off,
          amount_off: input.coupon.amount_off === null ? null : Number(input.coupon.amount_off),
          currency: input.coupon.currency,
        }
      : null,
    default_tax_rates: input.taxRates.map((t) => ({ id: t.id, percentage: t.percentage, inclusive: t.inclusive })),
  });
  const lines: FirstInvoiceLine[] = computed.lines.map((line, n) => ({
    description: `${licensed[n].price.lookup_key ?? licensed[n].price.id} x ${line.quantity}`,
    amount: line.amount,
    quantity: 1,
  }));
  if (computed.total_discount > 0) {
    lines.push({ description: `Discount (${input.coupon!.id})`, amount: -computed.total_discount, quantity: 1 });
  }
  for (const rate of input.taxRates.filter((t) => !t.inclusive)) {
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
