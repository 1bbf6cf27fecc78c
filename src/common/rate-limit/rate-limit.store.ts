/** A counter's state after a hit: how many hits its window has seen, and when the window ends (epoch ms). */
export interface RateLimitWindow {
  count: number;
  resetAt: number;
}

/**
 * Where rate-limit counters live: fixed windows keyed by tracker (`secret_key:<id>`,
 * `auth-failure:ip:<address>`, …). Injected by this class as its token, so a shared store (e.g.
 * Redis, `INCR` + `PEXPIRE`) can replace the in-process default for every limit at once by
 * providing another implementation: `{ provide: RateLimitStore, useClass: RedisRateLimitStore }`.
 */
export abstract class RateLimitStore {
  /** Counts one hit on `key` and answers the window's state (a new window of `windowMs` when the last one ended). */
  abstract hit(key: string, windowMs: number, now: number): RateLimitWindow | Promise<RateLimitWindow>;
}

const MAX_TRACKED = 100_000;

/**
 * The default store: counters in this process. With N replicas each limit is effectively N times
 * its setting, until a shared store replaces this one.
 */
export class InMemoryRateLimitStore extends RateLimitStore {
  private readonly windows = new Map<string, RateLimitWindow>();

  hit(key: string, windowMs: number, now: number): RateLimitWindow {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size >= MAX_TRACKED) this.evictExpired(now);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { ...window };
  }

  private evictExpired(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    if (this.windows.size >= MAX_TRACKED) this.windows.clear();
  }
}

/** Seconds until `resetAt`, at least 1: the Retry-After of a 429. */
export function retryAfterSeconds(resetAt: number, now: number): string {
  return String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
}
