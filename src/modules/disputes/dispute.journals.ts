import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Charge } from '../checkout/index.js';
import { BalancesService, PostingService, type Posting } from '../ledger/index.js';
import type { Dispute } from './entities/dispute.entity.js';

/**
 * The dispute fee booked when a dispute is lost, in major units of the currency (multiplied by the
 * charge's scaling_factor): THB 500.00, SGD 20.00, USD 15.00; no fee in other currencies. See docs/DISPUTES.md.
 */
export const DISPUTE_FEE_MAJOR: Record<string, number> = { THB: 500, SGD: 20, USD: 15 };

export const disputeFee = (currency: string, scalingFactor: number): number =>
  (DISPUTE_FEE_MAJOR[currency] ?? 0) * scalingFactor;

type JournaledDispute = Pick<Dispute, 'id' | 'number' | 'amount'>;
/** The disputed charge, with the merchant-side balance its money went to. */
type DisputedCharge = Pick<Charge, 'id' | 'application_id' | 'currency' | 'scaling_factor'> & { balance_id: string };

/** Opened: the disputed amount leaves the charge's balance for the application's `disputes` balance. */
export function disputeOpenedJournal(dispute: JournaledDispute, charge: DisputedCharge, disputesId: string): Posting {
  const entry = { currency: charge.currency, state: 'available' as const, type: 'dispute', source: 'dispute' };
  const amount = Number(dispute.amount);
  return {
    application_id: charge.application_id,
    description: `Dispute ${dispute.number} on charge ${charge.id}`,
    event_type: 'dispute.opened',
    event_id: dispute.id,
    entries: [
      { ...entry, balance_id: charge.balance_id, amount: -amount, category: 'dispute' },
      { ...entry, balance_id: disputesId, amount, category: 'dispute' },
    ],
  };
}

/** Won: the disputed amount returns from the `disputes` balance to the charge's balance. */
export function disputeWonJournal(dispute: JournaledDispute, charge: DisputedCharge, disputesId: string): Posting {
  const entry = { currency: charge.currency, state: 'available' as const, type: 'dispute', source: 'dispute' };
  const amount = Number(dispute.amount);
  return {
    application_id: charge.application_id,
    description: `Dispute ${dispute.number} won: funds reinstated to charge ${charge.id}`,
    event_type: 'dispute.won',
    event_id: dispute.id,
    entries: [
      { ...entry, balance_id: disputesId, amount: -amount, category: 'dispute_reversal' },
      { ...entry, balance_id: charge.balance_id, amount, category: 'dispute_reversal' },
    ],
  };
}

/**
 * Lost: the disputed amount leaves the `disputes` balance for `provider_clearing` (the provider
 * returns it to the cardholder), and the dispute fee moves from the charge's balance to `fees`.
 */
export function disputeLostJournal(
  dispute: JournaledDispute,
  charge: DisputedCharge,
  balances: { disputes: string; clearing: string; fees: string },
  fee = disputeFee(charge.currency, charge.scaling_factor),
): Posting {
  const common = { currency: charge.currency, state: 'available' as const, source: 'dispute' };
  const amount = Number(dispute.amount);
  const feeEntry = { ...common, type: 'dispute_fee', category: 'dispute_fee', reporting_category: 'fee' };
  return {
    application_id: charge.application_id,
    description: `Dispute ${dispute.number} lost on charge ${charge.id}`,
    event_type: 'dispute.lost',
    event_id: dispute.id,
    entries: [
      { ...common, balance_id: balances.disputes, amount: -amount, type: 'dispute', category: 'dispute_loss' },
      { ...common, balance_id: balances.clearing, amount, type: 'dispute', category: 'dispute_loss' },
      ...(fee > 0
        ? [
            { ...feeEntry, balance_id: charge.balance_id, amount: -fee },
            { ...feeEntry, balance_id: balances.fees, amount: fee },
          ]
        : []),
    ],
  };
}

/**
 * The provider's dispute fee as it reports it (Stripe, with the withdrawal): `delta` moves from the
 * charge's balance to `fees`; a negative delta (the provider returned its fee) moves back.
 */
export function disputeFeeJournal(
  dispute: JournaledDispute,
  charge: DisputedCharge,
  feesId: string,
  delta: number,
): Posting {
  const entry = {
    currency: charge.currency,
    state: 'available' as const,
    source: 'dispute',
    type: 'dispute_fee',
    category: 'dispute_fee',
    reporting_category: 'fee',
  };
  return {
    application_id: charge.application_id,
    description: `Dispute ${dispute.number} fee ${delta > 0 ? 'charged' : 'returned'} by the provider on charge ${charge.id}`,
    event_type: 'dispute.fee',
    event_id: dispute.id,
    entries: [
      { ...entry, balance_id: charge.balance_id, amount: -delta },
      { ...entry, balance_id: feesId, amount: delta },
    ],
  };
}

/**
 * Books a dispute into the ledger (docs/DISPUTES.md), in the caller's transaction. A charge with no
 * balance (nothing was booked for it) books nothing.
 */
@Injectable()
export class DisputeJournals {
  constructor(
    private readonly balances: BalancesService,
    private readonly posting: PostingService,
  ) {}

  async opened(dispute: JournaledDispute, charge: Charge, manager: EntityManager): Promise<void> {
    const disputed = withBalance(charge);
    if (!disputed) return;
    const disputes = await this.balanceOf(disputed, 'disputes', manager);
    await this.posting.post(disputeOpenedJournal(dispute, disputed, disputes), manager);
  }

  async won(dispute: JournaledDispute, charge: Charge, manager: EntityManager): Promise<void> {
    const disputed = withBalance(charge);
    if (!disputed) return;
    const disputes = await this.balanceOf(disputed, 'disputes', manager);
    await this.posting.post(disputeWonJournal(dispute, disputed, disputes), manager);
  }

  /** `fee`: the fee booked with the loss (default: the service's table; 0 when the provider's was booked already). */
  async lost(dispute: JournaledDispute, charge: Charge, manager: EntityManager, fee?: number): Promise<void> {
    const disputed = withBalance(charge);
    if (!disputed) return;
    const disputes = await this.balanceOf(disputed, 'disputes', manager);
    const clearing = await this.balanceOf(disputed, 'provider_clearing', manager);
    const fees = await this.balanceOf(disputed, 'fees', manager);
    await this.posting.post(disputeLostJournal(dispute, disputed, { disputes, clearing, fees }, fee), manager);
  }

  /** The provider's fee changed by `delta` (charged: positive, returned: negative). */
  async fee(dispute: JournaledDispute, charge: Charge, delta: number, manager: EntityManager): Promise<void> {
    const disputed = withBalance(charge);
    if (!disputed || delta === 0) return;
    const fees = await this.balanceOf(disputed, 'fees', manager);
    await this.posting.post(disputeFeeJournal(dispute, disputed, fees, delta), manager);
  }

  /** The application's balance of `account` in the charge's currency. */
  private async balanceOf(charge: DisputedCharge, account: string, manager: EntityManager): Promise<string> {
    const balance = await this.balances.getOrCreate(
      { application_id: charge.application_id, account, currency: charge.currency },
      manager,
    );
    return balance.id;
  }
}

function withBalance(charge: Charge): DisputedCharge | null {
  const balanceId = charge.balance_id;
  return balanceId ? { ...charge, balance_id: balanceId } : null;
}
