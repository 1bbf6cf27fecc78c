import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BalancesService, PostingService, type Posting, type PostingEntry } from '../../ledger/index.js';
import type { Payout } from '../entities/payout.entity.js';

type PayoutLeg = Pick<PostingEntry, 'balance_id' | 'amount' | 'type' | 'category'>;
type JournaledPayout = Pick<Payout, 'id' | 'application_id' | 'currency' | 'amount' | 'balance_id'>;

/** A payout journal: every entry available, carrying the payout as its `transfer`. */
function payoutJournal(payout: JournaledPayout, eventType: string, legs: PayoutLeg[]): Posting {
  return {
    application_id: payout.application_id,
    description: `Payout ${payout.id}`,
    event_type: eventType,
    event_id: payout.id,
    entries: legs.map((leg) => ({
      ...leg,
      currency: payout.currency,
      state: 'available' as const,
      source: 'payout',
      reporting_category: leg.category === 'payout_reversal' ? 'payout_reversal' : 'payout',
      transfer_id: payout.id,
      parent_event_type: 'payout',
      parent_event_id: payout.id,
    })),
  };
}

/** Created: the amount leaves the paying balance for `payouts_in_transit`. */
export function payoutCreatedJournal(payout: JournaledPayout, inTransitId: string): Posting {
  const amount = Number(payout.amount);
  return payoutJournal(payout, 'payout.created', [
    { balance_id: payout.balance_id, amount: -amount, type: 'payout', category: 'payout' },
    { balance_id: inTransitId, amount, type: 'payout', category: 'payout' },
  ]);
}

/** Paid: the bank has it, so it leaves `payouts_in_transit` through provider clearing. */
export function payoutPaidJournal(payout: JournaledPayout, inTransitId: string, clearingId: string): Posting {
  const amount = Number(payout.amount);
  return payoutJournal(payout, 'payout.paid', [
    { balance_id: inTransitId, amount: -amount, type: 'payout', category: 'payout' },
    { balance_id: clearingId, amount, type: 'payout', category: 'payout_clearing' },
  ]);
}

/** Failed or canceled: the amount returns from `payouts_in_transit` to the balance it left. */
export function payoutReversalJournal(
  payout: JournaledPayout,
  status: 'failed' | 'canceled',
  inTransitId: string,
): Posting {
  const amount = Number(payout.amount);
  const type = status === 'failed' ? 'payout_failure' : 'payout_cancel';
  return payoutJournal(payout, `payout.${status}`, [
    { balance_id: inTransitId, amount: -amount, type, category: 'payout_reversal' },
    { balance_id: payout.balance_id, amount, type, category: 'payout_reversal' },
  ]);
}

/**
 * Books a payout into the ledger (docs/PAYOUTS.md, "Ledger"), in the caller's transaction: its
 * creation (PayoutsService) and its final transitions (PayoutLifecycleService).
 */
@Injectable()
export class PayoutJournals {
  constructor(
    private readonly balances: BalancesService,
    private readonly posting: PostingService,
  ) {}

  async created(payout: JournaledPayout, manager: EntityManager): Promise<void> {
    await this.posting.post(
      payoutCreatedJournal(payout, await this.balanceOf(payout, 'payouts_in_transit', manager)),
      manager,
    );
  }

  async paid(payout: JournaledPayout, manager: EntityManager): Promise<void> {
    const inTransit = await this.balanceOf(payout, 'payouts_in_transit', manager);
    const clearing = await this.balanceOf(payout, 'provider_clearing', manager);
    await this.posting.post(payoutPaidJournal(payout, inTransit, clearing), manager);
  }

  async reversed(payout: JournaledPayout, status: 'failed' | 'canceled', manager: EntityManager): Promise<void> {
    const inTransit = await this.balanceOf(payout, 'payouts_in_transit', manager);
    await this.posting.post(payoutReversalJournal(payout, status, inTransit), manager);
  }

  /** The application's balance of `account` in the payout's currency (one per application and currency). */
  private async balanceOf(payout: JournaledPayout, account: string, manager: EntityManager): Promise<string> {
    const balance = await this.balances.getOrCreate(
      { application_id: payout.application_id, account, currency: payout.currency },
      manager,
    );
    return balance.id;
  }
}
