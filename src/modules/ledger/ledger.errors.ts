import { defineErrors } from '../../common/errors/error-catalog.js';

/** Ledger codes (E9xxx is shared with disputes; disputes use E95xx). */
export const LedgerErrors = defineErrors('ledger', {
  E9001: {
    key: 'journal_unbalanced',
    http_status: 422,
    message: 'The entries of a journal must sum to zero in every currency.',
  },
  E9002: {
    key: 'ledger_entry_invalid',
    http_status: 422,
    message: 'A ledger entry is invalid.',
  },
  E9003: {
    key: 'balance_not_found',
    http_status: 404,
    message: 'A ledger entry names a balance that does not exist.',
  },
  E9004: {
    key: 'balance_currency_mismatch',
    http_status: 422,
    message: 'A ledger entry is in a different currency from its balance.',
  },
  E9005: {
    key: 'balance_insufficient_available',
    http_status: 422,
    message: 'The posting would take a balance that may not go negative below zero available.',
  },
});
