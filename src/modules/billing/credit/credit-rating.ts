import { scaledDecimal } from '../pricing/decimal.js';
import { ratePrice, type RatablePrice } from '../pricing/rate-price.js';

/** Meter values carry at most 12 decimals (the ingestion check), so quantities are exact at this scale. */
const DECIMALS = 12;
const SCALE = 10n ** BigInt(DECIMALS);

/** A signed decimal text ("-2.5", "25") as an integer scaled by 10^12. */
function scaled(text: string): bigint {
  const trimmed = text.trim();
  return trimmed.startsWith('-') ? -scaledDecimal(trimmed.slice(1), DECIMALS) : scaledDecimal(trimmed, DECIMALS);
}

function text(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const fraction = (abs % SCALE).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${abs / SCALE}${fraction ? `.${fraction}` : ''}`;
}

/** Whole billed units of a quantity: rounded up (a started unit is billed), never below zero. */
const maxOf = (a: bigint, b: bigint): bigint => (a > b ? a : b);

function billedUnits(quantity: bigint): number {
  if (quantity <= 0n) return 0;
  return Number((quantity + SCALE - 1n) / SCALE);
}

export interface Admission {
  /** The period's quantity after the event, as decimal text. */
  quantity: string;
  /** The rated amount of that quantity, minor units. */
  amount: number;
  /** What the event adds to the unbilled usage: `amount` minus the amount before (negative when a volume tier gets cheaper). */
  cost: number;
}

/**
 * An event's marginal cost: the period's quantity moves by the meter's formula (sum adds the value,
 * count adds one, last replaces it), and the cost is the price's rating of the new quantity minus
 * the rating already reserved. So a graduated tier rates each event at the tier it lands in, and the
 * costs of a period's events add up to the price's rating of the period's quantity.
 */
export function rateAdmission(
  price: RatablePrice,
  aggregation: 'sum' | 'count' | 'last' | 'max',
  before: { quantity: string; amount: number },
  value: string,
): Admission {
  const previous = scaled(before.quantity);
  const next =
    aggregation === 'sum'
      ? previous + scaled(value)
      : aggregation === 'count'
        ? previous + SCALE
        : aggregation === 'max'
          ? maxOf(previous, scaled(value))
          : scaled(value);
  const amount = ratePrice(price, billedUnits(next));
  return { quantity: text(next), amount, cost: amount - before.amount };
}

/** One event's outcome in {@link admitInOrder}: admitted at `cost`, or refused with the credit that was left. */
export type OrderedAdmission = { admitted: true; cost: number } | { admitted: false; cost: number; available: number };

export interface AdmissionRun {
  decisions: OrderedAdmission[];
  /** The item's period quantity and its rating after the admitted events. */
  bucket: { quantity: string; amount: number };
  /** The customer's unbilled usage after the admitted events (null: the customer has no usage row). */
  unbilled: number | null;
  /** Whether anything was admitted, i.e. the bucket or the unbilled usage must be written. */
  changed: boolean;
}

/**
 * Decides concurrently arriving events of one item in arrival order, as if each had come alone: each
 * is rated at its marginal cost on the quantity the admitted ones before it left, and admitted when
 * it costs nothing, gets cheaper (a volume tier), or its cost still fits `credit` on top of the
 * unbilled usage so far; a refused event moves nothing, so a later, smaller event may still fit.
 * Without a usage row (the customer never had credit in the currency) only free events pass.
 */
export function admitInOrder(
  price: RatablePrice,
  aggregation: 'sum' | 'count' | 'last' | 'max',
  start: { quantity: string; amount: number },
  values: string[],
  unbilledBefore: number | null,
  credit: number,
): AdmissionRun {
  let bucket = start;
  let unbilled = unbilledBefore;
  let changed = false;
  const decisions = values.map((value): OrderedAdmission => {
    const next = rateAdmission(price, aggregation, bucket, value);
    const used = unbilled ?? 0;
    const fits = next.cost === 0 || (unbilled !== null && (next.cost < 0 || used + next.cost <= credit));
    if (!fits) return { admitted: false, cost: next.cost, available: credit - used };
    bucket = { quantity: next.quantity, amount: next.amount };
    if (next.cost !== 0 && unbilled !== null) unbilled = Math.max(unbilled + next.cost, 0);
    changed = true;
    return { admitted: true, cost: next.cost };
  });
  return { decisions, bucket, unbilled, changed };
}
