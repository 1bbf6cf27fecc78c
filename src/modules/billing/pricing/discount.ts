import { scaledDecimal } from './decimal.js';
import { amountOf, divideHalfUp, toAmount } from './rounding.js';

/** What applying a coupon needs of it (the catalog's Coupon entity and its API response both fit). */
export interface CouponTerms {
  /** Percent off with at most 2 decimals, as a number (12.5) or the stored decimal text ("12.50"). */
  percent_off: number | string | null;
  amount_off: number | null;
}

/**
 * The discount a coupon gives on `amount` minor units:
 * - percent_off p: round_half_up(amount x p / 100), computed exactly as
 *   (amount x p_hundredths) / 10000 with p_hundredths = p x 100 (an integer: p has at most 2 decimals);
 * - amount_off a: min(a, amount) (a discount never exceeds what it discounts).
 */
export function couponDiscount(amount: number, coupon: CouponTerms): number {
  const base = amountOf(amount);
  if (coupon.percent_off !== null) {
    const hundredths = scaledDecimal(String(coupon.percent_off), 2);
    return toAmount(divideHalfUp(base * hundredths, 10_000n));
  }
  const off = amountOf(coupon.amount_off ?? Number.NaN, 'amount_off');
  return toAmount(off < base ? off : base);
}

/**
 * Splits `discount` over `amounts` in proportion to each (largest remainder: each share is floored
 * and the units left go one each to the largest remainders, earlier lines first on ties), so the
 * shares sum to exactly `discount` and none exceeds its amount. `discount` must not exceed the sum.
 */
export function allocate(discount: number, amounts: number[]): number[] {
  const total = amounts.reduce((sum, a) => sum + amountOf(a), 0n);
  const d = amountOf(discount, 'discount');
  if (d > total) throw new Error('the discount exceeds the amounts');
  if (total === 0n) return amounts.map(() => 0);
  const shares = amounts.map((a, i) => ({ i, share: (d * BigInt(a)) / total, rest: (d * BigInt(a)) % total }));
  let left = d - shares.reduce((sum, s) => sum + s.share, 0n);
  for (const s of [...shares].sort((x, y) => (x.rest === y.rest ? x.i - y.i : x.rest > y.rest ? -1 : 1))) {
    if (left === 0n) break;
    s.share += 1n;
    left -= 1n;
  }
  return shares.map((s) => toAmount(s.share));
}
