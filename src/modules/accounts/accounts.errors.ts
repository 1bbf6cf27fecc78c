import { defineErrors } from '../../common/errors/error-catalog.js';

/** E60xx: accounts (the payouts group). */
export const AccountErrors = defineErrors('accounts', {
  E6001: {
    key: 'own_account_kyb_fixed',
    http_status: 409,
    message: "The application's own account is always verified; its KYB status cannot change.",
  },
  E6002: {
    key: 'connect_account_unavailable',
    http_status: 503,
    message:
      "The payment provider did not open the connected account's provider account (Stripe Connect); nothing was created. Try again.",
  },
});
