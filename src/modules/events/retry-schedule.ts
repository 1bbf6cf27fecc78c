/**
 * When a failed delivery is tried again (docs/EVENTS.md): 30 s after the first failure, doubling
 * each time up to 12 h between attempts, each delay jittered by +-20 % so receivers coming back
 * are not hit by every sender at once; given up once the next attempt would fall more than 3 days
 * after the delivery was first due. Roughly 16 attempts: 30 s, 1, 2, 4, 8, 16, 32 min, 1.1, 2.1,
 * 4.3, 8.5 h, then every 12 h.
 */
export const RETRY_WINDOW_MS = 3 * 24 * 3600 * 1000;
const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 12 * 3600 * 1000;
const JITTER = 0.2;

/** The delay after the `failures`-th failed attempt (1-based), jittered by `random()` in [0, 1). */
export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_DELAY_MS * 2 ** Math.min(failures - 1, 30), MAX_DELAY_MS);
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** The longest delay `retryDelayMs(failures)` can give: tests move the clock by this much. */
export const maxRetryDelayMs = (failures: number): number => retryDelayMs(failures, () => 1);

/** When to try again after the `failures`-th failure at `now`, or null: the retry window is over. */
export function nextRetryAt(failures: number, windowFrom: Date, now: Date, random?: () => number): Date | null {
  const at = now.getTime() + retryDelayMs(failures, random);
  return at - windowFrom.getTime() > RETRY_WINDOW_MS ? null : new Date(at);
}
