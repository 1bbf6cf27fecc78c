import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import OAuth2Server from '@node-oauth/oauth2-server';
import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import { Clock } from '../../../common/clock.js';
import { RequestContext } from '../../../common/context/request-context.js';
import type { AllConfig } from '../../../config/app.config.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { newId } from '../../../common/ids.js';
import { UsersService, type UserResponse } from '../../users/index.js';
import { OAUTH_ERROR_CODES } from '../auth.errors.js';
import { generateSecret, hashSecret } from '../secrets.js';
import { AUTHORIZE_PARAMS, type AuthorizeParams, errorPage, loginPage } from './login-page.js';
import { LIFETIMES, OAuthModel, SCOPES } from './oauth.model.js';
import { OAuthRepository } from './oauth.repository.js';

/** What the controller writes back: the service never sees Express objects. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  html?: string;
}

export interface HttpInput {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

export interface CreatedClient {
  client_id: string;
  client_secret: string | null;
  name: string;
  type: 'confidential' | 'public';
  redirect_uris: string[];
}

/** Where the login form posts: under /oauth/, where form bodies are accepted. */
export const LOGIN_ACTION = '/oauth/authorize';
const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
};

function pickParams(source: Record<string, unknown>): AuthorizeParams {
  const params: AuthorizeParams = {};
  for (const name of AUTHORIZE_PARAMS) {
    const value = source[name];
    if (typeof value === 'string' && value !== '') params[name] = value;
  }
  return params;
}

