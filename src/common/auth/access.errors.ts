import { defineErrors } from '../errors/error-catalog.js';

/** Codes of restricted keys and roles (docs/SECURITY.md). Refusals carry `params` naming what would be allowed. */
export const AccessErrors = defineErrors('access', {
  E1240: {
    key: 'restricted_key_permission_required',
    http_status: 403,
    message: 'This restricted key lacks the permission the request needs.',
  },
  E1241: {
    key: 'role_permission_required',
    http_status: 403,
    message: "The user's role in this application does not allow the request.",
  },
  E1243: {
    key: 'secret_key_expired',
    http_status: 401,
    message: 'The key has expired (it was rolled); use the key that replaced it.',
  },
  E1244: {
    key: 'role_test_mode_only',
    http_status: 403,
    message: "The user's role allows this request in test mode only.",
  },
  E1245: {
    key: 'invalid_key_permissions',
    http_status: 400,
    message: 'The permissions name an unknown resource group or level.',
  },
  E1246: {
    key: 'key_not_active',
    http_status: 409,
    message: 'The key is revoked or expired; it can no longer be changed or rolled.',
  },
});
