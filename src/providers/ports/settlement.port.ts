/**
 * A real provider's settlements (Opn transfers, Stripe payouts) and their itemized contents, in the
 * service's vocabulary. The reconciliation module imports them and matches each item with the
 * ledger by the provider's reference (docs/RECONCILIATION.md); it never sees a provider's shapes.
 */

/** One payout of the provider balance to the platform's bank account. */
export interface ProviderPayout {
  /** The provider's id (`trsf_…`, `po_…`). */
  reference: string;
  /** Minor units of `currency` (upper case); what reached the bank. */
  amount: number;
  currency: string;
  status: string;
  created_at: Date;
}

/** One line of a payout's settlement: one charge, refund, fee or adjustment at the provider. */
export interface SettlementItem {
  /** The provider's own line id (`trxn_…`, `txn_…`). */
  id: string;
  /**
   * What the line is about, as the collection adapter stores it on the service's records: Opn
   * `chrg_…` / `rfnd_…`, Stripe `pi_…` (a charge's payment intent) / `re_…`. Null for a line of no
   * payment (a payout, an adjustment).
   */
  reference: string | null;
  /** `charge`, `refund`, or the provider's own word for anything else. */
  type: string;
  /** Signed gross amount in minor units: positive for a charge, negative for a refund. */
  amount: number;
  /** The provider's fee on the line (positive: taken from the merchant). */
  fee: number;
  currency: string;
  created_at: Date;
}

export class SettlementProviderError extends Error {
  constructor(
    message: string,
    /** The provider refused the request (4xx): trying the same again will not help. */
    readonly refused: boolean,
  ) {
    super(message);
    this.name = 'SettlementProviderError';
  }
}

export interface SettlementProvider {
  readonly name: string;
  /** Payouts created at or after `since`, oldest first, at most `limit`. Throws SettlementProviderError. */
  listPayouts(since: Date, limit: number): Promise<ProviderPayout[]>;
  /** One payout. Throws SettlementProviderError (refused when unknown). */
  retrievePayout(reference: string): Promise<ProviderPayout>;
  /**
   * Every line the payout settled, handed to `sink` a page at a time (at most 100 lines), so a
   * payout of any size is never whole in memory. Throws SettlementProviderError.
   */
  settlementItems(reference: string, sink: (page: SettlementItem[]) => Promise<void>): Promise<number>;
}
