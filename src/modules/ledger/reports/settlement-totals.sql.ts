/**
 * What the ledger booked per charge and refund, for settlement reconciliation (docs/RECONCILIATION.md):
 * a SELECT over `balance_transactions` that the reconciliation module composes into its matching
 * statement. `$2` is the application id; columns: record_id (text), amount, fee, booked_at.
 * - a charge (its `charge.succeeded` journal, keyed by the entries' `parent_event_id`): amount is
 *   minus its clearing entry (the gross), fee its `provider_fee` entry;
 * - a refund (its `refund.created` journal, keyed by `event_id`): amount is minus its clearing entry
 *   (negative), fee 0.
 */
export const settlementTotalsSql = (t: (name: string) => string): string =>
  `SELECT CASE WHEN bt.event_type = 'charge.succeeded' THEN bt.parent_event_id ELSE bt.event_id END AS record_id,
          -sum(bt.amount) FILTER (WHERE bt.category = 'clearing') AS amount,
          coalesce(sum(bt.amount) FILTER (WHERE bt.category = 'provider_fee'), 0) AS fee,
          min(bt.created_at) AS booked_at
     FROM ${t('balance_transactions')} bt
    WHERE bt.application_id = $2
      AND ((bt.event_type = 'charge.succeeded' AND bt.parent_event_type = 'charge') OR bt.event_type = 'refund.created')
    GROUP BY 1`;
