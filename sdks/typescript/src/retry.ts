/** When and how long to wait before trying a call again. Pure: the client supplies the clock and randomness. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 3). */
  maxAttempts: number;
  /** First backoff when the answer names no Retry-After (default 500 ms), doubled each attempt. */
  baseDelayMs: number;
  /** No wait is longer than this, Retry-After included (default 20 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 20_000 };

/** 409 E2007 (the same idempotency key still in progress), 429 and every 5xx; never another 4xx. */
export function isRetryable(status: number, code: string | undefined): boolean {
  return status === 429 || status >= 500 || (status === 409 && code === 'E2007');
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1): Retry-After when the service named
 * one, otherwise exponential backoff with full jitter (`random` in [0, 1)); capped by maxDelayMs.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfter: number | undefined,
  random: number,
): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(ceiling / 2 + (random * ceiling) / 2);
}
