/**
 * One-time sessions for hosted flows (checkouts, bank account intents). Usage, inside a wallet
 * request after mode binding, or inside `runInMode(mode, fn, { application })`:
 *
 *   constructor(private readonly sessions: SessionsService) {}   // AuthModule is global
 *   const s = await this.sessions.issue({ purpose: 'checkout', targetId: checkout.id, ttlSeconds: 86_400 });
 *   // answer `s.token` once as `session`; keep `s.sessionId` on your record.
 *   await this.sessions.complete(s.sessionId);   // flow done: the token now fails with E1212
 *
 * Session-only endpoints: `@Auth('none') @SessionPurposes('checkout')`; the handler compares
 * `principal.session.targetId` with its target and throws E1300 when they differ.
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import type { Mode } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { newId } from '../../common/ids.js';
import { generateSecret, hashSecret } from './secrets.js';
import { SessionsRepository } from './sessions.repository.js';

export interface IssuedSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

export interface VerifiedSession {
  sessionId: string;
  applicationId: string;
  mode: Mode;
  purpose: string;
  targetId: string;
}

const MAX_TTL_SECONDS = 7 * 24 * 3600;
const TOKEN_PATTERN = /^wss_[A-Za-z0-9_-]{43}$/;

/**
 * Unlike feature services, this one reads the application and mode from the request context, not
 * from a Principal: a session is issued for the record being written, so it is bound to the mode
 * that record's schema is bound to (ModeDb's binding), and some issuers have no Principal at all
 * (a payment link's hosted page opens a checkout, and issues its session, for an anonymous browser).
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly repository: SessionsRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {}

  async issue(input: { purpose: string; targetId: string; ttlSeconds: number }): Promise<IssuedSession> {
    if (!Number.isInteger(input.ttlSeconds) || input.ttlSeconds <= 0 || input.ttlSeconds > MAX_TTL_SECONDS) {
      throw new Error(`ttlSeconds must be a whole number of seconds between 1 and ${MAX_TTL_SECONDS}`);
    }
    if (!input.purpose || !input.targetId) throw new Error('a one-time session needs a purpose and a target id');
    const token = generateSecret('wss');
    const expiresAt = new Date(this.clock.nowMs() + input.ttlSeconds * 1000);
    const sessionId = newId();
    await this.repository.insert({
      id: sessionId,
      token_hash: hashSecret(token),
      application_id: this.context.application.id,
      mode: this.context.mode,
      purpose: input.purpose,
      target_id: input.targetId,
      expires_at: expiresAt,
      completed_at: null,
      created_at: this.clock.now(),
    });
    return { token, sessionId, expiresAt };
  }

  /** Revokes the session once its flow has completed; completing twice is harmless. */
  async complete(sessionId: string): Promise<void> {
    const application = this.context.active ? this.context.optionalApplication : undefined;
    await this.repository.complete(sessionId, this.clock.now(), application?.id);
  }

  /**
   * Whether `token` is the session issued for `purpose` on `targetId`, completed or expired or
   * not: lets a hosted page keep reading its own record's status (paid, expired) after the session
   * stopped authorizing anything. Never use it to authorize a change.
   */
  async identifies(token: string, purpose: string, targetId: string): Promise<boolean> {
    if (!TOKEN_PATTERN.test(token)) return false;
    const row = await this.repository.findByHash(hashSecret(token));
    return row !== null && row.purpose === purpose && row.target_id === targetId;
  }

  /**
   * Null when the token is unknown, expired (by the service clock) or completed; `completed: true`
   * also answers a completed session that has not expired (SessionStrategy: only to send again a
   * keyed request whose work it did).
   */
  async verify(token: string, options: { completed?: boolean } = {}): Promise<VerifiedSession | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await this.repository.findByHash(hashSecret(token));
    if (!row || row.expires_at.getTime() <= this.clock.nowMs()) return null;
    if (row.completed_at !== null && options.completed !== true) return null;
    return {
      sessionId: row.id,
      applicationId: row.application_id,
      mode: row.mode,
      purpose: row.purpose,
      targetId: row.target_id,
    };
  }
}
