import {
  addRecurrences,
  anchorFits,
  firstPeriod,
  nextBoundary,
  periodAfter,
  trialEndAfterDays,
} from './subscription-periods.js';

const d = (iso: string) => new Date(iso);
const monthly = { interval: 'month', interval_count: 1 } as const;

describe('subscription periods', () => {
  it('clamps month ends and comes back: Jan 31 -> Feb 28 -> Mar 31 -> Apr 30', () => {
    const anchor = d('2026-01-31T10:00:00.000Z');
    expect([1, 2, 3].map((k) => addRecurrences(anchor, monthly, k).toISOString())).toEqual([
      '2026-02-28T10:00:00.000Z',
      '2026-03-31T10:00:00.000Z',
      '2026-04-30T10:00:00.000Z',
    ]);
  });

  it('takes Feb 29 in a leap year', () => {
    expect(addRecurrences(d('2028-01-31T00:00:00Z'), monthly, 1).toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('chains periods from the anchor, never from the clamped end', () => {
    const anchor = d('2026-01-31T00:00:00Z');
    const p1 = firstPeriod(anchor, anchor, monthly);
    const p2 = periodAfter(p1.end, anchor, monthly);
    const p3 = periodAfter(p2.end, anchor, monthly);
    expect([p1.end, p2.end, p3.end].map((x) => x.toISOString().slice(0, 10))).toEqual([
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
  });

  it('counts interval_count, days, weeks and years (Feb 29 -> Feb 28)', () => {
    const anchor = d('2028-02-29T12:00:00Z');
    expect(addRecurrences(anchor, { interval: 'month', interval_count: 3 }, 1).toISOString()).toBe(
      '2028-05-29T12:00:00.000Z',
    );
    expect(addRecurrences(anchor, { interval: 'year', interval_count: 1 }, 1).toISOString()).toBe(
      '2029-02-28T12:00:00.000Z',
    );
    expect(addRecurrences(anchor, { interval: 'week', interval_count: 2 }, 1).toISOString()).toBe(
      '2028-03-14T12:00:00.000Z',
    );
    expect(addRecurrences(anchor, { interval: 'day', interval_count: 10 }, 2).toISOString()).toBe(
      '2028-03-20T12:00:00.000Z',
    );
  });

  it('finds the next boundary strictly after a time, however far', () => {
    const anchor = d('2026-01-31T00:00:00Z');
    expect(nextBoundary(anchor, monthly, d('2026-01-31T00:00:00Z')).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(nextBoundary(anchor, monthly, d('2026-02-28T00:00:00Z')).toISOString()).toBe('2026-03-31T00:00:00.000Z');
    expect(nextBoundary(anchor, monthly, d('2031-06-15T00:00:00Z')).toISOString()).toBe('2031-06-30T00:00:00.000Z');
  });

  it('makes a short first period up to a later anchor', () => {
    const start = d('2026-03-10T00:00:00Z');
    const anchor = d('2026-04-01T00:00:00Z');
    expect(anchorFits(start, anchor, monthly)).toBe(true);
    expect(firstPeriod(start, anchor, monthly)).toEqual({ start, end: anchor });
    expect(periodAfter(anchor, anchor, monthly).end.toISOString()).toBe('2026-05-01T00:00:00.000Z');
    expect(anchorFits(start, d('2026-04-11T00:00:00Z'), monthly)).toBe(false);
    expect(anchorFits(start, d('2026-03-09T00:00:00Z'), monthly)).toBe(false);
  });

  it('turns trial_period_days into whole UTC days', () => {
    expect(trialEndAfterDays(d('2026-03-10T08:00:00Z'), 14).toISOString()).toBe('2026-03-24T08:00:00.000Z');
  });
});
