import { Injectable } from '@nestjs/common';

/**
 * The service's only source of "now" for business rules (expiries, lifetimes, windows). Tests move
 * it with `advance()` instead of sleeping, and `freeze()` it where a rule is checked at an exact
 * edge, so no test depends on how fast the machine answers; SQL never calls now() where a rule
 * depends on time.
 */
@Injectable()
export class Clock {
  private offsetMs = 0;
  private frozenAtMs: number | null = null;

  now(): Date {
    return new Date(this.nowMs());
  }

  nowMs(): number {
    return (this.frozenAtMs ?? Date.now()) + this.offsetMs;
  }

  /** For tests: moves time forward (or back) for everything that asks this clock. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** For tests: time stands still (it still moves with `advance`) until `thaw()` or `reset()`. */
  freeze(): void {
    this.frozenAtMs ??= Date.now();
  }

  thaw(): void {
    this.frozenAtMs = null;
  }

  reset(): void {
    this.offsetMs = 0;
    this.frozenAtMs = null;
  }
}
