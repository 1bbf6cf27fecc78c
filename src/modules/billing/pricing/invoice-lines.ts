import { allocate, couponDiscount, type CouponTerms } from './discount.js';
import { ratePrice, type RatablePrice } from './rate-price.js';
import { lineTaxes, type TaxTerms } from './tax.js';

export interface LineInput {
  price: RatablePrice & { id: string; currency: string };
  quantity: number;
  /** This line's tax rates; the invoice's default_tax_rates apply when absent. */
  tax_rates?: Array<TaxTerms & { id: string }>;
}

export interface InvoiceInput {
  currency: string;
  lines: LineInput[];
  /** One coupon for the whole invoice (an amount_off coupon must be in `currency`). */
  discount?: (CouponTerms & { id: string; currency?: string | null }) | null;
  default_tax_rates?: Array<TaxTerms & { id: string }>;
}

export interface ComputedLine {
  price_id: string;
  quantity: number;
  /** quantity rated by the price, before discount and exclusive tax (inclusive tax is inside it). */
  amount: number;
  discount_amounts: Array<{ coupon_id: string; amount: number }>;
  tax_amounts: Array<{ tax_rate_id: string; inclusive: boolean; taxable_amount: number; amount: number }>;
}

export interface ComputedInvoice {
  currency: string;
  lines: ComputedLine[];
  /** Sum of the lines' amounts. */
  subtotal: number;
  total_discount: number;
  /** Sum of every tax amount, inclusive and exclusive. */
  total_tax: number;
  /** subtotal - total_discount + the exclusive taxes (inclusive taxes are already in the amounts). */
  total: number;
}

/**
 * An invoice's lines and totals in integer minor units, in the order: rate each line; discount the
 * subtotal once (percent_off half-up, amount_off capped at the subtotal) and split the discount over
 * the lines in proportion to their amounts (largest remainder, so the parts sum exactly); then tax
 * each line's discounted amount per rate, half-up per line (docs/BILLING.md, "Amounts and rounding").
 */
export function computeInvoiceLines(input: InvoiceInput): ComputedInvoice {
  for (const line of input.lines) {
    if (line.price.currency !== input.currency) {
      throw new Error(`price ${line.price.id} is in ${line.price.currency}, the invoice in ${input.currency}`);
    }
  }
  const discount = input.discount ?? null;
  if (discount?.amount_off != null && discount.currency !== input.currency) {
    throw new Error(`coupon ${discount.id} is in ${discount.currency}, the invoice in ${input.currency}`);
  }
  const amounts = input.lines.map((line) => ratePrice(line.price, line.quantity));
  const subtotal = amounts.reduce((sum, a) => sum + a, 0);
  const totalDiscount = discount ? couponDiscount(subtotal, discount) : 0;
  const discounts = allocate(totalDiscount, amounts);
  let totalTax = 0;
  let exclusiveTax = 0;
  const lines = input.lines.map((line, i): ComputedLine => {
    const taxable = amounts[i] - discounts[i];
    const rates = line.tax_rates ?? input.default_tax_rates ?? [];
    const taxes = lineTaxes(taxable, rates);
    rates.forEach((rate, r) => {
      totalTax += taxes[r];
      if (!rate.inclusive) exclusiveTax += taxes[r];
    });
    return {
      price_id: line.price.id,
      quantity: line.quantity,
      amount: amounts[i],
      discount_amounts: discount ? [{ coupon_id: discount.id, amount: discounts[i] }] : [],
      tax_amounts: rates.map((rate, r) => ({
        tax_rate_id: rate.id,
        inclusive: rate.inclusive,
        taxable_amount: taxable,
        amount: taxes[r],
      })),
    };
  });
  return {
    currency: input.currency,
    lines,
    subtotal,
    total_discount: totalDiscount,
    total_tax: totalTax,
    total: subtotal - totalDiscount + exclusiveTax,
  };
}
