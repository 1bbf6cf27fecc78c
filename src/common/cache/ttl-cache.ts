/**
 * A bounded, single-flight cache with a time to live: concurrent misses for one key share one load
 * (a batch of events, or every connection when an entry expires, sends one query, not many), and a
 * load that fails is not kept. `now` is injectable so tests move a clock instead of sleeping.
 * Per process: a change made on another replica is seen after at most `ttlMs` unless the owner
 * deletes the key (see {@link CacheInvalidation} in ./invalidation.ts, which does so on every replica).
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The cached value for `key`, or the result of `load()` kept for the time to live. Not `async`:
   * a hit hands back the stored promise itself (no wrapper promise on the hot path).
   */
  getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (this.entries.size >= this.maxEntries) this.evictExpired(now);
    const value = load();
    const entry = { value, until: now + this.ttlMs };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Keeps `value` for `key` for the time to live. */
  set(key: string, value: V): void {
    const now = this.now();
    if (this.entries.size >= this.maxEntries) this.evictExpired(now);
    this.entries.set(key, { value: Promise.resolve(value), until: now + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private evictExpired(now: number): void {
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
  }
}
