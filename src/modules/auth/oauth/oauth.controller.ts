import { Get, HttpCode, Post, Query, Req, Res, Controller } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExcludeEndpoint,
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiProperty,
  ApiPropertyOptional,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Credential } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, BASE_PATH, CurrentCredential, Public } from '../../../common/http/decorators.js';
import { unsafeText } from '../../../common/http/validation.js';
import { ApiOAuthErrors } from './api-oauth-errors.js';
import { type HttpAnswer, LOGIN_ACTION, OAuthService } from './oauth.service.js';

class TokenResponseDto {
  @ApiProperty({ example: 'wat_3q2-7wEjWQ3Vd0aQ3_Q1C3f9m8G7Zr7fYkq0Xb2cR1s' }) access_token: string;
  @ApiProperty({ example: 'Bearer' }) token_type: string;
  @ApiProperty({ example: 43200, description: 'Seconds: access tokens live 12 hours.' }) expires_in: number;
  @ApiProperty({
    example: 'wrt_Qm1b2Xc3...',
    description: 'Lives 30 days; rotated on every refresh: store the new one.',
  })
  refresh_token: string;
  @ApiProperty({ example: 'wallet' }) scope: string;
}

class TokenRequestDto {
  @ApiProperty({ enum: ['authorization_code', 'refresh_token'] }) grant_type: string;
  @ApiPropertyOptional({ description: 'authorization_code: the code from the callback.' }) code?: string;
  @ApiPropertyOptional({ description: 'authorization_code: the redirect URI of the authorization request.' })
  redirect_uri?: string;
  @ApiPropertyOptional({ description: 'authorization_code: the PKCE verifier (S256).' }) code_verifier?: string;
  @ApiPropertyOptional({ description: 'refresh_token: the current refresh token.' }) refresh_token?: string;
  @ApiProperty({ description: 'Or HTTP Basic client authentication.' }) client_id: string;
  @ApiPropertyOptional({ description: 'Confidential clients only (or HTTP Basic).' }) client_secret?: string;
  @ApiPropertyOptional({ example: 'wallet' }) scope?: string;
}

