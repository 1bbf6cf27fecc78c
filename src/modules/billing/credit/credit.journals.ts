import type { Posting } from '../../ledger/index.js';

/**
 * The ledger accounts of prepaid credit (docs/BILLING.md, "Prepaid credit", and docs/LEDGER.md):
 * - `customer_credit` (per customer and currency): what the customer may still spend; a liability of
 *   the merchant, never below zero;
 * - `credit_grants_funding` (per application and currency): where granted credit comes from (a paid
 *   grant's money is collected on its own, a promotional one is the merchant's cost); an ended
 *   grant's remaining returns here;
 * - `credit_applied` (per application and currency): credit that paid invoices, the revenue side.
 */
export const CREDIT_ACCOUNTS = {
  customer: 'customer_credit',
  funding: 'credit_grants_funding',
  applied: 'credit_applied',
} as const;

interface Sides {
  applicationId: string;
  currency: string;
  customerBalanceId: string;
  otherBalanceId: string;
}

function entries(s: Sides, amount: number, type: string, description: string): Posting['entries'] {
  return [
    {
      balance_id: s.customerBalanceId,
      amount,
      currency: s.currency,
      state: 'available',
      type,
      source: 'credit_grant',
      description,
    },
    {
      balance_id: s.otherBalanceId,
      amount: -amount,
      currency: s.currency,
      state: 'available',
      type,
      source: 'credit_grant',
      description,
    },
  ];
}

/** A grant: the funding account gives `amount` to the customer's credit. */
export function grantPosting(s: Sides, grantId: string, amount: number): Posting {
  return {
    application_id: s.applicationId,
    description: 'Credit granted',
    event_type: 'billing.credit_grant.created',
    event_id: grantId,
    entries: entries(s, amount, 'credit_grant', 'Credit granted'),
  };
}

/** A voided or expired grant: its remaining goes back from the customer's credit to the funding account. */
export function endPosting(s: Sides, grantId: string, remaining: number, how: 'voided' | 'expired'): Posting {
  return {
    application_id: s.applicationId,
    description: `Credit ${how}`,
    event_type: `billing.credit_grant.${how}`,
    event_id: grantId,
    entries: entries(s, -remaining, `credit_grant_${how}`, `Credit ${how}`),
  };
}

/** An invoice paid from credit: `amount` leaves the customer's credit for the applied (revenue) account. */
export function applyPosting(s: Sides, invoiceId: string, amount: number): Posting {
  return {
    application_id: s.applicationId,
    description: 'Credit applied to invoice',
    event_type: 'invoice.credit_applied',
    event_id: invoiceId,
    entries: entries(s, -amount, 'credit_applied', 'Credit applied to invoice'),
  };
}
