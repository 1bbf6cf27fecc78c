import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import passport from 'passport';
import type { Credential } from '../../../common/context/principal.js';
import { SessionsService } from '../sessions.service.js';

type Verify = (token: string, done: (err: unknown, principal?: Credential | false) => void) => void;

/** Reads `X-Session-Token`; a missing or refused token is a plain Passport failure (the guard says E1212). */
class SessionTokenStrategy extends passport.Strategy {
  constructor(private readonly verify: Verify) {
    super();
    this.name = 'session';
  }

  override authenticate(req: Request): void {
    const token = req.headers['x-session-token'];
    if (typeof token !== 'string' || token === '') return this.fail(401);
    this.verify(token, (err, principal) => {
      if (err) return this.error(err as Error);
      if (!principal) return this.fail(401);
      this.success(principal);
    });
  }
}

/** One-time session: privilege `none`, bound to one application, one mode and one purpose with its target. */
@Injectable()
export class SessionStrategy extends PassportStrategy(SessionTokenStrategy, 'session') {
  constructor(private readonly sessions: SessionsService) {
    super();
  }

  async validate(token: string): Promise<Credential | false> {
    const session = await this.sessions.verify(token);
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
}