class MembershipDto {
  @ApiProperty({ example: 'membership' }) object: string;
  @ApiProperty({ example: { id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', slug: 'demo', name: 'Demo' } }) application: {
    id: string;
    slug: string;
    name: string;
  };
  @ApiProperty({ enum: ['owner', 'admin', 'developer', 'viewer'] }) role: string;
}

class UserDto {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'user' }) object: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
  @ApiProperty() is_superuser: boolean;
  @ApiProperty({ type: [MembershipDto] }) memberships: MembershipDto[];
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

function send(res: Response, answer: HttpAnswer): void {
  res.status(answer.status).set(answer.headers);
  if (answer.html !== undefined) res.send(answer.html);
  else if (answer.body !== undefined) res.json(answer.body);
  else res.end();
}

/** A form-encoded value decoded once, or undefined when it is not valid percent-encoding or unsafe text. */
function formDecode(value: string): string | undefined {
  try {
    const decoded = decodeURIComponent(value.replace(/\+/g, ' '));
    return unsafeText(decoded) ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/**
 * HTTP Basic client credentials are form-urlencoded before base64 (RFC 6749 §2.3.1), which the
 * library does not undo. They are decoded here, once, and handed on re-encoded without it, so the
 * model sees client ids decoded exactly once whichever way they came (the form body's are
 * already decoded by the body parser). Credentials that do not decode become an empty client id:
 * `invalid_client`.
 */
function decodeBasicClient(authorization: string | undefined): string | undefined {
  const match = /^basic\s+(\S*)$/i.exec(authorization ?? '');
  if (!match) return authorization;
  const raw = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = raw.indexOf(':');
  const id = formDecode(colon === -1 ? raw : raw.slice(0, colon));
  const secret = colon === -1 ? '' : formDecode(raw.slice(colon + 1));
  const usable = id !== undefined && secret !== undefined && !id.includes(':');
  return `Basic ${Buffer.from(usable ? `${id}:${secret}` : ':').toString('base64')}`;
}

const input = (req: Request) => ({
  method: req.method,
  headers: { ...req.headers, authorization: decodeBasicClient(req.headers.authorization) },
  query: req.query,
  body: (req.body ?? {}) as Record<string, unknown>,
});

/**
 * The OAuth 2.0 authorization server. The authorization endpoint `/oauth2/auth` is at the root of
 * `auth_url` (the service's PUBLIC_URL); the token and profile endpoints answer both at the root
 * (`/oauth/...`) and under the wallet base path (`/api/v1/{app}/platform/wallet/oauth/...`).
 */
@ApiTags('oauth')
@Controller()
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @Get('.well-known/oauth-authorization-server')
  @Public()
  @ApiOperation({
    summary: 'Authorization server metadata (RFC 8414)',
    description:
      'Where the authorization, token and refresh endpoints are, and which grants and PKCE methods they take.',
  })
  @ApiOkResponse({
    schema: { type: 'object', additionalProperties: true, example: { issuer: 'http://localhost:3000' } },
  })
  metadata() {
    return this.oauth.metadata();
  }

  @Get('oauth2/auth')
  @Public()
  @ApiOperation({
    summary: 'Authorization endpoint (sign-in page)',
    description:
      'Authorization code flow; PKCE with S256 is required for public clients. Shows a sign-in page, then redirects to the registered redirect URI with `code` and `state`.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The sign-in page.', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiBadRequestResponse({
    description: 'An unknown client or redirect URI: an HTML error page, never a redirect (RFC 6749 4.1.2.1).',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiQuery({ name: 'response_type', enum: ['code'] })
  @ApiQuery({ name: 'client_id', type: String })
  @ApiQuery({
    name: 'redirect_uri',
    type: String,
    required: false,
    description: "One of the client's registered URIs (optional when it has only one).",
  })
  @ApiQuery({ name: 'state', type: String })
  @ApiQuery({ name: 'scope', type: String, required: false, example: 'wallet' })
  @ApiQuery({
    name: 'code_challenge',
    type: String,
    required: false,
    description: 'PKCE; required for public clients.',
  })
  @ApiQuery({ name: 'code_challenge_method', enum: ['S256'], required: false })
  async authorize(@Query() query: Record<string, unknown>, @Res() res: Response) {
    send(res, await this.oauth.authorizationPage(query));
  }

  @Post(LOGIN_ACTION.slice(1))
  @Public()
  @ApiExcludeEndpoint()
  async signIn(@Req() req: Request, @Res() res: Response) {
    send(res, await this.oauth.signIn((req.body ?? {}) as Record<string, unknown>));
  }

  @Post(['oauth/token', `${BASE_PATH}/oauth/token`])
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange an authorization code (or a refresh token) for tokens',
    description: 'RFC 6749 §4.1.3 / §6, form-encoded.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestDto })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiOAuthErrors()
  async token(@Req() req: Request, @Res() res: Response) {
    send(res, await this.oauth.token(input(req)));
  }

  @Post(['oauth/token/refresh', `${BASE_PATH}/oauth/token/refresh`])
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Refresh: a new access and refresh token',
    description:
      'The refresh token is rotated on every use. Presenting a rotated one revokes the whole token family, access tokens included. `grant_type` defaults to `refresh_token`.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestDto })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiOAuthErrors()
  async refresh(@Req() req: Request, @Res() res: Response) {
    send(res, await this.oauth.token(input(req), true));
  }

  @Get(['oauth/me', `${BASE_PATH}/oauth/me`])
  @Auth('user', 'superuser')
  @ApiOperation({
    summary: 'The signed-in user',
    description: 'Under the base path the user must be a member of `{app}` (or a superuser).',
  })
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(Errors.E1210)
  me(@CurrentCredential() credential: Credential) {
    return this.oauth.me(credential.subject);
  }
}
