import { applyDecorators, Controller, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiParam, ApiResponse, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ClsServiceManager } from 'nestjs-cls';
import type { Credential, Principal, Privilege } from '../context/principal.js';
import { AccessErrors } from '../auth/access.errors.js';
import type { ErrorDefinition } from '../errors/error-catalog.js';
import { Errors } from '../errors/error-catalog.js';
import { ErrorObjectDto } from './error-object.dto.js';

export const BASE_PATH = 'api/v1/:app/platform/wallet';

export const AUTH_PRIVILEGES = 'wallet:auth-privileges';
export const SESSION_PURPOSES = 'wallet:session-purposes';
export const REQUIRES_COUNTRY = 'wallet:requires-country';
export const MODE_FROM_CREDENTIAL = 'wallet:mode-from-credential';
export const PUBLIC_ROUTE = 'wallet:public';

/**
 * A controller under the wallet base path `/api/v1/{app}/platform/wallet/<path>`. X-Country is
 * sent on every wallet endpoint but the error catalog, so it is required unless `country: false`.
 */
export function WalletController(path: string, options: { tag?: string; country?: boolean } = {}) {
  return applyDecorators(
    Controller(path ? `${BASE_PATH}/${path}` : BASE_PATH),
    ApiTags(options.tag ?? path.split('/')[0]),
    ApiParam({ name: 'app', description: 'The application slug.', example: 'demo' }),
    ...(options.country === false ? [] : [RequiresCountry()]),
  );
}

/** The response documenting `definitions` (all of one HTTP status): the error object with one example per code. */
export function errorContent(definitions: ErrorDefinition[]) {
  return {
    description: definitions.map((d) => `${d.code} ${d.key}: ${d.message}`).join('\n\n'),
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(ErrorObjectDto) },
        examples: Object.fromEntries(
          definitions.map((d) => [
            d.code,
            {
              value: {
                object: 'error',
                code: d.code,
                key: d.key,
                i18n_key: d.i18n_key,
                message: d.message,
                doc_url: `http://localhost:3000/errors/${d.code}`,
                request_id: 'req_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b',
              },
            },
          ]),
        ),
      },
    },
  };
}

/** Documents catalog errors as responses, grouped by HTTP status. */
export function ApiErrors(...definitions: ErrorDefinition[]) {
  const byStatus = new Map<number, ErrorDefinition[]>();
  for (const d of definitions) byStatus.set(d.http_status, [...(byStatus.get(d.http_status) ?? []), d]);
  const decorators = [...byStatus.entries()].map(([status, defs]) => ApiResponse({ status, ...errorContent(defs) }));
  return applyDecorators(ApiExtraModels(ErrorObjectDto), ...decorators);
}

const SECURITY_BY_PRIVILEGE: Record<Privilege, string> = {
  machine: 'secret_key',
  user: 'bearer',
  superuser: 'bearer',
  none: 'session',
};

/**
 * Which privileges may call the endpoint (decisions.md's matrix). Sets the guard metadata and the
 * OpenAPI security entries together, so the two cannot drift.
 */
export function Auth(...privileges: Privilege[]) {
  const schemes = [...new Set(privileges.map((p) => SECURITY_BY_PRIVILEGE[p]))];
  return applyDecorators(
    SetMetadata(AUTH_PRIVILEGES, privileges),
    ...schemes.map((s) => ApiSecurity(s)),
    ApiHeader({
      name: 'X-Test-Mode',
      required: false,
      description: '`true` selects test data (schema wallet_test); `false` or omitted selects live data.',
      schema: { type: 'string', enum: ['true', 'false'] },
    }),
    ApiErrors(
      Errors.E1200,
      ...(schemes.includes('secret_key') ? [Errors.E1211, AccessErrors.E1243, AccessErrors.E1240] : []),
      ...(schemes.includes('bearer') ? [Errors.E1210, AccessErrors.E1241, AccessErrors.E1244] : []),
      ...(schemes.includes('session') ? [Errors.E1212] : []),
      Errors.E1213,
      Errors.E1300,
      Errors.E2429,
      Errors.E3001,
      Errors.E3004,
    ),
  );
}

/** Endpoints callable with a one-time session name the session purposes they accept. */
export const SessionPurposes = (...purposes: string[]) => SetMetadata(SESSION_PURPOSES, purposes);

/** The endpoint needs X-Country, validated against the application's countries. */
export function RequiresCountry() {
  return applyDecorators(
    SetMetadata(REQUIRES_COUNTRY, true),
    ApiHeader({ name: 'X-Country', required: true, description: 'ISO 3166-1 alpha-2 country code.', example: 'TH' }),
    ApiErrors(Errors.E3002, Errors.E3003),
  );
}

/** The endpoint has no X-Test-Mode in the contract: the mode comes from the credential (POST /checkouts). */
export const ModeFromCredential = () => SetMetadata(MODE_FROM_CREDENTIAL, true);

/** Outside the wallet pipeline: no application, no authentication (health, docs, hosted page shells). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The request's one identity (see `Principal`); throws if the auth guard did not bind one to a wallet route. */
export const CurrentPrincipal = createParamDecorator((_: unknown, _ctx: ExecutionContext): Principal => {
  const principal = ClsServiceManager.getClsService().get<Principal | undefined>('principal');
  if (!principal) throw new Error('CurrentPrincipal used on a route the auth guard did not bind a principal for');
  return principal;
});

/** The proven credential, for routes outside the wallet base path (e.g. /oauth/me); throws if the guard did not run. */
export const CurrentCredential = createParamDecorator((_: unknown, _ctx: ExecutionContext): Credential => {
  const credential = ClsServiceManager.getClsService().get<Credential | undefined>('credential');
  if (!credential) throw new Error('CurrentCredential used on a route the auth guard did not run for');
  return credential;
});
