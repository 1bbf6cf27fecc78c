import { Injectable } from '@nestjs/common';

/** Transfer records (payouts) by id, as their owner answers for them. */
export type TransferRecordsById = (
  applicationId: string,
  ids: string[],
) => Promise<Map<string, Record<string, unknown>>>;

/**
 * The port through which a balance transaction embeds its `transfer` (a payout, by `transfer_id`).
 * The ledger is a sink: the payouts module supplies its records here in its `onModuleInit`. Without a
 * supplier, or for a `transfer_id` that is no payout (a destination charge's), `transfer` is null.
 */
@Injectable()
export class BalanceTransfers {
  private lookup?: TransferRecordsById;

  supply(lookup: TransferRecordsById): void {
    this.lookup = lookup;
  }

  async byIds(applicationId: string, ids: Array<string | null>): Promise<Map<string, Record<string, unknown>>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0 || !this.lookup) return new Map();
    return this.lookup(applicationId, wanted);
  }
}