function stringRecord(source: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(source).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/**
 * The OAuth 2.0 authorization server: authorization code with PKCE and rotating refresh tokens.
 * @node-oauth/oauth2-server does the protocol work (parameter checks, PKCE, grant handling, RFC
 * 6749 errors); OAuthModel stores, expires and revokes.
 */
@Injectable()
export class OAuthService {
  private readonly logger = new Logger('OAuth');
  private readonly server: OAuth2Server;

  constructor(
    model: OAuthModel,
    private readonly repository: OAuthRepository,
    private readonly users: UsersService,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly config: ConfigService<AllConfig, true>,
    private readonly audit: AuditRecorder,
  ) {
    this.server = new OAuth2Server({
      model,
      accessTokenLifetime: LIFETIMES.accessToken,
      refreshTokenLifetime: LIFETIMES.refreshToken,
      authorizationCodeLifetime: LIFETIMES.authorizationCode,
      allowEmptyState: false,
      alwaysIssueNewRefreshToken: true,
      // Public clients refresh without a secret; confidential ones are held to theirs by the model.
      requireClientAuthentication: { refresh_token: false },
    });
  }

  /** RFC 8414 metadata; `auth_url` is the service's PUBLIC_URL. */
  metadata() {
    const base = this.config.get('app.publicUrl', { infer: true });
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth2/auth`,
      token_endpoint: `${base}/oauth/token`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      scopes_supported: [...SCOPES],
    };
  }

  /** GET /oauth2/auth: the sign-in page, or an error (sent back to the client when its redirect URI is known). */
  async authorizationPage(query: Record<string, unknown>): Promise<HttpAnswer> {
    const params = pickParams(query);
    const checked = await this.checkAuthorizationRequest(params);
    if ('answer' in checked) return checked.answer;
    return {
      status: 200,
      headers: PAGE_HEADERS,
      html: loginPage({ action: LOGIN_ACTION, clientName: checked.clientName, params }),
    };
  }

  /** POST /oauth/authorize: checks the password, then lets the library issue the code and redirect. */
  async signIn(form: Record<string, unknown>): Promise<HttpAnswer> {
    const params = pickParams(form);
    const checked = await this.checkAuthorizationRequest(params);
    if ('answer' in checked) return checked.answer;
    const email = typeof form.email === 'string' ? form.email : '';
    const password = typeof form.password === 'string' ? form.password : '';
    let userId: string;
    try {
      userId = (await this.users.verifyLogin(email, password)).id;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const html = loginPage({
        action: LOGIN_ACTION,
        clientName: checked.clientName,
        params,
        email,
        error: err.message,
      });
      return { status: err.status, headers: PAGE_HEADERS, html };
    }
    // A security event, not a change: its own transaction on the platform chain (docs/AUDIT.md).
    await this.repository.transaction((manager) =>
      this.audit.record(manager, {
        applicationId: null,
        livemode: null,
        actor: { type: 'user', id: userId },
        action: 'user.login',
        target: { type: 'user', id: userId },
        metadata: { client_id: params.client_id ?? null },
      }),
    );
    const request = new OAuth2Server.Request({ method: 'POST', headers: {}, query: params, body: {} });
    const response = new OAuth2Server.Response({ headers: {} });
    try {
      await this.server.authorize(request, response, { authenticateHandler: { handle: () => ({ id: userId }) } });
    } catch (err) {
      if (!(err instanceof OAuth2Server.OAuthError) || !response.headers?.location) throw err;
      if (err.name === 'server_error')
        this.logger.error({ err, request_id: this.context.requestId }, 'authorization failed');
    }
    // 303: the browser follows a POST's redirect with a GET.
    return { status: 303, headers: { Location: response.headers!.location, 'Cache-Control': 'no-store' } };
  }

  /** POST /oauth/token (any supported grant) and /oauth/token/refresh (grant_type defaults to refresh_token). */
  async token(input: HttpInput, refreshOnly = false): Promise<HttpAnswer> {
    const body = { ...input.body };
    if (refreshOnly) body.grant_type ??= 'refresh_token';
    const request = new OAuth2Server.Request({
      method: input.method,
      headers: stringRecord(input.headers as Record<string, unknown>),
      query: stringRecord(input.query),
      body,
    });
    const response = new OAuth2Server.Response({ headers: {} });
    try {
      if (refreshOnly && body.grant_type !== 'refresh_token') {
        throw new OAuth2Server.UnsupportedGrantTypeError(
          'Unsupported grant type: this endpoint only accepts `refresh_token`',
        );
      }
      await this.server.token(request, response);
      const token = { ...(response.body as Record<string, unknown>), expires_in: LIFETIMES.accessToken };
      return { status: 200, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' }, body: token };
    } catch (err) {
      return this.tokenError(err);
    }
  }

  async verifyAccessToken(token: string): Promise<{ userId: string; tokenId: string } | null> {
    if (!/^wat_[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const row = await this.repository.findByAccessHash(hashSecret(token));
    if (!row || row.family_revoked_at || row.access_expires_at.getTime() <= this.clock.nowMs()) return null;
    return { userId: row.user_id, tokenId: row.id };
  }

  me(userId: string): Promise<UserResponse> {
    return this.users.profile(userId);
  }

  async createClient(input: { name: string; type: string; redirectUris: string[] }): Promise<CreatedClient> {
    if (input.type !== 'public' && input.type !== 'confidential')
      throw new AppError(Errors.E2000, 'type must be public or confidential.');
    if (input.redirectUris.length === 0) throw new AppError(Errors.E2000, 'at least one redirect URI is required.');
    for (const uri of input.redirectUris) {
      let parsed: URL;
      try {
        parsed = new URL(uri);
      } catch {
        throw new AppError(Errors.E2000, `redirect URI "${uri}" is not an absolute URL.`);
      }
      if (parsed.hash) throw new AppError(Errors.E2000, `redirect URI "${uri}" must not have a fragment.`);
    }
    const clientId = `client_${newId().replace(/-/g, '')}`;
    const secret = input.type === 'confidential' ? generateSecret('wcs') : null;
    await this.repository.insertClient({
      id: newId(),
      client_id: clientId,
      name: input.name,
      type: input.type,
      secret_hash: secret ? hashSecret(secret) : null,
      redirect_uris: input.redirectUris,
    });
    return {
      client_id: clientId,
      client_secret: secret,
      name: input.name,
      type: input.type,
      redirect_uris: input.redirectUris,
    };
  }

  /**
   * Never redirects to an unregistered URI: an unknown client or redirect URI is an error page.
   * Errors about the rest of the request go back to the client's redirect URI (RFC 6749 §4.1.2.1).
   */
  private async checkAuthorizationRequest(
    params: AuthorizeParams,
  ): Promise<{ clientName: string } | { answer: HttpAnswer }> {
    const page = (message: string): { answer: HttpAnswer } => ({
      answer: { status: 400, headers: PAGE_HEADERS, html: errorPage(message) },
    });
    if (!params.client_id) return page('The request has no client_id.');
    const client = await this.repository.findClient(params.client_id);
    if (!client) return page('The application asking you to sign in is not registered.');
    const redirectUri =
      params.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
    if (!redirectUri || !client.redirect_uris.includes(redirectUri)) {
      return page('The redirect URI is not registered for this application.');
    }
    const back = (error: string, description: string): { answer: HttpAnswer } => {
      const url = new URL(redirectUri);
      url.searchParams.set('error', error);
      url.searchParams.set('error_description', description);
      if (params.state) url.searchParams.set('state', params.state);
      return { answer: { status: 302, headers: { Location: url.toString(), 'Cache-Control': 'no-store' } } };
    };
    if (params.response_type !== 'code')
      return back('unsupported_response_type', 'Only response_type=code is supported.');
    if (!params.state) return back('invalid_request', 'Missing parameter: `state`');
    if (client.type === 'public' && (!params.code_challenge || params.code_challenge_method !== 'S256')) {
      return back('invalid_request', 'Public clients must send a PKCE code_challenge with code_challenge_method=S256.');
    }
    if (
      params.code_challenge &&
      params.code_challenge_method !== undefined &&
      params.code_challenge_method !== 'S256'
    ) {
      return back('invalid_request', 'Only code_challenge_method=S256 is supported.');
    }
    return { clientName: client.name };
  }

  /** RFC 6749 §5.2 `error`/`error_description`, with the service's error object alongside. */
  private tokenError(err: unknown): HttpAnswer {
    const oauth = err instanceof OAuth2Server.OAuthError ? err : undefined;
    const name = oauth?.name ?? 'server_error';
    const definition = OAUTH_ERROR_CODES[name as keyof typeof OAUTH_ERROR_CODES];
    if (!definition) {
      this.logger.error(
        { err: (oauth as { inner?: unknown } | undefined)?.inner ?? err, request_id: this.context.requestId },
        'token endpoint failed',
      );
    }
    const def = definition ?? Errors.E5000;
    // invalid_client is 401 when the client tried the Authorization header, else 400 (RFC 6749 §5.2).
    const status = definition ? (oauth?.code === 401 ? 401 : 400) : 500;
    const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
    if (status === 401) headers['WWW-Authenticate'] = 'Basic realm="wallet"';
    const message = definition ? (oauth?.message ?? def.message) : def.message;
    return {
      status,
      headers,
      body: {
        error: definition ? name : 'server_error',
        error_description: message,
        object: 'error',
        code: def.code,
        key: def.key,
        i18n_key: def.i18n_key,
        message,
        request_id: this.context.requestId ?? '',
      },
    };
  }
}
