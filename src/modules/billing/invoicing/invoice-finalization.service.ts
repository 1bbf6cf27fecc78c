import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { newId } from '../../../common/ids.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { InvoicesService, type Invoice } from '../../checkout/index.js';
import { CreditBalanceService } from '../credit/credit-balance.service.js';
import { SubscriptionPaymentsService } from '../subscriptions/index.js';
import type { Price } from '../catalog/prices/entities/price.entity.js';
import type { InvoiceLine } from './entities/invoice-line.entity.js';
import type { SubscriptionInvoice } from './entities/subscription-invoice.entity.js';
import { InvoiceComposer } from './invoice-composer.js';
import { InvoicingRepository } from './invoicing.repository.js';
import { MeteredLinesService } from './metered-lines.service.js';
import { stringify } from './period-close.service.js';

/** Meter events are accepted at most 35 days back: periods older than this can receive no late event. */
const LATE_EVENT_WINDOW_MS = 36 * 86_400_000;

/**
 * The end of a period's grace window (docs/BILLING.md, "The life of a period"): the draft invoice
 * takes the events that arrived meanwhile (its metered lines claim them and are recomputed), takes
 * late events of earlier, already finalized periods as separate "usage from an earlier period"
 * lines, draws the customer's prepaid credit, is recomposed (discount, credit, tax, totals) and
 * finalized through InvoicesService.finalizeLocked (`invoice.finalized`, InvoiceHooks.finalized). An
 * amount due of zero or less is paid at once without a charge (`invoice.paid`). A draft the merchant finalized or voided meanwhile is left as it is.
 */
@Injectable()
export class InvoiceFinalizationService {
  constructor(
    private readonly repository: InvoicingRepository,
    private readonly metered: MeteredLinesService,
    private readonly composer: InvoiceComposer,
    private readonly invoices: InvoicesService,
    private readonly credit: CreditBalanceService,
    private readonly subscriptions: SubscriptionPaymentsService,
    private readonly clock: Clock,
  ) {}

  /** One batch of invoices whose grace window ended; answers how many were claimed. */
  dueBatch(now: Date, limit: number, scope: JobScope): Promise<number> {
    return this.repository.transaction(async (manager) => {
      const due = await this.repository.claimDue(manager, now, limit, scope);
      for (const schedule of due)
        await this.finalize(schedule, schedule.test_clock_id ? schedule.finalize_at : now, manager);
      return due.length;
    });
  }

  private async finalize(schedule: SubscriptionInvoice, at: Date, manager: EntityManager): Promise<void> {
    const applicationId = schedule.application_id;
    await this.repository.markFinalized(applicationId, schedule.invoice_id, at, manager);
    const invoice = await this.invoices.lockForUpdate(applicationId, schedule.invoice_id, manager);
    if (!invoice || invoice.status !== 'draft') return;
    const lines = await this.repository.linesOf(applicationId, invoice.id, manager);
    const prices = await this.repository.pricesById(
      applicationId,
      lines.map((l) => l.price_id).filter((id): id is string => id !== null),
      manager,
    );
    const now = this.clock.now();
    const added: InvoiceLine[] = [];
    for (const line of lines.filter((l) => l.type === 'metered')) {
      const price = prices.get(line.price_id!)!;
      await this.metered.claim(line, { start: line.period_start, end: line.period_end }, at, manager);
      Object.assign(line, stringify(await this.metered.facts(line, price, schedule.terms.free_usage, manager)), {
        updated_at: now,
      });
      added.push(...(await this.earlierUsage(schedule, line, price, at, manager)));
    }
    await this.finalizeWithCredit(invoice, schedule, { stored: lines, added }, at, manager);
  }

