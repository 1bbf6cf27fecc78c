import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import { Injectable, Logger } from '@nestjs/common';
import type OAuth2Server from '@node-oauth/oauth2-server';
import { Clock } from '../../../common/clock.js';
import { newId } from '../../../common/ids.js';
import { generateSecret, hashSecret, sameSecretHash } from '../secrets.js';
import { OAuthRepository } from './oauth.repository.js';

/** Lifetimes from the interface contract, in seconds. */
export const LIFETIMES = { accessToken: 12 * 3600, refreshToken: 30 * 24 * 3600, authorizationCode: 10 * 60 } as const;
export const SCOPES = ['wallet'] as const;
export const GRANTS = ['authorization_code', 'refresh_token'];

type Client = OAuth2Server.Client;
type User = OAuth2Server.User;

/** What the model threads through the library between a lookup and the save that follows it. */
interface ModelUser extends User {
  id: string;
  /** Set by getAuthorizationCode: the code the tokens descend from (it is also their family id). */
  codeId?: string;
  /** Set by getRefreshToken: the pair being rotated. */
  tokenId?: string;
  familyId?: string;
}

/**
 * The storage side of @node-oauth/oauth2-server. Expiry is decided here on the service clock
 * (tests move it), and the dates handed back to the library are translated to wall-clock time so
 * its own checks agree. Reuse of a code or of a rotated refresh token revokes the whole family.
 */
@Injectable()
export class OAuthModel implements OAuth2Server.AuthorizationCodeModel, OAuth2Server.RefreshTokenModel {
  private readonly logger = new Logger('OAuth');

  constructor(
    private readonly repository: OAuthRepository,
    private readonly clock: Clock,
    private readonly audit: AuditRecorder,
  ) {}

  /**
   * The library asks with `null` to look a client up by id (authorization request), with
   * `undefined` when the token request carried no secret (allowed for public clients only) and
   * with the secret otherwise (confidential clients only).
   */
  async getClient(clientId: string, clientSecret: string | null | undefined): Promise<Client | false> {
    // Decoded once before the library (the controller's `input`): Basic credentials there, form bodies by the parser.
    if (!clientId) return false;
    const row = await this.repository.findClient(clientId);
    if (!row) return false;
    const client: Client = {
      id: row.id,
      clientId: row.client_id,
      type: row.type,
      redirectUris: row.redirect_uris,
      grants: GRANTS,
    };
    if (clientSecret === null) return client;
    if (row.type === 'public') return clientSecret === undefined || clientSecret === '' ? client : false;
    if (typeof clientSecret !== 'string' || !row.secret_hash) return false;
    return sameSecretHash(row.secret_hash, hashSecret(clientSecret)) ? client : false;
  }

  async validateScope(_user: User, _client: Client, scope?: string[]): Promise<string[] | false> {
    if (!scope || scope.length === 0) return [...SCOPES];
    return scope.every((s) => (SCOPES as readonly string[]).includes(s)) ? scope : false;
  }

  async generateAuthorizationCode(): Promise<string> {
    return generateSecret('wac');
  }

  async generateAccessToken(): Promise<string> {
    return generateSecret('wat');
  }

  async generateRefreshToken(): Promise<string> {
    return generateSecret('wrt');
  }

  async saveAuthorizationCode(
    code: Pick<
      OAuth2Server.AuthorizationCode,
      'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope' | 'codeChallenge' | 'codeChallengeMethod'
    >,
    client: Client,
    user: User,
  ): Promise<OAuth2Server.AuthorizationCode> {
    const expiresAt = this.after(LIFETIMES.authorizationCode);
    await this.repository.insertCode({
      id: newId(),
      code_hash: hashSecret(code.authorizationCode),
      client_id: client.id,
      user_id: (user as ModelUser).id,
      redirect_uri: code.redirectUri,
      scope: code.scope ?? [],
      code_challenge: code.codeChallenge ?? null,
      code_challenge_method: code.codeChallengeMethod ?? null,
      expires_at: expiresAt,
      used_at: null,
    });
    return { ...code, expiresAt: this.toWallClock(expiresAt), client, user };
  }

