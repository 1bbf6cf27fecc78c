import { defineErrors } from '../../common/errors/error-catalog.js';

/** Settlement reconciliation (docs/RECONCILIATION.md). */
export const ReconciliationErrors = defineErrors('reconciliation', {
  E7960: {
    key: 'reconciliation_provider_unavailable',
    http_status: 400,
    message: 'The provider has no settlements to reconcile in this mode (no keys, or a sandbox).',
  },
  E7961: {
    key: 'reconciliation_target_invalid',
    http_status: 400,
    message: 'Give exactly one of payout and interval; an interval must end after it starts, and not in the future.',
  },
});
