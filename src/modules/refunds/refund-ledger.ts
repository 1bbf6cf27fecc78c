import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error.js';
import { BalancesService, PostingService, type PostingEntry } from '../ledger/index.js';
import type { Refund } from './entities/refund.entity.js';
import { RefundErrors } from './refunds.errors.js';

/** The account that holds a refund's money between its debit and the provider's answer. */
export const REFUNDS_PENDING = 'refunds_pending';

export interface RefundDebit {
  id: string;
  applicationId: string;
  chargeId: string;
  balanceId: string;
  currency: string;
  amount: number;
  /** How far below zero the balance may go: the refunded charge's provider fee, which is not returned. */
  allowedNegative: number;
}

/**
 * A refund's journals (docs/REFUNDS.md), all through the PostingService:
 *
 *   created    merchant-side balance  -amount (available first, then hold)   refunds_pending +amount
 *   succeeded  refunds_pending        -amount                                provider_clearing +amount
 *   failed     refunds_pending        -amount                                merchant-side balance +amount (available)
 *
 * Fees are not returned: the provider fee stays in `fees`.
 */
@Injectable()
export class RefundLedger {
  constructor(
    private readonly posting: PostingService,
    private readonly balances: BalancesService,
  ) {}

  /**
   * Debits the charge's balance; refuses (E7504) when the balance's total (available + hold) would
   * go below -allowedNegative (the policy, docs/REFUNDS.md: a charge's own gross is always
   * refundable, so the balance may go negative by at most the charge's unreturned provider fee;
   * anything beyond needs funds). The total is checked on
   * the running balance the posting computed under the balance's lock, so concurrent debits
   * cannot both pass; the available/hold split is read just before.
   */
  async debit(d: RefundDebit, manager: EntityManager): Promise<{ available: number; hold: number }> {
    const current = (await this.balances.responsesById(d.applicationId, [d.balanceId])).get(d.balanceId);
    const available = Math.max(0, Math.min(d.amount, current?.available ?? 0));
    const hold = d.amount - available;
    if (current && current.available + current.hold + d.allowedNegative < d.amount) {
      throw new AppError(
        RefundErrors.E7504,
        `Balance "${d.balanceId}" has ${current.available + current.hold} (available and held); the refund of ${d.amount} may take it to -${d.allowedNegative} at most.`,
      );
    }
    const pending = await this.pendingBalance(d.applicationId, d.currency, manager);
    const common = {
      currency: d.currency,
      type: 'refund',
      source: 'refund',
      category: 'refund',
      reporting_category: 'refund',
      parent_event_type: 'charge',
      parent_event_id: d.chargeId,
    };
    const entries: PostingEntry[] = [];
    if (available > 0) entries.push({ ...common, balance_id: d.balanceId, amount: -available, state: 'available' });
    if (hold > 0) entries.push({ ...common, balance_id: d.balanceId, amount: -hold, state: 'hold' });
    entries.push({ ...common, balance_id: pending.id, amount: d.amount, state: 'available', category: 'clearing' });
    const posted = await this.posting.post(
      {
        application_id: d.applicationId,
        description: `Refund ${d.id} of charge ${d.chargeId}`,
        event_type: 'refund.created',
        event_id: d.id,
        entries,
      },
      manager,
    );
    const after = Math.min(
      ...posted.entries.filter((e) => e.balance_id === d.balanceId).map((e) => Number(e.running_balance)),
    );
    if (after < -d.allowedNegative) {
      throw new AppError(
        RefundErrors.E7504,
        `The refund would leave balance "${d.balanceId}" at ${after}, below -${d.allowedNegative}.`,
      );
    }
    return { available, hold };
  }

  /** The provider paid the refund out: the money leaves through provider clearing. */
  async settle(refund: Refund, manager: EntityManager): Promise<void> {
    const pending = await this.pendingBalance(refund.application_id, refund.currency, manager);
    const clearing = await this.balances.getOrCreate(
      { application_id: refund.application_id, account: 'provider_clearing', currency: refund.currency },
      manager,
    );
    await this.move(refund, pending.id, clearing.id, 'refund.succeeded', 'refund', 'clearing', manager);
  }

  /** The provider refused: the debit goes back to the balance's available funds. */
  async reverse(refund: Refund, manager: EntityManager): Promise<void> {
    const pending = await this.pendingBalance(refund.application_id, refund.currency, manager);
    await this.move(
      refund,
      pending.id,
      refund.balance_id!,
      'refund.failed',
      'refund_failure',
      'refund_failure',
      manager,
    );
  }

  private pendingBalance(applicationId: string, currency: string, manager: EntityManager) {
    return this.balances.getOrCreate({ application_id: applicationId, account: REFUNDS_PENDING, currency }, manager);
  }

  private async move(
    refund: Refund,
    from: string,
    to: string,
    eventType: string,
    type: string,
    category: string,
    manager: EntityManager,
  ): Promise<void> {
    const amount = Number(refund.amount);
    const common = {
      currency: refund.currency,
      state: 'available' as const,
      type,
      source: 'refund',
      category,
      reporting_category: type,
      parent_event_type: 'charge',
      parent_event_id: refund.charge_id,
    };
    await this.posting.post(
      {
        application_id: refund.application_id,
        description: `Refund ${refund.id} of charge ${refund.charge_id}`,
        event_type: eventType,
        event_id: refund.id,
        entries: [
          { ...common, balance_id: from, amount: -amount },
          { ...common, balance_id: to, amount },
        ],
      },
      manager,
    );
  }
}
