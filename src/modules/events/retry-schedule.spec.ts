import { RETRY_WINDOW_MS, maxRetryDelayMs, nextRetryAt, retryDelayMs } from './retry-schedule.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('webhook retry schedule', () => {
  it('waits 30 s after the first failure and doubles after each next one, up to 12 h', () => {
    const middle = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, middle))).toEqual([
      30_000,
      MIN,
      2 * MIN,
      4 * MIN,
      8 * MIN,
      16 * MIN,
      32 * MIN,
    ]);
    expect(retryDelayMs(12, middle)).toBe(12 * HOUR);
    expect(retryDelayMs(40, middle)).toBe(12 * HOUR);
    expect(retryDelayMs(1_000, middle)).toBe(12 * HOUR);
  });

  it('jitters each delay by +-20 %', () => {
    expect(retryDelayMs(1, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, () => 0.999_999)).toBe(36_000);
    expect(maxRetryDelayMs(1)).toBe(36_000);
    expect(maxRetryDelayMs(2)).toBe(72_000);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs(3);
      expect(delay).toBeGreaterThanOrEqual(96_000);
      expect(delay).toBeLessThanOrEqual(144_000);
    }
  });

  it('gives up once the next attempt would fall more than 3 days after the delivery was first due', () => {
    const from = new Date('2026-11-01T00:00:00Z');
    const middle = () => 0.5;
    expect(nextRetryAt(1, from, from, middle)).toEqual(new Date(from.getTime() + 30_000));
    const late = new Date(from.getTime() + RETRY_WINDOW_MS - 12 * HOUR);
    expect(nextRetryAt(20, from, late, middle)).toEqual(new Date(from.getTime() + RETRY_WINDOW_MS));
    expect(nextRetryAt(20, from, new Date(late.getTime() + 1), middle)).toBeNull();
  });

  it('makes about 16 attempts in the 3-day window', () => {
    const from = new Date('2026-11-01T00:00:00Z');
    let at = from;
    let attempts = 1;
    for (let next = nextRetryAt(1, from, at, () => 0.5); next; next = nextRetryAt(attempts, from, at, () => 0.5)) {
      at = next;
      attempts += 1;
    }
    expect(attempts).toBeGreaterThanOrEqual(15);
    expect(attempts).toBeLessThanOrEqual(17);
  });
});
