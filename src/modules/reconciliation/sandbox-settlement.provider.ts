import type { ProviderPayout, SettlementItem, SettlementProvider } from '../../providers/ports/settlement.port.js';

/**
 * The sandbox's settlements, test mode only: any payout id starting `po_sandbox_` exists and settles
 * one THB 100.00 charge the ledger never booked (`sbx_unbooked_<payout>`), so a run shows a
 * `missing_in_ledger` item and `reconciliation.mismatch` can be seen without a provider
 * (`npm run cli -- events:trigger reconciliation.mismatch`). It has no schedule of its own.
 */
export class SandboxSettlementProvider implements SettlementProvider {
  readonly name = 'sandbox';

  constructor(private readonly now: () => Date) {}

  listPayouts(): Promise<ProviderPayout[]> {
    return Promise.resolve([]);
  }

  retrievePayout(reference: string): Promise<ProviderPayout> {
    return Promise.resolve({ reference, amount: 9635, currency: 'THB', status: 'paid', created_at: this.now() });
  }

  async settlementItems(reference: string, sink: (page: SettlementItem[]) => Promise<void>): Promise<number> {
    await sink([
      {
        id: `txn_sandbox_${reference}`,
        reference: `sbx_unbooked_${reference}`,
        type: 'charge',
        amount: 10000,
        fee: 365,
        currency: 'THB',
        created_at: this.now(),
      },
    ]);
    return 1;
  }
}

export const SANDBOX_PAYOUT_PREFIX = 'po_sandbox_';
