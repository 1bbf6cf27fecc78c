/**
 * The refunds a provider settles, for settlement reconciliation (docs/RECONCILIATION.md): a SELECT
 * over this module's `refunds` (succeeded ones: a failed refund's debit went back) that the
 * reconciliation module composes into its matching statement. `$2` is the application id, `$3` the
 * provider name; columns: record_id, reference, type, currency.
 */
export const providerRefundsSql = (t: (name: string) => string): string =>
  `SELECT r.id AS record_id, r.reference_id AS reference, 'refund'::text AS type, upper(r.currency) AS currency
     FROM ${t('refunds')} r
    WHERE r.application_id = $2 AND r.provider = $3 AND r.reference_id IS NOT NULL AND r.status = 'succeeded'`;
