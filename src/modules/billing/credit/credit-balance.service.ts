import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { BalancesService, PostingService } from '../../ledger/index.js';
import type { CreditDecision, CreditedEvent } from '../../meter/index.js';
import { allocateCredit, type CreditDraw, type PayableLine } from './credit-allocation.js';
import { CREDIT_ACCOUNTS, applyPosting } from './credit.journals.js';
import { CreditGrantsRepository } from './credit-grants.repository.js';
import { rateAdmission } from './credit-rating.js';
import { CreditUsageRepository } from './credit-usage.repository.js';

/** What applyToInvoice needs of an invoice (the invoices entity fits, with its lines mapped). */
export interface CreditableInvoice {
  id: string;
  application_id: string;
  customer_id: string;
  currency: string;
  /**
   * The lines credit may pay, in invoice order: each line's amount after its discount share and
   * before tax (Stripe applies billing credits after discounts, before tax). `price_id` null: a
   * line of no price (only credit for any price pays it).
   */
  lines: PayableLine[];
  /** At most this much in all (e.g. the amount due); default: the sum of the lines. */
  limit?: number;
  /** The invoice's time by the customer's clock: grants expired or not yet effective then do not pay. */
  at: Date;
  /** A subscription period's invoice: the usage reserved for that period is released (it is billed now). */
  subscription_id?: string | null;
  period_start?: Date | null;
}

export interface AppliedCredit {
  /** Minor units the invoice no longer has to collect. */
  amount_applied: number;
  /** Which grant paid how much of which line (`line_index` into `lines`). */
  draws: CreditDraw[];
  /** The ledger journal of the application (null when nothing was applied). */
  journal_id: string | null;
  /** Unbilled usage of credit-enforced meters released for the invoice's period. */
  usage_released: number;
}

/**
 * The customer's prepaid credit as invoicing and ingestion see it (docs/BILLING.md, "Prepaid credit").
 */
@Injectable()
export class CreditBalanceService {
  constructor(
    private readonly grants: CreditGrantsRepository,
    private readonly usage: CreditUsageRepository,
    private readonly balances: BalancesService,
    private readonly postings: PostingService,
    private readonly clock: Clock,
  ) {}

  /**
   * Draws the customer's credit for an invoice, inside the caller's transaction (`manager`, in the
   * request's or job's mode), before the invoice is charged. Call it exactly once per invoice, in the
   * transaction that finalizes it, then charge `total - amount_applied` (collect nothing at 0).
   *
   * - Which credit: the customer's active grants in the invoice's currency, effective and not
   *   expired at `invoice.at`, locked in id order until the caller commits (two invoices of one
   *   customer never draw the same credit).
   * - Which lines: each line from the grants whose `applicability.price_ids` name its price (or that
   *   apply to any price), the grant expiring first first (a restricted grant before an unrestricted
   *   one on a tie); never more than a line's amount, a grant's remaining, or `invoice.limit`.
   * - The ledger: one journal `invoice.credit_applied` (event_id = the invoice id) moves the applied
   *   amount from the customer's `customer_credit` balance to the application's `credit_applied`
   *   balance; the grants' `remaining` drop by their draws in the same transaction.
   * - Usage: with `subscription_id` and `period_start`, the unbilled usage reserved by
   *   credit-enforced meters for that period is released, since this invoice bills it.
   *
   * If the caller's transaction rolls back, all of it does. Answers what was applied and from where.
   */
  async applyToInvoice(manager: EntityManager, invoice: CreditableInvoice): Promise<AppliedCredit> {
    const applicationId = invoice.application_id;
    const currency = invoice.currency.toUpperCase();
    const now = this.clock.now();
    const usage_released =
      invoice.subscription_id && invoice.period_start
        ? await this.usage.releasePeriod(
            applicationId,
            invoice.customer_id,
            currency,
            invoice.subscription_id,
            invoice.period_start,
            now,
            manager,
          )
        : 0;
    const usable = await this.grants.lockUsable(applicationId, invoice.customer_id, currency, invoice.at, manager);
    const draws = allocateCredit(
      usable.map((g) => ({
        id: g.id,
        remaining: Number(g.remaining),
        price_ids: g.price_ids,
        expires_at: g.expires_at,
      })),
      invoice.lines,
      invoice.limit,
    );
    const amount_applied = draws.reduce((sum, d) => sum + d.amount, 0);
    if (amount_applied === 0) return { amount_applied, draws, journal_id: null, usage_released };
    const perGrant = new Map<string, number>();
    for (const d of draws) perGrant.set(d.grant_id, (perGrant.get(d.grant_id) ?? 0) + d.amount);
    await this.grants.draw(
      applicationId,
      [...perGrant].map(([id, amount]) => ({ id, amount })),
      now,
      manager,
    );
    const customerBalance = await this.balances.getOrCreate(
      { application_id: applicationId, account: CREDIT_ACCOUNTS.customer, customer_id: invoice.customer_id, currency },
      manager,
    );
    const applied = await this.balances.getOrCreate(
      { application_id: applicationId, account: CREDIT_ACCOUNTS.applied, currency },
      manager,
    );
    const posted = await this.postings.post(
      applyPosting(
        { applicationId, currency, customerBalanceId: customerBalance.id, otherBalanceId: applied.id },
        invoice.id,
        amount_applied,
      ),
      manager,
    );
    return { amount_applied, draws, journal_id: posted.journal.id, usage_released };
  }

  /**
   * The CreditGate's reserver: rates an event of a credit-enforced meter with the customer's
   * subscription price on that meter (its marginal cost in the item's current period) and adds the
   * cost to the customer's unbilled usage if it still fits the credit usable for that price.
   */
  async reserve(event: CreditedEvent, manager: EntityManager): Promise<CreditDecision> {
    const { applicationId, customerId } = event;
    const now = this.clock.now();
    const found = await this.usage.lockItemBucket(applicationId, customerId, event.meterId, now, manager);
    if (!found) return { ok: false, reason: 'no_price' };
    const { item, bucket } = found;
    const admission = rateAdmission(item, event.aggregation, bucket, event.value);
    if (admission.cost === 0) {
      await this.usage.setBucket(item, admission.quantity, admission.amount, manager);
    } else {
      const at = new Date(item.now);
      const { admitted, available } = await this.usage.admit(
        applicationId,
        customerId,
        item,
        admission,
        at,
        now,
        manager,
      );
      if (!admitted) {
        return { ok: false, reason: 'insufficient_credit', cost: admission.cost, currency: item.currency, available };
      }
    }
    return { ok: true, cost: admission.cost, currency: item.currency };
  }
}
