import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { newId } from '../../../common/ids.js';
import { ApplicationsService } from '../../applications/index.js';
import { InvoicesService } from '../../checkout/index.js';
import { MetersService } from '../../meter/index.js';
import type { InvoiceNow } from '../subscriptions/index.js';
import type { InvoiceLine } from './entities/invoice-line.entity.js';
import type { SubscriptionInvoice } from './entities/subscription-invoice.entity.js';
import { InvoiceComposer } from './invoice-composer.js';
import { InvoiceFinalizationService } from './invoice-finalization.service.js';
import { InvoicingRepository } from './invoicing.repository.js';
import { MeteredLinesService } from './metered-lines.service.js';
import { newInvoiceLine, pendingItemLineFields } from './new-invoice-line.js';
import { stringify } from './period-close.service.js';

/**
 * Invoices made at once, in the transaction of a subscription's change (docs/BILLING.md, "Invoices
 * on cancel and on update"), with no grace window:
 * - `subscription_cancel` (`POST /subscriptions/{id}/cancel` with `invoice_now`): one metered line
 *   per metered price for the current period's events up to the cancel (claimed like a period
 *   close's, so no event is counted twice), and every pending item (with `prorate`, the credit for
 *   the licensed items' unused time);
 * - `subscription_update` (`proration_behavior: always_invoice`): the pending items, the prorations
 *   of the change among them.
 * The subscription's discount and tax rates apply as on a period's invoice; the invoice draws the
 * customer's credit, is finalized and collected like every subscription invoice, and becomes the
 * subscription's `latest_invoice`. Nothing to bill (no line): no invoice.
 */
@Injectable()
export class ImmediateInvoicesService {
  constructor(
    private readonly repository: InvoicingRepository,
    private readonly metered: MeteredLinesService,
    private readonly composer: InvoiceComposer,
    private readonly finalization: InvoiceFinalizationService,
    private readonly meters: MetersService,
    private readonly invoices: InvoicesService,
    private readonly applications: ApplicationsService,
    private readonly clock: Clock,
  ) {}

  async invoiceNow({ subscription: sub, reason, at, manager }: InvoiceNow): Promise<void> {
    const applicationId = sub.application_id;
    const invoiceId = newId();
    const now = this.clock.now();
    const trial = sub.status === 'trialing';
    const start = sub.current_period_start;
    // An update bills from the change on (its own key, unique per subscription and moment); a
    // cancel bills the current period up to the cancel.
    const period = reason === 'subscription_cancel' ? { start, end: at } : { start: at, end: sub.current_period_end };
    const terms = await this.composer.termsFor(sub, start, trial, manager);
    const schedule = {
      invoice_id: invoiceId,
      application_id: applicationId,
      subscription_id: sub.id,
      customer_id: sub.customer_id,
      test_clock_id: sub.test_clock_id,
      billing_reason: reason,
      period_start: period.start,
      period_end: period.end,
      terms,
      finalize_at: at,
      finalized_at: at,
      created_at: now,
    } as SubscriptionInvoice;

    const line = (fields: Parameters<typeof newInvoiceLine>[3]): InvoiceLine =>
      newInvoiceLine(sub, { id: newId(), invoiceId }, now, fields);

    const lines: InvoiceLine[] = [];
    if (reason === 'subscription_cancel') {
      for (const { price } of await this.repository.itemsWithPrices(applicationId, sub.id, manager)) {
        if (price.recurring?.usage_type !== 'metered' || !price.meter_id) continue;
        const meter = await this.meters.findOf(applicationId, price.meter_id, manager);
        const metered = line({
          type: 'metered',
          description: `Usage of ${meter?.display_name ?? price.lookup_key ?? price.id} until the cancel`,
          price_id: price.id,
          meter_id: price.meter_id,
          aggregation: meter?.aggregation ?? 'sum',
          period_start: period.start,
          period_end: period.end,
        });
        if ((await this.metered.claim(metered, period, at, manager)) === 0) continue;
        Object.assign(metered, stringify(await this.metered.facts(metered, price, terms.free_usage, manager)));
        lines.push(metered);
      }
    }
    const pending = await this.repository.unbilledPendingItems(applicationId, sub.id, manager);
    for (const p of pending) {
      lines.push(line(pendingItemLineFields(p)));
    }
    if (lines.length === 0) return;
    if (!(await this.repository.insertSchedule(schedule, manager))) return;
    await this.repository.markPendingBilled(
      applicationId,
      pending.map((p) => p.id),
      invoiceId,
      manager,
    );

    const totals = this.composer.apply(lines, terms);
    const [country] = await this.applications.countriesIn(manager, applicationId);
    const [draft] = await this.invoices.createSubscriptionDrafts(
      [
        {
          id: invoiceId,
          applicationId,
          country,
          customerId: sub.customer_id,
          subscriptionId: sub.id,
          currency: sub.currency,
          description: null,
          billingReason: reason,
          period,
          lines: totals.lineItems,
          subtotal: totals.subtotal,
          total: totals.total,
          dueDate: null,
        },
      ],
      manager,
    );
    await this.finalization.finalizeWithCredit(draft, schedule, { stored: [], added: lines }, at, manager);
    sub.latest_invoice = invoiceId;
  }
}
