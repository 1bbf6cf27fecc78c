import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error.js';
import { BalancesService, PostingService, type PostingEntry } from '../ledger/index.js';
import type { Refund, RefundDebitPart } from './entities/refund.entity.js';
import { RefundErrors } from './refunds.errors.js';

/** The account that holds a refund's money between its debit and the provider's answer. */
export const REFUNDS_PENDING = 'refunds_pending';

export interface RefundDebit {
  id: string;
  applicationId: string;
  chargeId: string;
  currency: string;
  /** The balances to debit and how much from each (one for own charges, up to two for destination charges). */
  parts: Array<{ balanceId: string; amount: number }>;
  /** How far below zero a debited balance may go: the charge's fees, which are not returned. */
  allowedNegative: number;
}
/**
 * A refund's journals (docs/REFUNDS.md), all through the PostingService:
 *
 *   created    debited balance(s)     -amount (available first, then hold)   refunds_pending +amount
 *   succeeded  refunds_pending        -amount                                provider_clearing +amount
 *   failed     refunds_pending        -amount                                each debited balance +its part (available)
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
   * Debits each part's balance, available first, then hold (never below zero), any rest from
   * available; refuses (E7504) when a balance's total (available + hold) would go below
   * -allowedNegative (the policy, docs/REFUNDS.md: a charge's own gross is always refundable, so a
   * balance may go negative by at most the charge's unreturned fees; anything beyond needs funds).
   * The balances (refunds_pending with them) are locked in id order before the split is read, so a
   * concurrent debit or hold release cannot change it before the posting; the held part shrinks
   * the balance's queued hold releases (the posting statement, posting.sql.ts).
   */
  async debit(d: RefundDebit, manager: EntityManager): Promise<RefundDebitPart[]> {
    const parts = d.parts.filter((p) => p.amount > 0);
    const pending = await this.pendingBalance(d.applicationId, d.currency, manager);
    const current = await this.balances.lockAmounts(
      d.applicationId,
      [...parts.map((p) => p.balanceId), pending.id],
      manager,
    );
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
    const split: RefundDebitPart[] = [];
    for (const part of parts) {
      const balance = current.get(part.balanceId) ?? { available: 0, hold: 0 };
      const total = balance.available + balance.hold;
      if (total + d.allowedNegative < part.amount) {
        throw new AppError(
          RefundErrors.E7504,
          `Balance "${part.balanceId}" has ${total} (available and held); the refund takes ${part.amount} from it and may take it to -${d.allowedNegative} at most.`,
        );
      }
      const fromAvailable = Math.max(0, Math.min(part.amount, balance.available));
      const hold = Math.max(0, Math.min(part.amount - fromAvailable, balance.hold));
      const available = part.amount - hold;
      if (available > 0)
        entries.push({ ...common, balance_id: part.balanceId, amount: -available, state: 'available' });
      if (hold > 0) entries.push({ ...common, balance_id: part.balanceId, amount: -hold, state: 'hold' });
      split.push({ balance_id: part.balanceId, amount: part.amount, available, hold });
    }
    const amount = parts.reduce((sum, p) => sum + p.amount, 0);
    entries.push({ ...common, balance_id: pending.id, amount, state: 'available', category: 'clearing' });
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
    for (const part of parts) {
      const after = Math.min(
        ...posted.entries.filter((e) => e.balance_id === part.balanceId).map((e) => Number(e.running_balance)),
      );
      if (after < -d.allowedNegative) {
        throw new AppError(
          RefundErrors.E7504,
          `The refund would leave balance "${part.balanceId}" at ${after}, below -${d.allowedNegative}.`,
        );
      }
    }
    return split;
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

  /** The provider refused: each debit goes back to its balance's available funds. */
  async reverse(refund: Refund, manager: EntityManager): Promise<void> {
    const pending = await this.pendingBalance(refund.application_id, refund.currency, manager);
    const common = {
      currency: refund.currency,
      state: 'available' as const,
      type: 'refund_failure',
      source: 'refund',
      category: 'refund_failure',
      reporting_category: 'refund_failure',
      parent_event_type: 'charge',
      parent_event_id: refund.charge_id,
    };
    await this.posting.post(
      {
        application_id: refund.application_id,
        description: `Refund ${refund.id} of charge ${refund.charge_id}`,
        event_type: 'refund.failed',
        event_id: refund.id,
        entries: [
          { ...common, balance_id: pending.id, amount: -Number(refund.amount) },
          ...refund.debits.map((d) => ({ ...common, balance_id: d.balance_id, amount: d.amount })),
        ],
      },
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
