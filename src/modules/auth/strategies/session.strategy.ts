import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import passport from 'passport';
import type { Credential } from '../../../common/context/principal.js';
import { IdempotencyRepository } from '../../../common/idempotency/idempotency.repository.js';
import { requestHash } from '../../../common/idempotency/idempotency.guard.js';
import { SessionsService } from '../sessions.service.js';

type Verify = (token: string, req: Request, done: (err: unknown, principal?: Credential | false) => void) => void;

/** Reads `X-Session-Token`; a missing or refused token is a plain Passport failure (the guard says E1212). */
class SessionTokenStrategy extends passport.Strategy {
  constructor(private readonly verify: Verify) {
    super();
    this.name = 'session';
  }

  override authenticate(req: Request): void {
    const token = req.headers['x-session-token'];
    if (typeof token !== 'string' || token === '') return this.fail(401);
    this.verify(token, req, (err, principal) => {
      if (err) return this.error(err as Error);
      if (!principal) return this.fail(401);
      this.success(principal);
    });
  }
}

/**
 * One-time session: privilege `none`, bound to one application, one mode and one purpose with its
 * target. A completed session (its checkout paid) authorizes nothing new, but still sends again a
 * keyed request whose work it did (same `Idempotency-Key`, same request: docs/IDEMPOTENCY.md), so
 * the page whose answer was lost in an outage gets it.
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(SessionTokenStrategy, 'session') {
  constructor(
    private readonly sessions: SessionsService,
    private readonly keys: IdempotencyRepository,
  ) {
    super();
  }

  async validate(token: string, req: Request): Promise<Credential | false> {
    const session = (await this.sessions.verify(token)) ?? (await this.resend(token, req));
    if (!session) return false;
    return {
      applicationId: session.applicationId,
      mode: session.mode,
      privilege: 'none',
      method: 'session',
      subject: session.sessionId,
      session: { purpose: session.purpose, targetId: session.targetId },
    };
  }

  private async resend(token: string, req: Request) {
    const key = req.headers['idempotency-key'];
    if (req.method !== 'POST' || typeof key !== 'string') return null;
    const session = await this.sessions.verify(token, { completed: true });
    if (!session) return null;
    const ref = { applicationId: session.applicationId, mode: session.mode, key };
    return (await this.keys.holdsWorkOf(ref, requestHash(req))) ? session : null;
  }
}
