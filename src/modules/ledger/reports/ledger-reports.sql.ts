/**
 * The statements behind the ledger's reports (docs/REPORTS.md). Each reads the entries only, so a
 * report's totals are the ledger's sums; the interval is half-open, [from, to). `currency` null: all.
 */
export interface ReportWindow {
  applicationId: string;
  from: string;
  to: string;
  currency: string | null;
}

export type { Statement } from '../../../common/database/snapshot-cursor.js';
import type { Statement } from '../../../common/database/snapshot-cursor.js';

/** Every entry created in the window, oldest first (ties by id): `transfersOnly` keeps payout entries. */
export function entriesInWindow(bt: string, w: ReportWindow, transfersOnly: boolean): Statement {
  return {
    sql: `SELECT id, created_at, available_on, currency, scaling_factor, amount::text AS amount, fee::text AS fee,
                 gross_amount::text AS gross_amount, net::text AS net, state, type, source, reporting_category,
                 description, balance_id, account, customer_id, journal_id, event_type, event_id, transfer_id
            FROM ${bt}
           WHERE application_id = $1 AND created_at >= $2::timestamptz AND created_at < $3::timestamptz
             AND ($4::text IS NULL OR currency = $4::text)${transfersOnly ? ' AND transfer_id IS NOT NULL' : ''}
           ORDER BY created_at, id`,
    params: [w.applicationId, w.from, w.to, w.currency],
  };
}

/**
 * One row per balance that had money at the start or moved in the window: its total (available +
 * hold) before the window, its credits and debits in it, and its total at the end.
 */
export function balanceSummary(bt: string, w: ReportWindow): Statement {
  return {
    sql: `SELECT balance_id, account, customer_id, currency, max(scaling_factor) AS scaling_factor,
                 coalesce(sum(amount) FILTER (WHERE created_at < $2::timestamptz), 0)::text AS starting,
                 coalesce(sum(amount) FILTER (WHERE created_at >= $2::timestamptz AND amount > 0), 0)::text AS credits,
                 coalesce(sum(amount) FILTER (WHERE created_at >= $2::timestamptz AND amount < 0), 0)::text AS debits,
                 count(*) FILTER (WHERE created_at >= $2::timestamptz) AS entry_count
            FROM ${bt}
           WHERE application_id = $1 AND created_at < $3::timestamptz AND ($4::text IS NULL OR currency = $4::text)
           GROUP BY balance_id, account, customer_id, currency
           ORDER BY currency, account, balance_id`,
    params: [w.applicationId, w.from, w.to, w.currency],
  };
}

/**
 * One row per payout created in the window, from its journals (docs/PAYOUTS.md, "Ledger"): the
 * paying leg of `payout.created`, and the positive leg of the journal that ended it, if any.
 */
export function payoutsInWindow(bt: string, w: ReportWindow): Statement {
  return {
    sql: `WITH created AS (
            SELECT transfer_id, created_at, currency, scaling_factor, -amount AS amount, balance_id, account, customer_id
              FROM ${bt}
             WHERE application_id = $1 AND event_type = 'payout.created' AND amount < 0
               AND created_at >= $2::timestamptz AND created_at < $3::timestamptz
               AND ($4::text IS NULL OR currency = $4::text)
          ), ended AS (
            SELECT transfer_id, event_type, created_at
              FROM ${bt}
             WHERE application_id = $1 AND event_type IN ('payout.paid', 'payout.failed', 'payout.canceled')
               AND amount > 0 AND created_at < $3::timestamptz
               AND transfer_id IN (SELECT transfer_id FROM created)
          )
          SELECT c.transfer_id AS payout_id, c.created_at, c.currency, c.scaling_factor, c.amount::text AS amount,
                 c.balance_id, c.account, c.customer_id, e.event_type AS ended_by, e.created_at AS ended_at
            FROM created c LEFT JOIN ended e ON e.transfer_id = c.transfer_id
           ORDER BY c.created_at, c.transfer_id`,
    params: [w.applicationId, w.from, w.to, w.currency],
  };
}
