import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { AllConfig } from '../../../config/app.config.js';
import {
  BalancesService,
  connectedAccountName,
  PostingService,
  type FeeDetail,
  type PostingEntry,
} from '../../ledger/index.js';
import type { Charge } from '../entities/charge.entity.js';

export interface ChargeSettlement {
  /** The merchant-side balance credited with the payment: disputes withdraw from it. */
  balance_id: string;
  /** What the merchant side receives (net of the provider fee and the application fee). */
  net: number;
  /** Destination charges: the connected account's share and balance. */
  transfer_data: { destination: string; amount: number; balance_id: string } | null;
  /** Ledger entry ids: the application fee credited to the application, the connected account's credit. */
  application_fee_entry: string | null;
  transfer_entry: string | null;
}

/** What a succeeded charge's journal is built from: the charge, its fees and the balances it touches. */
export interface ChargeJournalInput {
  charge: Pick<Charge, 'id' | 'application_id' | 'amount' | 'currency'>;
  providerFee: number;
  /** The application's fee; taken only from a destination charge. */
  applicationFee: number;
  availableOn: Date;
  balances: { clearing: string; fees: string; merchant: string; connected: string | null };
}

/**
 * A succeeded charge's entries, ONE journal (see docs/COLLECTION.md):
 *
 *   provider_clearing   -gross                      available
 *   fees                +provider fee               available
 *   merchant            +gross - fee                hold until available_on     (no destination)
 *   connected_<id>      +gross - app fee - fee      hold until available_on     (destination)
 *   merchant            +app fee                    hold until available_on     (destination, app fee > 0)
 *
 * The merchant-side entry carries `fee` and `fee_details`, so its balance transaction shows the
 * amount, fee, net and gross of the payment. `net` is what that entry credits.
 */
export function chargeJournal(input: ChargeJournalInput): { entries: PostingEntry[]; net: number } {
  const { charge, providerFee, availableOn, balances } = input;
  const currency = charge.currency;
  const gross = Number(charge.amount);
  const applicationFee = balances.connected ? input.applicationFee : 0;
  const common = { currency, source: 'payment', parent_event_type: 'charge', parent_event_id: charge.id };
  const feeDetails: FeeDetail[] = [{ type: 'provider_fee', amount: providerFee, currency, application: null }];
  const net = gross - providerFee - applicationFee;
  const entries: PostingEntry[] = [
    {
      ...common,
      balance_id: balances.clearing,
      amount: -gross,
      state: 'available',
      type: 'charge',
      category: 'clearing',
    },
    {
      ...common,
      balance_id: balances.fees,
      amount: providerFee,
      state: 'available',
      type: 'fee',
      category: 'provider_fee',
      reporting_category: 'fee',
    },
  ];
  const held = { ...common, state: 'hold' as const, available_on: availableOn };
  if (!balances.connected) {
    entries.push({
      ...held,
      balance_id: balances.merchant,
      amount: net,
      type: 'charge',
      category: 'payment',
      reporting_category: 'charge',
      fee: providerFee,
      fee_details: feeDetails,
    });
    return { entries, net };
  }
  if (applicationFee > 0) {
    feeDetails.push({ type: 'application_fee', amount: applicationFee, currency, application: charge.application_id });
  }
  entries.push({
    ...held,
    balance_id: balances.connected,
    amount: net,
    type: 'charge',
    category: 'destination_payment',
    reporting_category: 'charge',
    transfer_id: charge.id,
    fee: providerFee + applicationFee,
    fee_details: feeDetails,
  });
  if (applicationFee > 0) {
    entries.push({
      ...held,
      balance_id: balances.merchant,
      amount: applicationFee,
      type: 'application_fee',
      category: 'application_fee',
      reporting_category: 'application_fee',
    });
  }
  return { entries, net };
}

/** Books a succeeded charge into the ledger: its balances, the journal chargeJournal builds, the posting. */
@Injectable()
export class ChargeJournals {
  private readonly delayMs: number;

  constructor(
    private readonly posting: PostingService,
    private readonly balances: BalancesService,
    private readonly clock: Clock,
    config: ConfigService<AllConfig, true>,
  ) {
    this.delayMs = config.get('app.settlementDelayHours', { infer: true }) * 3600 * 1000;
  }

  async postSucceededCharge(
    charge: Charge,
    providerFee: number,
    destination: string | null,
    applicationFee: number,
    manager: EntityManager,
  ): Promise<ChargeSettlement> {
    const applicationId = charge.application_id;
    const balance = async (account: string) =>
      (await this.balances.getOrCreate({ application_id: applicationId, account, currency: charge.currency }, manager))
        .id;
    const balances = {
      clearing: await balance('provider_clearing'),
      fees: await balance('fees'),
      merchant: await balance('merchant'),
      connected: destination ? await balance(connectedAccountName(destination)) : null,
    };
    const availableOn = new Date(this.clock.nowMs() + this.delayMs);
    const { entries, net } = chargeJournal({ charge, providerFee, applicationFee, availableOn, balances });
    const posted = await this.posting.post(
      {
        application_id: applicationId,
        description: `Charge ${charge.id}`,
        event_type: 'charge.succeeded',
        event_id: charge.id,
        entries,
      },
      manager,
    );
    const idOf = (balanceId: string, type: string) =>
      [...posted.entries, ...posted.pending].find((e) => e.balance_id === balanceId && e.type === type)?.id ?? null;
    const connected = balances.connected;
    return {
      balance_id: connected ?? balances.merchant,
      net,
      transfer_data: connected && destination ? { destination, amount: net, balance_id: connected } : null,
      application_fee_entry: connected && applicationFee > 0 ? idOf(balances.merchant, 'application_fee') : null,
      transfer_entry: connected ? idOf(connected, 'charge') : null,
    };
  }
}
