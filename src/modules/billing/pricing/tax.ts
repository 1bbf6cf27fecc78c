import { scaledDecimal } from './decimal.js';
import { amountOf, divideHalfUp, toAmount } from './rounding.js';

/** What tax needs of a tax rate (the catalog's TaxRate entity and its API response both fit). */
export interface TaxTerms {
  /** Percent with at most 4 decimals, as a number (7) or the stored decimal text ("7.0000"). */
  percentage: number | string;
  inclusive: boolean;
}

/** 100% with 4 decimals of percent: percentages are scaled by 10^4, so 100% is 10^6. */
const HUNDRED_PERCENT = 1_000_000n;

const scaled = (percentage: number | string) => scaledDecimal(String(percentage), 4);

/**
 * Exclusive tax on `amount` (tax is added on top): tax = round_half_up(amount x p / 100), exactly
 * (amount x P) / 10^6 with P = p x 10^4. Thai VAT 7% on 29,900 satang: 29,900 x 70,000 / 10^6 = 2,093.
 */
export function exclusiveTax(amount: number, percentage: number | string): number {
  return toAmount(divideHalfUp(amountOf(amount) * scaled(percentage), HUNDRED_PERCENT));
}

/**
 * Inclusive tax in `amount` (the amount already contains it):
 * tax = amount - round_half_up(amount / (1 + p / 100)), exactly amount - (amount x 10^6) / (10^6 + P).
 * Thai VAT 7% in 10,700 satang: 10,700 - round(10,000) = 700.
 */
export function inclusiveTax(amount: number, percentage: number | string): number {
  const base = amountOf(amount);
  return toAmount(base - divideHalfUp(base * HUNDRED_PERCENT, HUNDRED_PERCENT + scaled(percentage)));
}

/**
 * The tax of each rate on one line's `amount` (after discounts), in the rates' order. Exclusive rates
 * each tax the amount on their own. Inclusive rates share it: the net is
 * round_half_up(amount x 10^6 / (10^6 + sum P)), their total is amount - net, and each inclusive
 * rate's part is round_half_up(net x P_i / 10^6) except the last inclusive rate, which takes what
 * is left, so the parts sum to exactly amount - net (one inclusive rate: the formula above).
 */
export function lineTaxes(amount: number, rates: TaxTerms[]): number[] {
  const base = amountOf(amount);
  const inclusive = rates.filter((r) => r.inclusive);
  const inclusiveSum = inclusive.reduce((sum, r) => sum + scaled(r.percentage), 0n);
  const net = divideHalfUp(base * HUNDRED_PERCENT, HUNDRED_PERCENT + inclusiveSum);
  let inclusiveLeft = base - net;
  let inclusiveSeen = 0;
  return rates.map((rate) => {
    if (!rate.inclusive) return exclusiveTax(amount, rate.percentage);
    inclusiveSeen += 1;
    const part =
      inclusiveSeen === inclusive.length ? inclusiveLeft : divideHalfUp(net * scaled(rate.percentage), HUNDRED_PERCENT);
    inclusiveLeft -= part;
    return toAmount(part);
  });
}
