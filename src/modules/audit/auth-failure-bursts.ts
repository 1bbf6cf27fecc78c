import { Injectable } from '@nestjs/common';
import type { AuthFailure } from '../../common/audit/audit-recorder.js';

/** One minute: failures are counted per (application, client address, credential prefix, minute). */
export const BURST_WINDOW_MS = 60_000;
/** Fewer failures than this in a window is noise (a typo), not a burst: no row. */
export const BURST_THRESHOLD = 5;
/** Distinct windows kept in memory; beyond it, failures count in one overflow window per minute. */
const MAX_WINDOWS = 10_000;

export interface FailureWindow {
  applicationId: string | null;
  clientAddress: string;
  credential: string;
  windowStart: number;
  count: number;
}

/**
 * Failed authentications counted in memory, never a row per attempt (a guesser would otherwise
 * write to the audit log at the rate of its requests). AuditBurstJob writes one row per window
 * that reached BURST_THRESHOLD, once the minute is over. Bounded: past MAX_WINDOWS distinct keys,
 * failures land in an `(overflow)` window. A process that dies loses its open windows (at most a
 * minute of counts); the throttle's own counters (AuthFailureThrottle) still refuse the guesser.
 */
@Injectable()
export class AuthFailureBursts {
  private windows = new Map<string, FailureWindow>();

  note(failure: AuthFailure, nowMs: number): void {
    const windowStart = nowMs - (nowMs % BURST_WINDOW_MS);
    let key = `${windowStart}|${failure.applicationId ?? ''}|${failure.clientAddress}|${failure.credential}`;
    let window = this.windows.get(key);
    if (!window && this.windows.size >= MAX_WINDOWS) {
      key = `${windowStart}|overflow`;
      window = this.windows.get(key);
      failure = { applicationId: null, clientAddress: '(overflow)', credential: '(overflow)' };
    }
    if (!window) {
      window = { ...failure, windowStart, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
  }

  /** Takes the windows that ended before `nowMs` and reached the threshold; drops the rest of the ended ones. */
  takeEnded(nowMs: number): FailureWindow[] {
    const ended: FailureWindow[] = [];
    for (const [key, window] of this.windows) {
      if (window.windowStart + BURST_WINDOW_MS > nowMs) continue;
      this.windows.delete(key);
      if (window.count >= BURST_THRESHOLD) ended.push(window);
    }
    return ended;
  }
}
