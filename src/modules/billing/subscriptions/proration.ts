/**
 * Proration, in integer minor units (docs/BILLING.md, "Prorations"):
 *
 *   amount = round_half_up(full_amount × remaining_seconds / period_seconds)
 *
 * where `remaining_seconds` runs from the change to the end of the current period (whole seconds,
 * the milliseconds of both ends dropped) and `full_amount` is what the item costs for a whole
 * period. Rounding is half away from zero, so a credit is the exact negative of the matching
 * charge. Exact (BigInt): no floating point ever touches an amount.
 */
export function prorate(fullAmount: bigint, changeAt: Date, period: { start: Date; end: Date }): bigint {
  const total = seconds(period.end) - seconds(period.start);
  if (total <= 0n) return 0n;
  let remaining = seconds(period.end) - seconds(changeAt);
  if (remaining <= 0n) return 0n;
  if (remaining > total) remaining = total;
  const negative = fullAmount < 0n;
  const abs = negative ? -fullAmount : fullAmount;
  const rounded = (abs * remaining * 2n + total) / (2n * total);
  return negative ? -rounded : rounded;
}

const seconds = (at: Date) => BigInt(Math.floor(at.getTime() / 1000));

export interface ProrationLine {
  /** Positive: a charge for the rest of the period; negative: a credit for unused time. */
  amount: bigint;
  quantity: number;
  description: string;
}

/** What an item costs for a whole period at a quantity (the catalog's rating: per unit, tiers, packages). */
export interface ItemCost {
  quantity: number;
  amount: bigint;
}

/**
 * The proration lines of a licensed item going from `from` to `to` (null = added or removed) at
 * `changeAt`: as Stripe, a credit for the unused time at the old cost and a charge for the
 * remaining time at the new one, each rounded on its own.
 */
export function changeProrations(
  from: ItemCost | null,
  to: ItemCost | null,
  changeAt: Date,
  period: { start: Date; end: Date },
): ProrationLine[] {
  const lines: ProrationLine[] = [];
  if (from && from.quantity > 0) {
    const amount = prorate(-from.amount, changeAt, period);
    if (amount !== 0n)
      lines.push({ amount, quantity: from.quantity, description: `Unused time on ${from.quantity} ×` });
  }
  if (to && to.quantity > 0) {
    const amount = prorate(to.amount, changeAt, period);
    if (amount !== 0n) lines.push({ amount, quantity: to.quantity, description: `Remaining time on ${to.quantity} ×` });
  }
  return lines;
}
