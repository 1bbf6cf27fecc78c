import { defineErrors } from '../../common/errors/error-catalog.js';

/**
 * E61xx: bank accounts, E62xx: bank account intents, E63xx: the payouts lifecycle (the payouts group). E6422 (customer_id
 * refused) is a core code fixed by the interface contract; E1304 (KYB) is an auth code.
 */
export const PayoutErrors = defineErrors('payouts', {
  E6101: { key: 'account_not_found', http_status: 400, message: 'No account of this application has this id.' },
  E6102: {
    key: 'country_not_supported',
    http_status: 400,
    message: 'Bank accounts cannot be created for this country (X-Country) yet.',
  },
  E6103: { key: 'invalid_bank_code', http_status: 400, message: 'extra_fields.bankCode is not a known bank code.' },
  E6104: {
    key: 'invalid_account_number',
    http_status: 400,
    message: "extra_fields.accountNumber does not have the bank's account number format.",
  },
  E6105: {
    key: 'invalid_phone_number',
    http_status: 400,
    message: 'phone_number must be a Thai mobile number: 10 digits starting 06, 08 or 09, or +66 and 9 digits.',
  },
  E6106: {
    key: 'invalid_national_id',
    http_status: 400,
    message: 'primary_identify_id must be a 13-digit Thai national ID with a valid check digit.',
  },
  E6107: {
    key: 'unsupported_currency',
    http_status: 400,
    message: 'target must be the currency bank accounts of this country are held in.',
  },
  E6108: {
    key: 'invalid_extra_fields',
    http_status: 400,
    message: 'extra_fields does not have the shape this type of bank account needs.',
  },
  E6109: {
    key: 'provider_not_available',
    http_status: 400,
    message: 'provider does not name the transfer provider serving this country.',
  },
  E6120: {
    key: 'recipient_not_created',
    http_status: 502,
    message: 'The transfer provider did not create the recipient; the bank account is stored without it.',
  },
  E6201: {
    key: 'invalid_redirect_url',
    http_status: 400,
    message: 'return_url and refresh_url must be absolute http or https URLs.',
  },
  E6202: {
    key: 'bank_account_intent_not_open',
    http_status: 409,
    message: 'This bank account intent has been used or has expired.',
  },
  E6301: {
    key: 'insufficient_available_balance',
    http_status: 400,
    message: "The account's available balance in this currency is less than the payout amount.",
  },
  E6302: {
    key: 'destination_not_found',
    http_status: 400,
    message: 'destination is not a bank account of this account in this country.',
  },
  E6303: {
    key: 'destination_not_payable',
    http_status: 400,
    message:
      'destination has no recipient at the transfer provider (no provider enabled, or it refused the recipient).',
  },
  E6304: {
    key: 'payout_currency_mismatch',
    http_status: 400,
    message: 'currency must be the currency of the destination bank account.',
  },
  E6305: { key: 'payout_state_conflict', http_status: 409, message: 'The payout is not in a state that allows this.' },
  E6306: {
    key: 'transfer_provider_unavailable',
    http_status: 400,
    message: 'No transfer provider serves this country, so nothing can be paid out there.',
  },
  E6307: {
    key: 'invalid_payout_schedule',
    http_status: 400,
    message: 'A daily or weekly payout schedule needs a destination bank account of the account.',
  },
});
