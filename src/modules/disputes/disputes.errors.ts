import { defineErrors } from '../../common/errors/error-catalog.js';

/** Dispute codes (E95xx of the ledger-and-disputes group). */
export const DisputeErrors = defineErrors('disputes', {
  E9501: { key: 'charge_already_disputed', http_status: 409, message: 'This charge already has a dispute.' },
  E9502: {
    key: 'charge_not_disputable',
    http_status: 422,
    message: 'Only a paid charge can be disputed, for at most its captured amount.',
  },
});
