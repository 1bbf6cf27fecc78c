import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request } from 'express';
import type { AllConfig } from '../../config/app.config.js';
import { Clock } from '../clock.js';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
import { RateLimitStore, retryAfterSeconds } from './rate-limit.store.js';

/** Characters of a Basic username counted as its key prefix (`sk_test_` and the start of the random part). */
const KEY_PREFIX_CHARS = 16;

/**
 * Failed authentication (no credential, an unknown scheme, a wrong key, token or session) is
 * counted per client address and, for secret keys, per key prefix, on a budget stricter than the
 * authenticated limit (AUTH_FAILURE_RATE_LIMIT, by default a quarter of RATE_LIMIT, per
 * RATE_LIMIT_WINDOW_MS). Once a tracker has used its budget, further failures are answered E2429
 * with Retry-After instead of 401. Counters share the rate limit's store.
 *
 * Only failures are throttled: every request is authenticated first, and a valid credential is
 * judged by its own rate limit alone (RateLimitGuard), so failures from an address (another client
 * behind the same NAT, or someone guessing) never refuse a valid key from it. A spent budget
 * therefore does not spare the key check (a checksum, then one indexed read; keys carry ~190
 * random bits, so the answers teach a guesser nothing); it bounds how many 401s a tracker gets.
 *
 * The budget is exact under concurrency: each failure is counted atomically, and one that lands
 * over the budget is answered E2429 rather than 401, so a tracker sees at most `limit` 401s per
 * window however many requests race.
 */
@Injectable()
export class AuthFailureThrottle {
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    config: ConfigService<AllConfig, true>,
    private readonly clock: Clock,
    private readonly store: RateLimitStore,
  ) {
    this.limit = config.get('app.authFailureLimit', { infer: true });
    this.windowMs = config.get('app.rateLimitWindowMs', { infer: true });
  }

  /**
   * Counts a failed authentication on every tracker of the request. Answers the E2429 to send
   * instead of the 401 when this failure went over a tracker's budget, or undefined.
   */
  async recordFailure(req: Request): Promise<AppError | undefined> {
    if (this.limit <= 0) return undefined;
    const now = this.clock.nowMs();
    let over: AppError | undefined;
    for (const tracker of this.trackers(req)) {
      const window = await this.store.hit(tracker, this.windowMs, now);
      if (window.count > this.limit && !over) over = this.tooMany(window.resetAt, now);
    }
    return over;
  }

  private tooMany(resetAt: number, now: number): AppError {
    const seconds = retryAfterSeconds(resetAt, now);
    return new AppError(Errors.E2429, `Too many failed authentication attempts; retry after ${seconds} s.`, {
      'Retry-After': seconds,
    });
  }

  private trackers(req: Request): string[] {
    const trackers = [`auth-failure:ip:${req.ip ?? 'unknown'}`];
    const match = /^basic\s+(\S+)/i.exec(req.headers.authorization ?? '');
    if (match) {
      const username = Buffer.from(match[1], 'base64').toString('utf8').split(':', 1)[0];
      if (username) trackers.push(`auth-failure:key:${username.slice(0, KEY_PREFIX_CHARS)}`);
    }
    return trackers;
  }
}
