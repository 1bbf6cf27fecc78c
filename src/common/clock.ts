import { Injectable } from '@nestjs/common';

/**
 * The service's only source of "now" for business rules (expiries, lifetimes, windows). Tests move
 * it with `advance()` instead of sleeping; SQL never calls now() where a rule depends on time.
 */
@Injectable()
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  /** For tests: moves time forward (or back) for everything that asks this clock. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