  async getAuthorizationCode(authorizationCode: string): Promise<OAuth2Server.AuthorizationCode | false> {
    const row = await this.repository.findCode(hashSecret(authorizationCode));
    if (!row) return false;
    if (row.used_at) {
      await this.revokeFamily(row.id, 'authorization code used twice', row.user_id);
      return false;
    }
    if (row.expires_at.getTime() <= this.clock.nowMs()) return false;
    const user: ModelUser = { id: row.user_id, codeId: row.id };
    return {
      authorizationCode,
      expiresAt: this.toWallClock(row.expires_at),
      redirectUri: row.redirect_uri,
      scope: row.scope,
      client: { id: row.client_id, grants: GRANTS },
      user,
      codeChallenge: row.code_challenge ?? undefined,
      codeChallengeMethod: row.code_challenge_method ?? undefined,
    };
  }

  async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode): Promise<boolean> {
    const codeId = (code.user as ModelUser).codeId!;
    if (await this.repository.useCode(codeId, this.clock.now())) return true;
    await this.revokeFamily(codeId, 'authorization code used twice', (code.user as ModelUser).id);
    return false;
  }

  async saveToken(token: OAuth2Server.Token, client: Client, user: User): Promise<OAuth2Server.Token> {
    const u = user as ModelUser;
    const accessExpiresAt = this.after(LIFETIMES.accessToken);
    const refreshExpiresAt = token.refreshToken ? this.after(LIFETIMES.refreshToken) : null;
    await this.repository.insertToken({
      id: newId(),
      family_id: u.familyId ?? u.codeId ?? newId(),
      code_id: u.codeId ?? null,
      client_id: client.id,
      user_id: u.id,
      access_hash: hashSecret(token.accessToken),
      access_expires_at: accessExpiresAt,
      refresh_hash: token.refreshToken ? hashSecret(token.refreshToken) : null,
      refresh_expires_at: refreshExpiresAt,
      scope: token.scope ?? [],
      rotated_at: null,
    });
    return {
      accessToken: token.accessToken,
      accessTokenExpiresAt: this.toWallClock(accessExpiresAt),
      refreshToken: token.refreshToken,
      refreshTokenExpiresAt: refreshExpiresAt ? this.toWallClock(refreshExpiresAt) : undefined,
      scope: token.scope,
      client,
      user: { id: u.id },
    };
  }

  async getRefreshToken(refreshToken: string): Promise<OAuth2Server.RefreshToken | false> {
    const row = await this.repository.findByRefreshHash(hashSecret(refreshToken));
    if (!row || row.family_revoked_at || !row.refresh_expires_at) return false;
    if (row.rotated_at) {
      await this.revokeFamily(row.family_id, 'rotated refresh token presented again', row.user_id);
      return false;
    }
    if (row.refresh_expires_at.getTime() <= this.clock.nowMs()) return false;
    const user: ModelUser = { id: row.user_id, tokenId: row.id, familyId: row.family_id };
    return {
      refreshToken,
      refreshTokenExpiresAt: this.toWallClock(row.refresh_expires_at),
      scope: row.scope,
      client: { id: row.client_id, grants: GRANTS },
      user,
    };
  }

  async revokeToken(token: OAuth2Server.RefreshToken): Promise<boolean> {
    const u = token.user as ModelUser;
    if (await this.repository.rotate(u.tokenId!, this.clock.now())) return true;
    // Lost a race with another exchange of the same refresh token: that is a reuse too.
    await this.revokeFamily(u.familyId!, 'rotated refresh token presented again', u.id);
    return false;
  }

  /** Not used: bearer tokens are checked by the bearer Passport strategy. */
  async getAccessToken(): Promise<false> {
    return false;
  }

  /** Revokes the family and audits the reuse (platform chain: a user belongs to no one application) in one transaction. */
  private async revokeFamily(familyId: string, reason: string, userId: string): Promise<void> {
    await this.repository.transaction(async (manager) => {
      await this.repository.revokeFamily(familyId, this.clock.now(), manager);
      await this.audit.record(manager, {
        applicationId: null,
        livemode: null,
        actor: { type: 'user', id: userId },
        action: reason.startsWith('authorization code') ? 'oauth.code_reuse' : 'oauth.refresh_token_reuse',
        target: { type: 'oauth_token_family', id: familyId },
        metadata: { reason, family_revoked: true },
      });
    });
    this.logger.warn({ family_id: familyId }, `revoked a token family: ${reason}`);
  }

  private after(seconds: number): Date {
    return new Date(this.clock.nowMs() + seconds * 1000);
  }

  /** The library compares expiries with `new Date()`; give it the same remaining time on the wall clock. */
  private toWallClock(at: Date): Date {
    return new Date(at.getTime() - (this.clock.nowMs() - Date.now()));
  }
}