  /**
   * The locked draft `invoice` of `schedule`, its lines rated: discount shares, then the customer's
   * prepaid credit drawn on each line after its discount (CreditBalanceService.applyToInvoice, the
   * ledger's `invoice.credit_applied` journal, price applicability per line), then taxes on what the
   * credit left; lines written, totals revised, finalized (`invoice.finalized`, collection schedules
   * `amount_due`), paid at once when nothing is left to collect, and the subscription's
   * `latest_invoice`. Used by the period's finalization and by the immediate invoices of a cancel or
   * an update.
   */
  async finalizeWithCredit(
    invoice: Invoice,
    schedule: Pick<SubscriptionInvoice, 'subscription_id' | 'period_start' | 'terms'>,
    lines: { stored: InvoiceLine[]; added: InvoiceLine[] },
    at: Date,
    manager: EntityManager,
  ): Promise<Invoice> {
    const all = [...lines.stored, ...lines.added];
    for (const line of all) line.credit_amount = '0';
    this.composer.apply(all, schedule.terms);
    const credit = await this.credit.applyToInvoice(manager, {
      id: invoice.id,
      application_id: invoice.application_id,
      customer_id: invoice.customer_id,
      currency: invoice.currency,
      at,
      lines: all.map((l) => ({ price_id: l.price_id, amount: Number(l.amount) - Number(l.discount_amount) })),
      subscription_id: schedule.subscription_id,
      period_start: schedule.period_start,
    });
    const perLine = new Map<number, number>();
    for (const d of credit.draws) perLine.set(d.line_index, (perLine.get(d.line_index) ?? 0) + d.amount);
    all.forEach((l, i) => (l.credit_amount = String(perLine.get(i) ?? 0)));
    const totals = this.composer.apply(all, schedule.terms);
    for (const line of lines.stored) await this.repository.updateLine(line, manager);
    await this.repository.insertLines(lines.added, manager);
    const revised = await this.invoices.reviseDraftLocked(
      invoice,
      {
        lines: totals.lineItems,
        subtotal: totals.subtotal,
        total: totals.total,
        creditApplied: credit.amount_applied,
      },
      manager,
    );
    const open = await this.invoices.finalizeLocked(revised, manager, at);
    await this.subscriptions.linkLatestInvoice(invoice.application_id, schedule.subscription_id, invoice.id, manager);
    if (totals.total - credit.amount_applied <= 0) return this.invoices.settleWithoutChargeLocked(open, manager, at);
    return open;
  }

  /**
   * Late events: the customer's events of `line`'s meter that belong to earlier periods of the
   * subscription whose invoices were finalized, and that no line counts yet, each period's on a
   * `metered_earlier` line of this invoice.
   */
  private async earlierUsage(
    schedule: SubscriptionInvoice,
    line: InvoiceLine,
    price: Price,
    at: Date,
    manager: EntityManager,
  ): Promise<InvoiceLine[]> {
    const earlier = await this.repository.finalizedMeteredLines(
      {
        applicationId: line.application_id,
        subscriptionId: schedule.subscription_id,
        meterId: line.meter_id!,
        before: line.period_start,
        since: new Date(at.getTime() - LATE_EVENT_WINDOW_MS),
      },
      manager,
    );
    const added: InvoiceLine[] = [];
    const now = this.clock.now();
    for (const original of earlier) {
      const late: InvoiceLine = Object.assign(Object.create(Object.getPrototypeOf(line)) as InvoiceLine, {
        ...line,
        id: newId(),
        type: 'metered_earlier' as const,
        description: `Usage from an earlier period (${original.period_start.toISOString()} to ${original.period_end.toISOString()})`,
        earlier_line_id: original.id,
        period_start: original.period_start,
        period_end: original.period_end,
        created_at: now,
        updated_at: now,
      });
      const claimed = await this.metered.claim(
        late,
        { start: original.period_start, end: original.period_end },
        at,
        manager,
      );
      if (claimed === 0) continue;
      const originalTerms = await this.repository.findSchedule(line.application_id, original.invoice_id, manager);
      Object.assign(
        late,
        stringify(await this.metered.facts(late, price, originalTerms?.terms.free_usage ?? false, manager)),
      );
      added.push(late);
    }
    return added;
  }
}
