import { defineErrors } from '../../common/errors/error-catalog.js';

/** E60xx: accounts (the payouts group). */
export const AccountErrors = defineErrors('accounts', {
  E6001: {
    key: 'own_account_kyb_fixed',
    http_status: 409,
    message: "The application's own account is always verified; its KYB status cannot change.",
  },
});
