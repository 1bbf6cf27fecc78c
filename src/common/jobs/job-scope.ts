import type { Mode } from '../context/principal.js';

/**
 * What one run of a periodic job may touch. Production runs everything (both modes, every
 * application); tests share one database and move their own clock, so they scope a run to their
 * own applications and never expire, give up or reconcile another suite's rows.
 */
export interface JobScope {
  /** Only these applications' rows; all applications when absent. */
  applicationIds?: readonly string[];
  /** Only these modes; both when absent. */
  modes?: readonly Mode[];
}

/** Whether a row of `applicationId` is the scope's to touch. */
export function inScope(scope: JobScope, applicationId: string): boolean {
  return scope.applicationIds === undefined || scope.applicationIds.includes(applicationId);
}
