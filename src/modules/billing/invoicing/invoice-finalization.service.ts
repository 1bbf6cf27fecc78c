import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { newId } from '../../../common/ids.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { InvoicesService } from '../../checkout/index.js';
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
 * lines, is recomposed (discount, tax, totals) and finalized through InvoicesService.finalizeLocked
 * (`invoice.finalized`, InvoiceHooks.finalized). A total of zero or less is paid at once without a
 * charge (`invoice.paid`). A draft the merchant finalized or voided meanwhile is left as it is.
 */
@Injectable()
export class InvoiceFinalizationService {
  constructor(
    private readonly repository: InvoicingRepository,
    private readonly metered: MeteredLinesService,
    private readonly composer: InvoiceComposer,
    private readonly invoices: InvoicesService,
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
    const totals = this.composer.apply([...lines, ...added], schedule.terms);
    for (const line of lines) await this.repository.updateLine(line, manager);
    await this.repository.insertLines(added, manager);
    const revised = await this.invoices.reviseDraftLocked(
      invoice,
      { lines: totals.lineItems, subtotal: totals.subtotal, total: totals.total },
      manager,
    );
    const open = await this.invoices.finalizeLocked(revised, manager, at);
    if (totals.total <= 0) await this.invoices.settleWithoutChargeLocked(open, manager, at);
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
