import { defineErrors } from '../../../common/errors/error-catalog.js';

/** Prepaid credit grants (docs/BILLING.md, "Prepaid credit"): numbers 7880 to 7899 of billing's range. */
export const CreditErrors = defineErrors('billing', {
  E7880: {
    key: 'credit_grant_customer_not_found',
    http_status: 404,
    message: 'No customer of this application has this id.',
  },
  E7881: {
    key: 'credit_grant_currency_mismatch',
    http_status: 400,
    message: "A credit grant's currency must be the customer's currency when the customer has one.",
  },
  E7882: {
    key: 'credit_grant_expiry_not_future',
    http_status: 400,
    message: "expires_at must be after the customer's current time (its test clock's, if it has one).",
  },
  E7883: {
    key: 'credit_grant_price_not_usable',
    http_status: 400,
    message: 'applicability.price_ids must name recurring prices of this application in the grant currency.',
  },
  E7884: {
    key: 'credit_grant_not_active',
    http_status: 409,
    message: 'The credit grant is already voided or expired.',
  },
});
