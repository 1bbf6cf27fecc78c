/**
 * This process's attempts in flight per webhook endpoint (docs/EVENTS.md "How delivery runs").
 * Each endpoint has `slots` attempts at most in flight at once, so a slow or failing receiver ties
 * up its own slots and no other endpoint's. An endpoint whose attempt just failed starts nothing
 * more until that failure is recorded, which holds its waiting deliveries until the retry
 * (`WebhooksRepository.holdDue`), so a receiver coming back gets them in order.
 */
export class EndpointSlots {
  private readonly inFlight = new Map<string, number>();
  private readonly failing = new Map<string, number>();

  /** Free slots an endpoint needs before a freed slot asks for a claim (a quarter of its slots, at least 1). */
  readonly refillAt: number;

  constructor(readonly slots: number) {
    this.refillAt = Math.max(1, Math.floor(slots / 4));
  }

  /** What a claim may take: endpoints to skip (no free slot, or a failure being recorded), and those partly busy. */
  limits(): { slots: number; busy: Map<string, number>; skip: string[] } {
    const skip = [...this.failing.keys()];
    const busy = new Map<string, number>();
    for (const [endpoint, count] of this.inFlight) {
      if (count >= this.slots) skip.push(endpoint);
      else busy.set(endpoint, count);
    }
    return { slots: this.slots, busy, skip };
  }

  started(endpoint: string): void {
    add(this.inFlight, endpoint, 1);
  }

  /**
   * An attempt to `endpoint` ended; answers whether the endpoint now has enough free slots
   * ({@link refillAt}) for a claim to be worth it: slots are refilled in chunks, not one by one.
   */
  ended(endpoint: string): boolean {
    add(this.inFlight, endpoint, -1);
    return this.slots - (this.inFlight.get(endpoint) ?? 0) >= this.refillAt;
  }

  /** An attempt to `endpoint` failed: nothing more starts there until {@link recorded}. */
  failed(endpoint: string): void {
    add(this.failing, endpoint, 1);
  }

  recorded(endpoint: string): void {
    add(this.failing, endpoint, -1);
  }
}

function add(counts: Map<string, number>, key: string, by: number): void {
  const count = (counts.get(key) ?? 0) + by;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}
