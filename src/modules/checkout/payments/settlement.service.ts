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

/** The ledger account name of a connected account's balance. */

/**
 * Books a succeeded charge into the ledger as ONE journal (see docs/COLLECTION.md):
 *
 *   provider_clearing   -gross                      available
 *   fees                +provider fee               available
 *   merchant            +gross - fee                hold until available_on     (no destination)
 *   connected_<id>      +gross - app fee - fee      hold until available_on     (destination)
 *   merchant            +app fee                    hold until available_on     (destination, app fee > 0)
 *
 * The merchant-side entry carries `fee` and `fee_details`, so its balance transaction shows the
 * amount, fee, net and gross of the payment.
 */
@Injectable()
export class SettlementService {
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
    const currency = charge.currency;
    const gross = Number(charge.amount);
    const availableOn = new Date(this.clock.nowMs() + this.delayMs);
    const applicationId = charge.application_id;
    const balance = (account: string) =>
      this.balances.getOrCreate({ application_id: applicationId, account, currency }, manager);
    const clearing = await balance('provider_clearing');
    const fees = await balance('fees');
    const merchant = await balance('merchant');
    const connected = destination ? await balance(connectedAccountName(destination)) : null;

    const common = { currency, source: 'payment', parent_event_type: 'charge', parent_event_id: charge.id };
    const feeDetails: FeeDetail[] = [{ type: 'provider_fee', amount: providerFee, currency, application: null }];
    const net = gross - providerFee - (connected ? applicationFee : 0);
    const entries: PostingEntry[] = [
      { ...common, balance_id: clearing.id, amount: -gross, state: 'available', type: 'charge', category: 'clearing' },
      {
        ...common,
        balance_id: fees.id,
        amount: providerFee,
        state: 'available',
        type: 'fee',
        category: 'provider_fee',
        reporting_category: 'fee',
      },
    ];
    if (connected) {
      if (applicationFee > 0) {
        feeDetails.push({
          type: 'application_fee',
          amount: applicationFee,
          currency,
          application: charge.application_id,
        });
      }
      entries.push({
        ...common,
        balance_id: connected.id,
        amount: net,
        state: 'hold',
        available_on: availableOn,
        type: 'charge',
        category: 'destination_payment',
        reporting_category: 'charge',
        transfer_id: charge.id,
        fee: providerFee + applicationFee,
        fee_details: feeDetails,
      });
      if (applicationFee > 0) {
        entries.push({
          ...common,
          balance_id: merchant.id,
          amount: applicationFee,
          state: 'hold',
          available_on: availableOn,
          type: 'application_fee',
          category: 'application_fee',
          reporting_category: 'application_fee',
        });
      }
    } else {
      entries.push({
        ...common,
        balance_id: merchant.id,
        amount: net,
        state: 'hold',
        available_on: availableOn,
        type: 'charge',
        category: 'payment',
        reporting_category: 'charge',
        fee: providerFee,
        fee_details: feeDetails,
      });
    }
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
      posted.entries.find((e) => e.balance_id === balanceId && e.type === type)?.id ?? null;
    return {
      balance_id: (connected ?? merchant).id,
      net,
      transfer_data: connected && destination ? { destination, amount: net, balance_id: connected.id } : null,
      application_fee_entry: connected && applicationFee > 0 ? idOf(merchant.id, 'application_fee') : null,
      transfer_entry: connected ? idOf(connected.id, 'charge') : null,
    };
  }
}
