import { amountOf, toAmount } from './rounding.js';

/** What rating needs of a price (the catalog's Price entity and its API response both fit). */
export interface RatablePrice {
  billing_scheme: 'per_unit' | 'tiered';
  unit_amount: number | null;
  tiers: Array<{ up_to: number | 'inf'; unit_amount: number | null; flat_amount: number | null }> | null;
  tiers_mode: 'graduated' | 'volume' | null;
  transform_quantity: { divide_by: number; round: 'up' | 'down' } | null;
}

/**
 * The amount, in minor units, of `quantity` units of `price`:
 * - per_unit: unit_amount x quantity, the quantity first divided by transform_quantity.divide_by
 *   and rounded up or down to a whole number (Stripe's "package" pricing: 1-10 units cost one package).
 * - tiered graduated: each tier rates the units that fall in it (unit_amount x units) plus its
 *   flat_amount once when at least one unit falls in it.
 * - tiered volume: the tier the whole quantity falls in rates every unit, plus that tier's flat_amount.
 * A quantity of 0 costs 0 in every scheme (no tier is entered).
 */
export function ratePrice(price: RatablePrice, quantity: number): number {
  const q = amountOf(quantity, 'quantity');
  if (price.billing_scheme === 'per_unit') {
    const unit = amountOf(price.unit_amount ?? Number.NaN, 'unit_amount');
    return toAmount(unit * transformQuantity(q, price.transform_quantity));
  }
  const tiers = price.tiers ?? [];
  if (tiers.length === 0 || tiers[tiers.length - 1].up_to !== 'inf')
    throw new Error('a tiered price ends with up_to "inf"');
  if (q === 0n) return 0;
  const unitOf = (t: (typeof tiers)[number]) => BigInt(t.unit_amount ?? 0);
  const flatOf = (t: (typeof tiers)[number]) => BigInt(t.flat_amount ?? 0);
  if (price.tiers_mode === 'volume') {
    const tier = tiers.find((t) => t.up_to === 'inf' || q <= BigInt(t.up_to))!;
    return toAmount(unitOf(tier) * q + flatOf(tier));
  }
  let total = 0n;
  let below = 0n;
  for (const tier of tiers) {
    const top = tier.up_to === 'inf' ? q : BigInt(tier.up_to) < q ? BigInt(tier.up_to) : q;
    const units = top - below;
    if (units <= 0n) break;
    total += unitOf(tier) * units + flatOf(tier);
    below = top;
  }
  return toAmount(total);
}

/** The billed quantity: `quantity / divide_by` rounded up or down; the quantity itself without a transform. */
export function transformQuantity(quantity: bigint, transform: RatablePrice['transform_quantity']): bigint {
  if (!transform) return quantity;
  const d = BigInt(transform.divide_by);
  if (d <= 0n) throw new Error('divide_by must be positive');
  return transform.round === 'up' ? (quantity + d - 1n) / d : quantity / d;
}
