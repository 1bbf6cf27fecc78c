import { defineErrors } from '../../common/errors/error-catalog.js';

/**
 * Codes of the OAuth 2.0 endpoints. Each answers alongside the RFC 6749 `error` it corresponds to
 * (see OAUTH_ERROR_CODES), so a standard OAuth client and a wallet client both understand it.
 */
export const AuthErrors = defineErrors('auth', {
  E1220: {
    key: 'oauth_invalid_request',
    http_status: 400,
    message: 'The OAuth request is missing a parameter or has an invalid one.',
  },
  E1221: {
    key: 'oauth_invalid_client',
    http_status: 401,
    message: 'The OAuth client is unknown or its authentication failed.',
  },
  E1222: {
    key: 'oauth_invalid_grant',
    http_status: 400,
    message: 'The authorization code or refresh token is invalid, expired, used or revoked.',
  },
  E1223: {
    key: 'oauth_unauthorized_client',
    http_status: 400,
    message: 'The OAuth client may not use this grant type.',
  },
  E1224: { key: 'oauth_unsupported_grant_type', http_status: 400, message: 'The grant type is not supported.' },
  E1225: { key: 'oauth_invalid_scope', http_status: 400, message: 'The requested scope is invalid.' },
});

/** RFC 6749 §5.2 error names to the service's codes. */
export const OAUTH_ERROR_CODES = {
  invalid_request: AuthErrors.E1220,
  invalid_client: AuthErrors.E1221,
  invalid_grant: AuthErrors.E1222,
  unauthorized_client: AuthErrors.E1223,
  unsupported_grant_type: AuthErrors.E1224,
  invalid_scope: AuthErrors.E1225,
} as const;
