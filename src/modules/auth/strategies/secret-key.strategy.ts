import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { BasicStrategy } from 'passport-http';
import type { Credential } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { AccessErrors } from '../../../common/auth/access.errors.js';
import { ApiKeysService } from '../../applications/index.js';

/** What Passport adds to a strategy while it authenticates a request. */
interface PassportOutcomes {
  success(user: unknown): void;
  fail(challenge: string, status: number): void;
  error(err: unknown): void;
  _challenge(): string;
}

/**
 * HTTP Basic with the secret or restricted key as the username and an empty password (`base64("<key>:")`); a
 * non-empty password is E1214.
 * passport-http's parser refuses an empty password (and decodes with the deprecated Buffer
 * constructor on every request), so authenticate() reads the header itself and keeps the
 * strategy's realm, challenge and Passport outcomes (success / fail / error).
 */
@Injectable()
export class SecretKeyStrategy extends PassportStrategy(BasicStrategy, 'secret-key') {
  constructor(private readonly keys: ApiKeysService) {
    super({ realm: 'wallet' });
  }

  override authenticate(req: Request): void {
    const strategy = this as unknown as PassportOutcomes;
    const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
    const decoded = /^basic$/i.test(scheme) && encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const username = colon === -1 ? decoded : decoded.slice(0, colon);
    if (!username) return strategy.fail(strategy._challenge(), 401);
    // Refused rather than ignored: a password here is a client mistake (or a key pasted in the wrong half).
    if (colon !== -1 && colon < decoded.length - 1) return strategy.error(new AppError(Errors.E1214));
    this.validate(username).then(
      (principal) => strategy.success(principal),
      (err: unknown) => strategy.error(err),
    );
  }

  async validate(username: string): Promise<Credential> {
    const verified = await this.keys.verify(username);
    if (!verified) throw new AppError(Errors.E1211);
    if (verified === 'expired') throw new AppError(AccessErrors.E1243);
    return {
      applicationId: verified.applicationId,
      mode: verified.mode,
      privilege: 'machine',
      method: 'secret_key',
      subject: verified.keyId,
      ...(verified.permissions ? { permissions: verified.permissions } : {}),
    };
  }
}
