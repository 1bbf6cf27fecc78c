/**
 * This process's attempts in flight per webhook endpoint, and the endpoints held after a failure
 * (docs/EVENTS.md "How delivery runs"). Each endpoint has `slots` attempts at most in flight at
 * once, so a slow or failing receiver ties up its own slots and no other endpoint's; an endpoint
 * whose attempt failed starts nothing more until that attempt's retry time, so a receiver coming
 * back gets what it missed in order.
 */
export class EndpointSlots {
  private readonly inFlight = new Map<string, number>();
  private readonly heldUntil = new Map<string, number>();

  constructor(readonly slots: number) {}

  /** What a claim at `now` may take: endpoints to skip (no free slot, or held), and those partly busy. */
  limits(now: number): { slots: number; busy: Map<string, number>; skip: string[] } {
    const skip: string[] = [];
    for (const [endpoint, until] of this.heldUntil) {
      if (until > now) skip.push(endpoint);
      else this.heldUntil.delete(endpoint);
    }
    const busy = new Map<string, number>();
    for (const [endpoint, count] of this.inFlight) {
      if (count >= this.slots) skip.push(endpoint);
      else busy.set(endpoint, count);
    }
    return { slots: this.slots, busy, skip };
  }

  started(endpoint: string): void {
    this.inFlight.set(endpoint, (this.inFlight.get(endpoint) ?? 0) + 1);
  }

  ended(endpoint: string): void {
    const left = (this.inFlight.get(endpoint) ?? 1) - 1;
    if (left > 0) this.inFlight.set(endpoint, left);
    else this.inFlight.delete(endpoint);
  }

  /** Starts nothing more for `endpoint` before `until` (a later failure's retry time extends it). */
  hold(endpoint: string, until: number): void {
    this.heldUntil.set(endpoint, Math.max(until, this.heldUntil.get(endpoint) ?? 0));
  }

  /** Attempts in flight to `endpoint`. */
  busy(endpoint: string): number {
    return this.inFlight.get(endpoint) ?? 0;
  }
}
