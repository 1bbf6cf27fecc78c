import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { scalingFactorOf } from '../../ledger/index.js';
import { MetersService, MeterUsageService } from '../../meter/index.js';
import { ratePrice } from '../pricing/index.js';
import type { Subscription } from '../subscriptions/entities/subscription.entity.js';
import { periodAfter } from '../subscriptions/subscription-periods.js';
import { billableQuantity, meteredAmount } from './compose-invoice.js';
import type { InvoiceLine } from './entities/invoice-line.entity.js';
import { InvoiceComposer } from './invoice-composer.js';
import { toInvoiceLineResponse } from './invoice-lines.responses.js';
import { InvoicingRepository } from './invoicing.repository.js';
import { newInvoiceLine, pendingItemLineFields } from './new-invoice-line.js';

/** invoice.upcoming goes this long before a period ends (Stripe's default). */
const NOTICE_BEFORE_MS = 3 * 86_400_000;

/**
 * The next invoice of a subscription as it stands now (`GET /invoices/upcoming`, and the
 * `invoice.upcoming` notice 3 days before the period ends): the licensed items of the next period,
 * the pending prorations, and the usage so far of the current period's meter events that no line
 * counts yet, with the discount and taxes the close would apply. Nothing is written or claimed.
 */
@Injectable()
export class UpcomingInvoicesService {
  constructor(
    private readonly repository: InvoicingRepository,
    private readonly composer: InvoiceComposer,
    private readonly meters: MetersService,
    private readonly usage: MeterUsageService,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  async upcoming(principal: Principal, subscriptionId: string) {
    const sub = await this.repository.subscription(principal.application.id, subscriptionId);
    if (!sub) throw new AppError(Errors.E4004, `No subscription with id "${subscriptionId}".`);
    if (!['active', 'past_due', 'trialing', 'unpaid'].includes(sub.status) || sub.cancel_at_period_end) {
      throw new AppError(
        Errors.E4004,
        `Subscription "${subscriptionId}" is ${sub.cancel_at_period_end ? 'canceled at period end' : sub.status}: it has no upcoming invoice.`,
      );
    }
    return this.preview(sub);
  }

  /**
   * One batch of subscriptions within 3 days of their period end (by the customer's clock) that
   * have had no notice for this period: `invoice.upcoming` with the preview; answers how many.
   */
  noticeBatch(now: Date, limit: number, scope: JobScope): Promise<number> {
    return this.repository.transaction(async (manager) => {
      const due = await this.repository.claimUpcoming(manager, now, NOTICE_BEFORE_MS, limit, scope);
      for (const sub of due) {
        await this.repository.insertNotice(sub, this.clock.now(), manager);
        await this.events.record(manager, {
          applicationId: sub.application_id,
          type: 'invoice.upcoming',
          object: await this.preview(sub, manager),
          request: null,
        });
      }
      return due.length;
    });
  }

  private async preview(sub: Subscription, manager?: EntityManager) {
    const applicationId = sub.application_id;
    const period = { start: sub.current_period_start, end: sub.current_period_end };
    const next = periodAfter(sub.current_period_end, sub.billing_cycle_anchor, {
      interval: sub.interval,
      interval_count: sub.interval_count,
    });
    const trial = sub.status === 'trialing';
    const terms = await this.composer.termsFor(sub, period.start, trial, manager);
    const now = this.clock.now();
    const line = (fields: Parameters<typeof newInvoiceLine>[3]): InvoiceLine =>
      newInvoiceLine(sub, { id: null, invoiceId: null }, now, { livemode: sub.livemode, ...fields });
    const lines: InvoiceLine[] = [];
    for (const { item, price } of await this.repository.itemsWithPrices(applicationId, sub.id, manager)) {
      const name = price.lookup_key ?? price.id;
      if (price.recurring?.usage_type === 'metered' && price.meter_id) {
        const meter = await this.meters.findOf(applicationId, price.meter_id, manager);
        const aggregation = meter?.aggregation ?? 'sum';
        const usage = await this.usage.unbilledUsage(
          applicationId,
          { meterId: price.meter_id, customerId: sub.customer_id, from: period.start, to: period.end },
          aggregation,
          manager,
        );
        lines.push(
          line({
            type: 'metered',
            description: `Usage of ${meter?.display_name ?? name}${trial ? ' (trial)' : ''}`,
            price_id: price.id,
            meter_id: price.meter_id,
            aggregation,
            quantity: String(billableQuantity(usage.quantity)),
            amount: String(trial ? 0 : meteredAmount(price, usage.quantity, null)),
            usage_event_count: usage.event_count,
            usage_quantity: usage.quantity,
            usage_digest: usage.digest,
            period_start: period.start,
            period_end: period.end,
          }),
        );
      } else {
        const quantity = item.quantity ?? 1;
        lines.push(
          line({
            type: 'subscription',
            description: `${quantity} x ${name}`,
            price_id: price.id,
            quantity: String(quantity),
            amount: String(ratePrice(price, quantity)),
            period_start: next.start,
            period_end: next.end,
          }),
        );
      }
    }
    for (const p of await this.repository.unbilledPendingItems(applicationId, sub.id, manager, false)) {
      lines.push(line(pendingItemLineFields(p)));
    }
    const totals = this.composer.apply(lines, terms);
    return {
      object: 'invoice' as const,
      livemode: sub.livemode,
      id: null,
      status: 'draft' as const,
      customer_id: sub.customer_id,
      subscription: sub.id,
      billing_reason: 'upcoming' as const,
      currency: sub.currency,
      scaling_factor: scalingFactorOf(sub.currency),
      period_start: period.start.toISOString(),
      period_end: period.end.toISOString(),
      next_invoice_date: period.end.toISOString(),
      lines: lines.map(toInvoiceLineResponse),
      subtotal: totals.subtotal,
      total_discount: totals.total_discount,
      total_tax: totals.total_tax,
      total: totals.total,
      amount_due: Math.max(0, totals.total),
    };
  }
}
