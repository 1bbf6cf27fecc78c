import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { BalancesService, PostingService } from '../../ledger/index.js';
import type { CreditDecision, CreditedEvent } from '../../meter/index.js';
import { allocateCredit, type CreditDraw, type PayableLine } from './credit-allocation.js';
import { CREDIT_ACCOUNTS, applyPosting } from './credit.journals.js';
import { CreditGrantsRepository } from './credit-grants.repository.js';
import { admitInOrder } from './credit-rating.js';
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
   * The CreditGate's reserver: rates events of one customer and one credit-enforced meter, in arrival
   * order, with the customer's subscription price on that meter (each at its marginal cost in the
   * item's current period, on the quantity the admitted ones before it left) and adds the admitted
   * ones' costs to the customer's unbilled usage, each only if it still fits the credit usable for
   * that price. The item's bucket and the usage row stay locked until the caller commits: the
   * authority across processes and replicas, whose transactions for the customer wait for each other.
   */
  async reserve(events: CreditedEvent[], manager: EntityManager): Promise<CreditDecision[]> {
    if (events.length === 0) return [];
    const { applicationId, customerId, meterId, aggregation } = events[0];
    if (events.some((e) => e.applicationId !== applicationId || e.customerId !== customerId || e.meterId !== meterId)) {
      throw new Error('CreditBalanceService.reserve takes the events of one application, customer and meter');
    }
    const now = this.clock.now();
    const found = await this.usage.lockItemBucket(applicationId, customerId, meterId, now, manager);
    if (!found) return events.map(() => ({ ok: false, reason: 'no_price' }) as const);
    const { item, bucket } = found;
    const unbilled = await this.usage.lockUnbilled(applicationId, customerId, item.currency, manager);
    const credit =
      unbilled === null
        ? 0
        : await this.usage.usableCredit(applicationId, customerId, item, new Date(item.now), manager);
    const run = admitInOrder(
      item,
      aggregation,
      bucket,
      events.map((e) => e.value),
      unbilled,
      credit,
    );
    if (run.changed) await this.usage.record(applicationId, customerId, item, run.bucket, run.unbilled, now, manager);
    const currency = item.currency;
    return run.decisions.map((d): CreditDecision =>
      d.admitted
        ? { ok: true, cost: d.cost, currency }
        : { ok: false, reason: 'insufficient_credit', cost: d.cost, currency, available: d.available },
    );
  }
}
