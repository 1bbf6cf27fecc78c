import { defineErrors } from '../../../common/errors/error-catalog.js';

/** Balance statements (docs/LEDGER.md, "Statements"): codes from E7940 in the reporting owner's range. */
export const StatementErrors = defineErrors('reporting', {
  E7940: {
    key: 'statement_as_of_invalid',
    http_status: 400,
    message: 'as_of must be an RFC 3339 moment with a time zone, not in the future.',
  },
});
