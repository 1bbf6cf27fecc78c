import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error.js';
import { BalancesService, PostingService, type Posting, type PostingEntry } from '../ledger/index.js';
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

export type BalanceAmounts = Map<string, { available: number; hold: number }>;

/**
 * How each part of a refund is taken from its balance as it stands (read under the balance's
 * lock): available first, then hold down to zero, any rest from available (which may go below
 * zero); `hold` never does. Refuses (E7504) a part larger than its balance's total (available +
 * hold) plus `allowedNegative`: a charge's own gross is always refundable, so a balance may go
 * negative by at most the charge's unreturned fees; anything beyond needs funds.
 */
export function splitRefundDebit(
  parts: RefundDebit['parts'],
  balances: BalanceAmounts,
  allowedNegative: number,
): RefundDebitPart[] {
  return parts.map((part) => {
    const balance = balances.get(part.balanceId) ?? { available: 0, hold: 0 };
    const total = balance.available + balance.hold;
    if (total + allowedNegative < part.amount) {
      throw new AppError(
        RefundErrors.E7504,
        `Balance "${part.balanceId}" has ${total} (available and held); the refund takes ${part.amount} from it and may take it to -${allowedNegative} at most.`,
      );
    }
    const fromAvailable = Math.max(0, Math.min(part.amount, balance.available));
    const hold = Math.max(0, Math.min(part.amount - fromAvailable, balance.hold));
    return { balance_id: part.balanceId, amount: part.amount, available: part.amount - hold, hold };
  });
}

/** Created: each part leaves its balance (its available and held shares) for `refunds_pending`. */
export function refundCreatedJournal(d: RefundDebit, split: RefundDebitPart[], pendingId: string): Posting {
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
  for (const part of split) {
    if (part.available > 0) {
      entries.push({ ...common, balance_id: part.balance_id, amount: -part.available, state: 'available' });
    }
    if (part.hold > 0) entries.push({ ...common, balance_id: part.balance_id, amount: -part.hold, state: 'hold' });
  }
  const amount = split.reduce((sum, p) => sum + p.amount, 0);
  entries.push({ ...common, balance_id: pendingId, amount, state: 'available', category: 'clearing' });
  return {
    application_id: d.applicationId,
    description: `Refund ${d.id} of charge ${d.chargeId}`,
    event_type: 'refund.created',
    event_id: d.id,
    entries,
  };
}

type JournaledRefund = Pick<Refund, 'id' | 'application_id' | 'charge_id' | 'currency' | 'amount' | 'debits'>;

/** A refund's journal after the provider's answer: every entry available, its charge as the parent. */
function refundAnswerJournal(
  refund: JournaledRefund,
  eventType: string,
  legs: Array<Pick<PostingEntry, 'balance_id' | 'amount' | 'type' | 'category' | 'reporting_category'>>,
): Posting {
  return {
    application_id: refund.application_id,
    description: `Refund ${refund.id} of charge ${refund.charge_id}`,
    event_type: eventType,
    event_id: refund.id,
    entries: legs.map((leg) => ({
      ...leg,
      currency: refund.currency,
      state: 'available' as const,
      source: 'refund',
      parent_event_type: 'charge',
      parent_event_id: refund.charge_id,
    })),
  };
}

/** Succeeded: the provider paid the refund out, so the money leaves `refunds_pending` through provider clearing. */
export function refundSucceededJournal(refund: JournaledRefund, pendingId: string, clearingId: string): Posting {
  const amount = Number(refund.amount);
  const leg = { type: 'refund', category: 'clearing', reporting_category: 'refund' };
  return refundAnswerJournal(refund, 'refund.succeeded', [
    { ...leg, balance_id: pendingId, amount: -amount },
    { ...leg, balance_id: clearingId, amount },
  ]);
}

/** Failed: the provider refused, so each debit goes back to its balance's available funds. */
export function refundFailedJournal(refund: JournaledRefund, pendingId: string): Posting {
  const leg = { type: 'refund_failure', category: 'refund_failure', reporting_category: 'refund_failure' };
  return refundAnswerJournal(refund, 'refund.failed', [
    { ...leg, balance_id: pendingId, amount: -Number(refund.amount) },
    ...refund.debits.map((d) => ({ ...leg, balance_id: d.balance_id, amount: d.amount })),
  ]);
}

/**
 * Books a refund into the ledger (docs/REFUNDS.md), in the caller's transaction, through the
 * PostingService:
 *
 *   created    debited balance(s)     -amount (available first, then hold)   refunds_pending +amount
 *   succeeded  refunds_pending        -amount                                provider_clearing +amount
 *   failed     refunds_pending        -amount                                each debited balance +its part (available)
 *
 * Fees are not returned: the provider fee stays in `fees`.
 */
@Injectable()
export class RefundJournals {
  constructor(
    private readonly posting: PostingService,
    private readonly balances: BalancesService,
  ) {}

  /**
   * Debits each part's balance as `splitRefundDebit` decides. The balances (refunds_pending with
   * them) are locked in id order before the split is read, so a concurrent debit or hold release
   * cannot change it before the posting; the held part shrinks the balance's queued hold releases
   * (the posting statement, posting.sql.ts).
   */
  async debit(d: RefundDebit, manager: EntityManager): Promise<RefundDebitPart[]> {
    const parts = d.parts.filter((p) => p.amount > 0);
    const pending = await this.pendingBalance(d.applicationId, d.currency, manager);
    const current = await this.balances.lockAmounts(
      d.applicationId,
      [...parts.map((p) => p.balanceId), pending.id],
      manager,
    );
    const split = splitRefundDebit(parts, current, d.allowedNegative);
    const posted = await this.posting.post(refundCreatedJournal(d, split, pending.id), manager);
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

  async settle(refund: Refund, manager: EntityManager): Promise<void> {
    const pending = await this.pendingBalance(refund.application_id, refund.currency, manager);
    const clearing = await this.balances.getOrCreate(
      { application_id: refund.application_id, account: 'provider_clearing', currency: refund.currency },
      manager,
    );
    await this.posting.post(refundSucceededJournal(refund, pending.id, clearing.id), manager);
  }

  async reverse(refund: Refund, manager: EntityManager): Promise<void> {
    const pending = await this.pendingBalance(refund.application_id, refund.currency, manager);
    await this.posting.post(refundFailedJournal(refund, pending.id), manager);
  }

  private pendingBalance(applicationId: string, currency: string, manager: EntityManager) {
    return this.balances.getOrCreate({ application_id: applicationId, account: REFUNDS_PENDING, currency }, manager);
  }
}
