import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  let now = 0;
  const clock = () => now;

  beforeEach(() => {
    now = 1_000;
  });

  it('shares one load between concurrent misses and keeps it for the time to live', async () => {
    const cache = new TtlCache<number>(5_000, 10, clock);
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.getOrLoad('a', load), cache.getOrLoad('a', load)])).toEqual([1, 1]);
    now += 4_999;
    expect(await cache.getOrLoad('a', load)).toBe(1);
    now += 1;
    expect(await cache.getOrLoad('a', load)).toBe(2);
  });

  it('does not keep a failed load', async () => {
    const cache = new TtlCache<number>(5_000, 10, clock);
    await expect(cache.getOrLoad('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.getOrLoad('a', async () => 7)).toBe(7);
  });

  it('forgets a deleted key and stays within its bound', async () => {
    const cache = new TtlCache<number>(5_000, 2, clock);
    cache.set('a', 1);
    cache.delete('a');
    expect(await cache.getOrLoad('a', async () => 2)).toBe(2);
    cache.set('b', 3);
    cache.set('c', 4);
    expect(cache.size).toBeLessThanOrEqual(2);
  });
});
