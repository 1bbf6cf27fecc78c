/**
 * Billing periods, in UTC, as Stripe computes them
 * (https://docs.stripe.com/billing/subscriptions/billing-cycle): every period boundary is
 * `billing_cycle_anchor + k × (interval_count × interval)`, computed from the anchor each time (never
 * from the previous boundary), so a month that is too short clamps to its last day and the next
 * boundary comes back: an anchor of Jan 31 gives Feb 28 (29 in a leap year), then Mar 31, Apr 30.
 * The time of day of the anchor is kept. `day` and `week` are 86,400 and 604,800 seconds (UTC has
 * no daylight saving time).
 */
export type Interval = 'day' | 'week' | 'month' | 'year';

export interface Recurrence {
  interval: Interval;
  interval_count: number;
}

const DAY_MS = 86_400_000;

/** `anchor` moved by `k` whole recurrences (k >= 0), month ends clamped. */
export function addRecurrences(anchor: Date, recurrence: Recurrence, k: number): Date {
  const n = recurrence.interval_count * k;
  switch (recurrence.interval) {
    case 'day':
      return new Date(anchor.getTime() + n * DAY_MS);
    case 'week':
      return new Date(anchor.getTime() + n * 7 * DAY_MS);
    case 'month':
      return addMonths(anchor, n);
    case 'year':
      return addMonths(anchor, 12 * n);
  }
}

function addMonths(anchor: Date, months: number): Date {
  const total = anchor.getUTCMonth() + months;
  const year = anchor.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The first boundary `anchor + k × recurrence` (k >= 1) strictly after `after`. */
export function nextBoundary(anchor: Date, recurrence: Recurrence, after: Date): Date {
  // A first guess from the average length, then walk: exact for any calendar.
  const approxMs = { day: DAY_MS, week: 7 * DAY_MS, month: 30.436875 * DAY_MS, year: 365.2425 * DAY_MS }[
    recurrence.interval
  ];
  let k = Math.max(1, Math.floor((after.getTime() - anchor.getTime()) / (approxMs * recurrence.interval_count)) - 1);
  while (k > 1 && addRecurrences(anchor, recurrence, k - 1) > after) k -= 1;
  while (addRecurrences(anchor, recurrence, k) <= after) k += 1;
  return addRecurrences(anchor, recurrence, k);
}

export interface Period {
  start: Date;
  end: Date;
}

/**
 * The first billing period of a subscription whose billing starts at `start` (its creation, or its
 * trial end), with `anchor` the billing cycle anchor (`start` when not chosen; else it must lie in
 * [start, start + one recurrence]). An anchor later than `start` makes a shorter first period
 * [start, anchor) (Stripe prorates it); then periods run anchor to anchor.
 */
export function firstPeriod(start: Date, anchor: Date, recurrence: Recurrence): Period {
  if (anchor > start) return { start, end: anchor };
  return { start, end: addRecurrences(anchor, recurrence, 1) };
}

/** Whether `anchor` is acceptable for billing starting at `start` (see firstPeriod). */
export function anchorFits(start: Date, anchor: Date, recurrence: Recurrence): boolean {
  return anchor >= start && anchor <= addRecurrences(start, recurrence, 1);
}

/** The period after one ending at `end` (a boundary of `anchor`'s cycle). */
export function periodAfter(end: Date, anchor: Date, recurrence: Recurrence): Period {
  return { start: end, end: nextBoundary(anchor, recurrence, end) };
}

/** `trial_period_days` as a trial end: whole days of 86,400 s after `start`. */
export function trialEndAfterDays(start: Date, days: number): Date {
  return new Date(start.getTime() + days * DAY_MS);
}
