/**
 * The error catalog: the single source of truth for every code the service can return.
 * Core groups live here; a feature with codes of its own declares them in its `<feature>.errors.ts`
 * with `defineErrors`, which registers them here when the module is loaded. A code can be
 * registered once only, and `GET /errors/catalog` lists exactly this registry.
 *
 * Groups: E1xxx auth, E2xxx request validation, E3xxx tenancy (app, country, mode),
 * E4xxx not found / conflict, E5xxx internal and dependency failures, E6xxx payouts,
 * E7xxx collection, E8xxx metering, E9xxx ledger and disputes.
 */
import { ownsCode, type ErrorOwner } from './error-ranges.js';

export type Severity = 'info' | 'warning' | 'error' | 'critical';

export interface ErrorDefinition {
  /** `E` followed by four digits, e.g. `E1200`. */
  code: string;
  key: string;
  i18n_key: string;
  message: string;
  http_status: number;
  severity: Severity;
}

type Spec = Omit<ErrorDefinition, 'code' | 'i18n_key' | 'severity'> & { severity?: Severity };

const registry = new Map<string, ErrorDefinition>();

const GROUPS: Record<string, string> = {
  '1': 'auth',
  '2': 'request',
  '3': 'tenancy',
  '4': 'resource',
  '5': 'internal',
  '6': 'payouts',
  '7': 'collection',
  '8': 'metering',
  '9': 'ledger',
};

/** Registers `owner`'s codes (each inside its ranges in error-ranges.ts) in the one catalog. */
export function defineErrors<K extends string>(owner: ErrorOwner, specs: Record<K, Spec>): Record<K, ErrorDefinition> {
  const out = {} as Record<K, ErrorDefinition>;
  for (const code of Object.keys(specs) as K[]) {
    if (!/^E[1-9]\d{3}$/.test(code)) throw new Error(`error code ${code} is not E followed by four digits`);
    if (!ownsCode(owner, code))
      throw new Error(`error code ${code} is outside the ranges of ${owner} (error-ranges.ts)`);
    if (registry.has(code)) throw new Error(`error code ${code} is defined twice`);
    const spec = specs[code];
    const definition: ErrorDefinition = {
      code,
      key: spec.key,
      i18n_key: `errors.${GROUPS[code[1]]}.${spec.key}`,
      message: spec.message,
      http_status: spec.http_status,
      severity: spec.severity ?? (spec.http_status >= 500 ? 'error' : 'warning'),
    };
    registry.set(code, definition);
    out[code] = definition;
  }
  return out;
}

export function catalogEntries(): ErrorDefinition[] {
  return [...registry.values()].sort((a, b) => a.code.localeCompare(b.code));
}

export function findError(code: string): ErrorDefinition | undefined {
  return registry.get(code);
}

export const Errors = defineErrors('core', {
  // E1xxx authentication and authorization
  E1200: {
    key: 'authentication_required',
    http_status: 401,
    message: 'This endpoint does not accept this kind of credential.',
  },
  E1210: { key: 'invalid_bearer_token', http_status: 401, message: 'The bearer token is invalid, expired or revoked.' },
  E1211: { key: 'invalid_secret_key', http_status: 401, message: 'The secret key is invalid or inactive.' },
  E1212: {
    key: 'invalid_session',
    http_status: 401,
    message: 'The one-time session is invalid, expired or already used.',
  },
  E1213: {
    key: 'missing_authentication',
    http_status: 401,
    message: 'No Authorization or X-Session-Token header was sent.',
  },
  E1214: {
    key: 'secret_key_password_not_allowed',
    http_status: 401,
    message: 'A secret key is sent as the Basic username with an empty password; this request sent a password.',
  },
  E1300: { key: 'insufficient_permissions', http_status: 403, message: 'The credential may not perform this request.' },
  E1303: { key: 'kyc_required', http_status: 403, message: 'The customer must complete KYC verification first.' },
  E1304: {
    key: 'kyb_required',
    http_status: 403,
    message: 'The connected account must complete KYB verification first.',
  },

  // E2xxx request validation
  E2000: { key: 'invalid_request', http_status: 400, message: 'The request is invalid.' },
  E2001: { key: 'malformed_json', http_status: 400, message: 'The request body is not valid JSON.' },
  E2002: {
    key: 'unsupported_media_type',
    http_status: 415,
    message: 'Request bodies must be sent as application/json.',
  },
  E2003: {
    key: 'payload_too_large',
    http_status: 413,
    message: 'The request body is larger than the service accepts.',
  },
  E2004: { key: 'invalid_query_parameter', http_status: 400, message: 'A query parameter is invalid.' },
  E2005: { key: 'invalid_header', http_status: 400, message: 'A request header is invalid.' },
  E2006: {
    key: 'idempotency_key_reused',
    http_status: 400,
    message: 'This Idempotency-Key was used with a different request.',
  },
  E2007: {
    key: 'idempotency_request_in_progress',
    http_status: 409,
    message: 'A request with this Idempotency-Key is still being processed.',
  },
  E2008: {
    key: 'request_header_too_large',
    http_status: 431,
    message: 'The request headers or URL are larger than the service accepts (16 KB).',
  },
  E2009: {
    key: 'card_number_not_accepted',
    http_status: 400,
    message:
      'The request carries what looks like a card number; card data is tokenized in the browser, never sent to this API.',
  },
  E2429: { key: 'rate_limited', http_status: 429, message: 'Too many requests; retry after the time in Retry-After.' },

  // E3xxx tenancy: application, country, mode
  E3001: { key: 'application_not_found', http_status: 404, message: 'No application has this slug.' },
  E3002: { key: 'country_required', http_status: 400, message: 'The X-Country header is required on this endpoint.' },
  E3003: { key: 'country_not_enabled', http_status: 400, message: 'The application is not enabled for this country.' },
  E3004: { key: 'invalid_test_mode', http_status: 400, message: 'X-Test-Mode must be "true" or "false".' },

  // E4xxx not found and conflicts
  E4004: { key: 'resource_not_found', http_status: 404, message: 'No such resource.' },
  E4040: { key: 'route_not_found', http_status: 404, message: 'No endpoint has this method and path.' },
  E4090: {
    key: 'conflict',
    http_status: 409,
    message: 'The request conflicts with the current state of the resource.',
  },

  // E5xxx internal and dependency failures
  E5000: {
    key: 'internal_error',
    http_status: 500,
    message: 'Something went wrong on our side; it has been logged.',
    severity: 'critical',
  },
  E5001: {
    key: 'database_unavailable',
    http_status: 503,
    message: 'The database is not reachable right now.',
    severity: 'critical',
  },
  E5002: { key: 'provider_unavailable', http_status: 502, message: 'A payment provider did not answer as expected.' },
  E5003: {
    key: 'no_live_provider',
    http_status: 503,
    message: 'No live provider is configured for this country; live mode never uses a sandbox.',
  },

  // E6xxx payouts (E6422 is fixed by the interface contract)
  E6422: {
    key: 'customer_id_not_allowed',
    http_status: 400,
    message: 'customer_id cannot be sent when creating a bank account.',
  },
});
