import type { EntityManager } from 'typeorm';
import type { AuditAction } from './audit-actions.js';

/** Who did it. Outside a request the caller names it (`cli`, `system`); in a request it comes from the principal. */
export interface AuditActor {
  type: 'secret_key' | 'user' | 'session' | 'cli' | 'system' | 'anonymous';
  /** Key id, user id, session id, operator name or job name; null when unknown (a failed authentication). */
  id: string | null;
}

export interface AuditEntry {
  /** The application whose chain holds the row; null for the platform's own chain (logins, token reuse). */
  applicationId: string | null;
  /** The mode the change was made in; null when it has none (a role, a login). Default: the bound mode, if any. */
  livemode?: boolean | null;
  /** What happened, `<object>.<verb>` (`api_key.created`, `webhook_endpoint.secret_rotated`, `charge.succeeded`). */
  action: AuditAction;
  target: { type: string; id: string | null };
  /** Default: the principal of the current request, else `system`. */
  actor?: AuditActor;
  /** Configuration objects: the fields before and after (secrets are removed by the recorder). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Anything else worth keeping (counts, reasons); secrets are removed by the recorder. */
  metadata?: Record<string, unknown>;
}

/** A failed authentication, for the per-minute burst rows (never a row per attempt). */
export interface AuthFailure {
  applicationId: string | null;
  clientAddress: string;
  /** The first characters of a presented secret key (its public prefix), or the scheme tried. */
  credential: string;
}

/**
 * The port every module audits through (the audit module implements it, a global provider), so any
 * feature writes its audit rows without importing that module. `record` writes in the caller's
 * transaction (`manager`): no change without its audit row and no audit row without its change.
 */
export abstract class AuditRecorder {
  abstract record(manager: EntityManager, entry: AuditEntry): Promise<void>;
  /** Counts a failed authentication in memory; a job writes one row per (address, credential, minute). */
  abstract noteAuthFailure(failure: AuthFailure): void;
}
