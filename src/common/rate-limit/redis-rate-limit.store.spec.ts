import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { RedisRateLimitStore } from './redis-rate-limit.store.js';

/** Against the machine's Redis (127.0.0.1:6379; `.ci/run` starts it), under a key prefix of this run. */
describe('RedisRateLimitStore', () => {
  const prefix = `wallet-test-${randomUUID()}:`;
  let store: RedisRateLimitStore;

  beforeAll(async () => {
    store = new RedisRateLimitStore('redis://127.0.0.1:6379', prefix);
    await store.onModuleInit();
  });

  afterAll(async () => {
    await store.onApplicationShutdown();
    const redis = new Redis('redis://127.0.0.1:6379');
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts concurrent hits atomically in one fixed window that Redis expires', async () => {
    const now = Date.now();
    const windows = await Promise.all(Array.from({ length: 50 }, () => store.hit('secret_key:k1', 60_000, now)));
    expect(windows.map((w) => w.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    for (const w of windows) {
      expect(w.resetAt).toBeGreaterThan(now + 55_000);
      expect(w.resetAt).toBeLessThanOrEqual(now + 60_000);
    }
    // The next hit of the window is the 51st; another key has a window of its own.
    expect(await store.hit('secret_key:k1', 60_000, now)).toMatchObject({ count: 51 });
    expect(await store.hit('secret_key:other', 60_000, now)).toMatchObject({ count: 1 });
  });

  it('fails open when Redis cannot be reached: counts in the process and warns, never throws', async () => {
    const down = new RedisRateLimitStore('redis://127.0.0.1:1', prefix);
    const warn = jest.spyOn(down['logger'], 'warn').mockImplementation(() => undefined);
    try {
      const now = Date.now();
      expect(await down.hit('secret_key:k', 1_000, now)).toEqual({ count: 1, resetAt: now + 1_000 });
      expect(await down.hit('secret_key:k', 1_000, now)).toEqual({ count: 2, resetAt: now + 1_000 });
      expect(await down.hit('secret_key:k', 1_000, now)).toEqual({ count: 3, resetAt: now + 1_000 });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toContain('rate limits are counted per process');
    } finally {
      await down.onApplicationShutdown();
      warn.mockRestore();
    }
  });
});
