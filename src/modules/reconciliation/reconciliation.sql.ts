import { providerChargesSql } from '../checkout/index.js';
import { settlementTotalsSql } from '../ledger/index.js';
import { providerRefundsSql } from '../refunds/index.js';

/**
 * The matching of a run (docs/RECONCILIATION.md, "Matching"): the provider's staged lines, summed per
 * reference, FULL OUTER JOIN the ledger's side (succeeded charges and refunds of the provider, from
 * their ledger entries), in one statement whatever the row count.
 *
 * The ledger side of a reference comes from the tables' owners, each a SELECT over its own tables:
 * the charges and succeeded refunds of the provider with their references (checkout, refunds), and
 * what the ledger booked for each (ledger: gross and provider fee of a charge, minus the refund).
 * A ledger row the provider did not report counts only when it was booked inside the settlement's
 * window (the first line's time to one second after the last's): outside it, it belongs to another
 * payout. `$1` run, `$2` application, `$3` provider, `$4` ids for the items (UUIDv7, made in the
 * app, one per row in `reference` order), `$5` now.
 */
export function matchStatement(t: (name: string) => string, select: 'count' | 'insert'): string {
  const joined = `
    WITH lines AS (
      SELECT reference,
             min(type) AS type,
             min(currency) AS currency,
             sum(amount) AS amount,
             sum(fee) AS fee,
             count(*) FILTER (WHERE amount <> 0) AS gross_lines
        FROM ${t('reconciliation_lines')}
       WHERE run_id = $1 AND reference IS NOT NULL
       GROUP BY reference),
    win AS (
      SELECT min(created_at) AS from_at, max(created_at) + interval '1 second' AS to_at
        FROM ${t('reconciliation_lines')} WHERE run_id = $1),
    records AS (${providerChargesSql(t)} UNION ALL ${providerRefundsSql(t)}),
    totals AS (${settlementTotalsSql(t)}),
    ledger AS (
      SELECT r.reference, r.type, r.record_id, r.currency, b.amount, b.fee, b.booked_at
        FROM records r JOIN totals b ON b.record_id = r.record_id::text),
    joined AS (
      SELECT coalesce(p.reference, l.reference) AS reference,
             coalesce(l.type, p.type) AS type,
             l.record_id,
             coalesce(p.currency, l.currency) AS currency,
             l.amount AS ledger_amount, p.amount AS provider_amount,
             l.fee AS ledger_fee, p.fee AS provider_fee,
             coalesce(p.gross_lines, 0)::int AS provider_lines,
             CASE
               WHEN l.reference IS NULL THEN 'missing_in_ledger'
               WHEN p.reference IS NULL THEN 'missing_at_provider'
               WHEN p.gross_lines > 1 THEN 'duplicate'
               WHEN p.amount <> l.amount OR p.currency <> l.currency THEN 'amount_mismatch'
               WHEN p.fee <> l.fee THEN 'fee_mismatch'
               ELSE 'matched'
             END AS outcome
        FROM lines p
        FULL OUTER JOIN ledger l ON l.reference = p.reference
        CROSS JOIN win
       WHERE p.reference IS NOT NULL OR (l.booked_at >= win.from_at AND l.booked_at < win.to_at))`;
  if (select === 'count') return `${joined} SELECT count(*)::int AS count FROM joined`;
  return `${joined}
    INSERT INTO ${t('reconciliation_items')}
      (id, application_id, run_id, outcome, reference, type, record_id, currency,
       ledger_amount, provider_amount, ledger_fee, provider_fee, provider_lines, created_at)
    SELECT ($4::uuid[])[row_number() OVER (ORDER BY reference)], $2, $1, outcome, reference, type, record_id, currency,
           ledger_amount, provider_amount, ledger_fee, provider_fee, provider_lines, $5
      FROM joined`;
}

/** Counts of a run's items per outcome. */
export const outcomeCountsStatement = (t: (name: string) => string) =>
  `SELECT outcome, count(*)::int AS count FROM ${t('reconciliation_items')}
    WHERE application_id = $1 AND run_id = $2 GROUP BY outcome`;

/** A page of settlement lines into the staging table, as arrays (one round trip per page). */
export const stageLinesStatement = (t: (name: string) => string) =>
  `INSERT INTO ${t('reconciliation_lines')} (run_id, payout, line_id, reference, type, amount, fee, currency, created_at)
   SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::text[], $9::timestamptz[])`;
