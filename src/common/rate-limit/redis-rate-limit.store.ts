import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { InMemoryRateLimitStore, RateLimitStore, type RateLimitWindow } from './rate-limit.store.js';

/**
 * One fixed window per key, atomically: the first hit of a window creates the counter with the
 * window's expiry, later hits only increment it. Answers the count and the milliseconds left.
 */
const HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

const WARN_EVERY_MS = 10_000;

/**
 * Rate-limit counters in Redis (REDIS_URL), shared by every replica: a Lua script does INCR and
 * PEXPIRE in one atomic step, so concurrent hits on different replicas share one window and its
 * reset time comes from Redis, not from each process's clock.
 *
 * Fails open: when Redis does not answer (down, unreachable, slow beyond COMMAND_TIMEOUT_MS) the
 * hit is counted in this process instead (the in-process store), with a warning logged at most
 * every 10 s. A Redis outage thus weakens the limit to per-replica counting; it never fails a request.
 */
export class RedisRateLimitStore extends RateLimitStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly fallback = new InMemoryRateLimitStore();
  private readonly redis: Redis;
  private lastWarning = 0;

  /** `commandTimeoutMs` (REDIS_TIMEOUT_MS, default 250): how long a hit waits for Redis before failing open. */
  constructor(url: string, keyPrefix: string, commandTimeoutMs = 250) {
    super();
    this.redis = new Redis(url, {
      keyPrefix: `${keyPrefix}rate:`,
      // Fail fast while disconnected (no queue of waiting commands); keep reconnecting in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    // Connection errors are reported by the failing commands (rate-limited); without a listener ioredis logs each one.
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('walletRateHit', { numberOfKeys: 1, lua: HIT });
  }

  async hit(key: string, windowMs: number, now: number): Promise<RateLimitWindow> {
    try {
      const [count, ttl] = (await this.command('walletRateHit', key, windowMs)) as [number, number];
      return { count, resetAt: now + ttl };
    } catch (err) {
      this.warn(err);
      return this.fallback.hit(key, windowMs, now);
    }
  }

  /** Waits (up to 2 s) for the first connection, so the first requests count in Redis; boots anyway without it. */
  async onModuleInit(): Promise<void> {
    if (this.redis.status === 'ready') return;
    const connected = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 2_000);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!connected) this.warn(new Error('no connection within 2 s at start'));
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
  }

  private command(name: string, ...args: Array<string | number>): Promise<unknown> {
    return (this.redis as unknown as Record<string, (...a: Array<string | number>) => Promise<unknown>>)[name](...args);
  }

  private warn(err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    const reason = err instanceof Error ? err.message : String(err);
    this.logger.warn(`Redis unavailable (${reason}); rate limits are counted per process until it answers again`);
  }
}
