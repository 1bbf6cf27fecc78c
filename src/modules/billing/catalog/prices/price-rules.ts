import { AppError } from '../../../../common/errors/app-error.js';
import { BillingErrors as E } from '../../billing.errors.js';
import type {
  BillingScheme,
  PriceTier,
  Recurring,
  RecurringInterval,
  TiersMode,
  TransformQuantity,
} from './entities/price.entity.js';

/** What a new price says about its amounts, as the request sent it (already type-checked by its DTO). */
export interface PriceShape {
  billing_scheme: BillingScheme;
  unit_amount?: number;
  tiers?: Array<{ up_to: number | 'inf'; unit_amount?: number; flat_amount?: number }>;
  tiers_mode?: TiersMode;
  transform_quantity?: TransformQuantity;
  recurring?: { interval: RecurringInterval; interval_count?: number; usage_type?: string; meter_id?: string };
}

/** The longest interval_count per interval: a recurring price repeats at least once a year, as Stripe's. */
const MAX_INTERVAL_COUNT: Record<RecurringInterval, number> = { day: 365, week: 52, month: 12, year: 1 };

/**
 * Checks the combination of a new price's amount fields, each rule with its own code, and answers
 * the normalised tiers and recurring terms to store. Pure: the meter's existence is the service's.
 */
export function checkPriceShape(shape: PriceShape): { tiers: PriceTier[] | null; recurring: Recurring | null } {
  if (shape.billing_scheme === 'per_unit') {
    if (shape.tiers !== undefined || shape.tiers_mode !== undefined) {
      throw new AppError(E.E7605, 'tiers and tiers_mode are only allowed with billing_scheme "tiered".');
    }
    if (shape.unit_amount === undefined) throw new AppError(E.E7602, 'A per_unit price needs unit_amount.');
  } else {
    if (shape.unit_amount !== undefined) {
      throw new AppError(E.E7603, 'A tiered price takes its amounts from tiers: unit_amount is not allowed.');
    }
    if (shape.tiers === undefined || shape.tiers.length === 0 || shape.tiers_mode === undefined) {
      throw new AppError(E.E7604, 'A tiered price needs tiers (at least one) and tiers_mode (graduated or volume).');
    }
    if (shape.transform_quantity !== undefined) {
      throw new AppError(E.E7613, 'transform_quantity cannot be combined with billing_scheme "tiered".');
    }
  }
  const recurring = checkRecurring(shape.recurring);
  return { tiers: shape.tiers === undefined ? null : checkTiers(shape.tiers), recurring };
}

function checkTiers(tiers: NonNullable<PriceShape['tiers']>): PriceTier[] {
  let previous = 0;
  tiers.forEach((tier, i) => {
    const last = i === tiers.length - 1;
    if ((tier.up_to === 'inf') !== last) {
      throw new AppError(E.E7607, `tiers[${i}].up_to: the last tier, and only the last, has up_to "inf".`);
    }
    if (tier.up_to !== 'inf') {
      if (tier.up_to <= previous) {
        throw new AppError(E.E7606, `tiers[${i}].up_to (${tier.up_to}) must be greater than ${previous}.`);
      }
      previous = tier.up_to;
    }
    if (tier.unit_amount === undefined && tier.flat_amount === undefined) {
      throw new AppError(E.E7608, `tiers[${i}] needs unit_amount, flat_amount or both.`);
    }
  });
  return tiers.map((t) => ({ up_to: t.up_to, unit_amount: t.unit_amount ?? null, flat_amount: t.flat_amount ?? null }));
}

function checkRecurring(recurring: PriceShape['recurring']): Recurring | null {
  if (recurring === undefined) return null;
  const intervalCount = recurring.interval_count ?? 1;
  if (intervalCount > MAX_INTERVAL_COUNT[recurring.interval]) {
    throw new AppError(
      E.E7614,
      `interval_count ${intervalCount} of ${recurring.interval} is longer than a year (at most ${MAX_INTERVAL_COUNT[recurring.interval]}).`,
    );
  }
  const usageType = recurring.usage_type === 'metered' ? 'metered' : 'licensed';
  if (usageType === 'metered' && recurring.meter_id === undefined) {
    throw new AppError(E.E7609, 'A metered price needs recurring.meter_id.');
  }
  if (usageType === 'licensed' && recurring.meter_id !== undefined) {
    throw new AppError(E.E7610, 'A licensed price has no meter: send usage_type "metered" with meter_id.');
  }
  return { interval: recurring.interval, interval_count: intervalCount, usage_type: usageType };
}
