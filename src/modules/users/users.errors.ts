import { defineErrors } from '../../common/errors/error-catalog.js';

export const UsersErrors = defineErrors('users', {
  E1226: { key: 'login_failed', http_status: 401, message: 'The email or password is wrong.' },
  E1227: {
    key: 'login_throttled',
    http_status: 429,
    message: 'Too many failed sign-in attempts for this account; try again later.',
  },
});
