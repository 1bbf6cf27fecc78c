import {
  allocate,
  couponDiscount,
  lineTaxes,
  ratePrice,
  type CouponTerms,
  type RatablePrice,
  type TaxTerms,
} from '../pricing/index.js';

export interface ComposedLine {
  discount_amount: number;
  tax_amounts: Array<{ tax_rate_id: string; inclusive: boolean; taxable_amount: number; amount: number }>;
}

export interface ComposedInvoice {
  lines: ComposedLine[];
  /** Sum of the lines' signed amounts. */
  subtotal: number;
  total_discount: number;
  total_tax: number;
  /** subtotal - total_discount + exclusive taxes. */
  total: number;
}

/**
 * Discount and tax over a subscription invoice's lines, whose amounts are already rated and may be
 * negative (proration credits). As computeInvoiceLines (docs/BILLING.md, "Amounts and rounding"),
 * extended to credits: the coupon discounts the sum of the positive lines once and is split over
 * them by largest remainder (credits take no discount); each line is taxed on its amount after its
 * share, half-up per line, a credit's tax being the exact negative of the same charge's. `credits`:
 * the prepaid credit each line took at finalization (after its discount, before tax, as Stripe's
 * billing credits): the line is taxed on what the credit left; `total` keeps the credit in (the
 * invoice's `amount_due` takes it out).
 */
export function composeInvoice(
  amounts: number[],
  coupon: CouponTerms | null,
  taxRates: Array<TaxTerms & { id: string }>,
  credits: number[] = [],
): ComposedInvoice {
  const positive = amounts.map((a) => (a > 0 ? a : 0));
  const discountable = positive.reduce((s, a) => s + a, 0);
  const totalDiscount = coupon && discountable > 0 ? couponDiscount(discountable, coupon) : 0;
  const shares = allocate(totalDiscount, positive);
  let totalTax = 0;
  let exclusive = 0;
  const lines = amounts.map((amount, i): ComposedLine => {
    const taxable = amount - shares[i] - (credits[i] ?? 0);
    const magnitude = lineTaxes(Math.abs(taxable), taxRates);
    const sign = taxable < 0 ? -1 : 1;
    return {
      discount_amount: shares[i],
      tax_amounts: taxRates.map((rate, r) => {
        const tax = sign * magnitude[r];
        totalTax += tax;
        if (!rate.inclusive) exclusive += tax;
        return { tax_rate_id: rate.id, inclusive: rate.inclusive, taxable_amount: taxable, amount: tax };
      }),
    };
  });
  const subtotal = amounts.reduce((s, a) => s + a, 0);
  return {
    lines,
    subtotal,
    total_discount: totalDiscount,
    total_tax: totalTax,
    total: subtotal - totalDiscount + exclusive,
  };
}

/**
 * The whole units a metered quantity is rated at: the meter's aggregate (exact decimal text) rounded
 * up to a whole unit (0.2 GB bills as 1), never below 0. `transform_quantity` then applies as for
 * any quantity.
 */
export function billableQuantity(quantity: string): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(quantity.trim());
  if (!match) throw new Error(`not a decimal quantity: ${quantity}`);
  if (match[1] === '-') return 0;
  const whole = BigInt(match[2]);
  const fraction = match[3] && /[1-9]/.test(match[3]) ? 1n : 0n;
  return Number(whole + fraction);
}

/**
 * A metered line's amount. `billedBefore`: for usage from an earlier period, the quantity that
 * period's lines already billed; the late events cost what they add to the period's rating,
 * rate(before + late) - rate(before) for a sum or count (graduated tiers continue where the period
 * stopped), and for `last` or `max` the difference of the two ratings, never below 0.
 */
export function meteredAmount(
  price: RatablePrice,
  quantity: string,
  billedBefore: { quantity: string; combined: string } | null,
): number {
  if (!billedBefore) return ratePrice(price, billableQuantity(quantity));
  const before = ratePrice(price, billableQuantity(billedBefore.quantity));
  const after = ratePrice(price, billableQuantity(billedBefore.combined));
  return after > before ? after - before : 0;
}
