/**
 * The charges a provider settles, for settlement reconciliation (docs/RECONCILIATION.md): a SELECT
 * over this module's `charges` that the reconciliation module composes into its matching statement.
 * `$2` is the application id, `$3` the provider name; columns: record_id, reference, type, currency.
 */
export const providerChargesSql = (t: (name: string) => string): string =>
  `SELECT c.id AS record_id, c.reference_id AS reference, 'charge'::text AS type, upper(c.currency) AS currency
     FROM ${t('charges')} c
    WHERE c.application_id = $2 AND c.provider = $3 AND c.reference_id IS NOT NULL`;
