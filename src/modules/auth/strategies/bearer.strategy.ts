import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Credential } from '../../../common/context/principal.js';
import { RequestContext } from '../../../common/context/request-context.js';
import { UsersService } from '../../users/index.js';
import { OAuthService } from '../oauth/oauth.service.js';

/**
 * OAuth 2.0 access token (`Authorization: Bearer`). A superuser gets `superuser` on every
 * application; anyone else gets `user`, bound to the application in the path when they are a
 * member of it (the guard refuses a non-member with E1300), with the member's role (which the guard
 * checks against permissions.ts). Invalid, expired or revoked: E1210.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    private readonly oauth: OAuthService,
    private readonly users: UsersService,
    private readonly context: RequestContext,
  ) {
    super();
  }

  async validate(token: string): Promise<Credential | false> {
    const verified = await this.oauth.verifyAccessToken(token);
    if (!verified) return false;
    const user = await this.users.findById(verified.userId);
    if (!user) return false;
    const base = { mode: null, method: 'bearer' as const, subject: user.id };
    if (user.is_superuser) return { ...base, applicationId: null, privilege: 'superuser' };
    const application = this.context.active ? this.context.optionalApplication : undefined;
    const role = application ? await this.users.roleIn(user.id, application.id) : null;
    if (!role || !application) return { ...base, applicationId: null, privilege: 'user' };
    return { ...base, applicationId: application.id, privilege: 'user', role };
  }
}
