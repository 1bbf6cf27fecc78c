import { Injectable } from '@nestjs/common';

/** What a shutdown drained, for its one log line. */
export interface DrainReport {
  /** Requests that were in flight when draining began or arrived on open connections after, and completed. */
  requestsCompleted: number;
  /** Requests still running when the grace period ran out (their connections were cut). */
  requestsCut: number;
  /** Client connections closed while draining (idle ones at once, busy ones after their response). */
  connectionsClosed: number;
  /** Background jobs stopped (each after its current batch). */
  jobsStopped: number;
}

/**
 * Whether this process is shutting down. Set once, on SIGTERM/SIGINT (main.ts) or when the
 * application closes; readiness answers 503 from then on, background jobs start no new batch and
 * the HTTP drain (HttpDrain) fills in the report.
 */
@Injectable()
export class Draining {
  private startedAt: number | undefined;
  readonly report: DrainReport = { requestsCompleted: 0, requestsCut: 0, connectionsClosed: 0, jobsStopped: 0 };

  get active(): boolean {
    return this.startedAt !== undefined;
  }

  private readonly startListeners: Array<() => void> = [];

  /** Idempotent: the first call starts the drain clock and runs the `onStart` listeners at once. */
  markDraining(): void {
    if (this.startedAt !== undefined) return;
    this.startedAt = performance.now();
    for (const listener of this.startListeners) listener();
  }

  /** Runs `listener` the moment draining starts (at once if it has), before any later response. */
  onStart(listener: () => void): void {
    if (this.active) listener();
    else this.startListeners.push(listener);
  }

  /** Milliseconds since draining began (0 when it has not). */
  elapsedMs(): number {
    return this.startedAt === undefined ? 0 : Math.round(performance.now() - this.startedAt);
  }

  /** The shutdown's log line. */
  summary(): string {
    const r = this.report;
    return (
      `drained in ${this.elapsedMs()} ms: ${r.requestsCompleted} in-flight requests completed` +
      (r.requestsCut > 0 ? `, ${r.requestsCut} cut at the grace period` : '') +
      `, ${r.connectionsClosed} connections closed, ${r.jobsStopped} background jobs stopped, pools closed`
    );
  }
}
