import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import type { AllConfig } from '../../../config/app.config.js';
import { Clock } from '../../../common/clock.js';
import { newId } from '../../../common/ids.js';
import { ApplicationsService } from '../../applications/index.js';
import { InvoicesService } from '../../checkout/index.js';
import { MetersService } from '../../meter/index.js';
import { ratePrice } from '../pricing/index.js';
import type { Subscription } from '../subscriptions/entities/subscription.entity.js';
import type { Period } from '../subscriptions/subscription-periods.js';
import type { PeriodRolled } from '../subscriptions/subscription-hooks.js';
import { InvoiceComposer } from './invoice-composer.js';
import type { InvoiceLine, InvoiceLineType } from './entities/invoice-line.entity.js';
import { InvoicingRepository } from './invoicing.repository.js';
import { MeteredLinesService, type MeteredFacts } from './metered-lines.service.js';

/**
 * The period close (docs/BILLING.md, "The life of a period"): when a subscription rolls into a new
 * period, in the subscription job's transaction, the ended period becomes one draft invoice
 * (`subscription_cycle`): the licensed items for the period that begins (billed ahead, as Stripe),
 * the pending prorations, and one metered line per metered price counting the customer's meter
 * events of the ended period. It stays draft for BILLING_GRACE_PERIOD (InvoiceFinalizationService).
 * A replayed close finds the period's invoice already recorded and makes nothing.
 */
@Injectable()
export class PeriodCloseService {
  constructor(
    private readonly repository: InvoicingRepository,
    private readonly metered: MeteredLinesService,
    private readonly composer: InvoiceComposer,
    private readonly meters: MetersService,
    private readonly invoices: InvoicesService,
    private readonly applications: ApplicationsService,
    private readonly config: ConfigService<AllConfig, true>,
    private readonly clock: Clock,
  ) {}

  onPeriodRolled(event: PeriodRolled): Promise<void> {
    return this.close(
      event.subscription,
      event.ended,
      event.started,
      event.reason === 'trial_end',
      event.at,
      event.manager,
    );
  }

  async close(
    sub: Subscription,
    ended: Period,
    started: Period,
    trialEnded: boolean,
    at: Date,
    manager: EntityManager,
  ): Promise<void> {
    const applicationId = sub.application_id;
    const invoiceId = newId();
    const now = this.clock.now();
    const terms = await this.composer.termsFor(sub, ended.start, trialEnded, manager);
    const graceMs = this.config.get('app.billingGracePeriodMs', { infer: true });
    const fresh = await this.repository.insertSchedule(
      {
        invoice_id: invoiceId,
        application_id: applicationId,
        subscription_id: sub.id,
        customer_id: sub.customer_id,
        test_clock_id: sub.test_clock_id,
        billing_reason: 'subscription_cycle',
        period_start: ended.start,
        period_end: ended.end,
        terms,
        finalize_at: new Date(at.getTime() + graceMs),
        finalized_at: null,
        created_at: now,
      } as never,
      manager,
    );
    if (!fresh) return;

    const line = (type: InvoiceLineType, fields: Partial<InvoiceLine>): InvoiceLine =>
      ({
        id: newId(),
        application_id: applicationId,
        invoice_id: invoiceId,
        subscription_id: sub.id,
        customer_id: sub.customer_id,
        type,
        price_id: null,
        meter_id: null,
        aggregation: null,
        earlier_line_id: null,
        quantity: '0',
        amount: '0',
        discount_amount: '0',
        tax_amounts: [],
        usage_event_count: null,
        usage_quantity: null,
        usage_digest: null,
        created_at: now,
        updated_at: now,
        ...fields,
      }) as InvoiceLine;

    const lines: InvoiceLine[] = [];
    for (const { item, price } of await this.repository.itemsWithPrices(applicationId, sub.id, manager)) {
      const name = price.lookup_key ?? price.id;
      if (price.recurring?.usage_type === 'metered' && price.meter_id) {
        const meter = await this.meters.findOf(applicationId, price.meter_id, manager);
        const metered = line('metered', {
          description: `Usage of ${meter?.display_name ?? name}${trialEnded ? ' (trial)' : ''}`,
          price_id: price.id,
          meter_id: price.meter_id,
          aggregation: meter?.aggregation ?? 'sum',
          period_start: ended.start,
          period_end: ended.end,
        });
        await this.metered.claim(metered, ended, at, manager);
        Object.assign(metered, stringify(await this.metered.facts(metered, price, terms.free_usage, manager)));
        lines.push(metered);
      } else {
        const quantity = item.quantity ?? 1;
        lines.push(
          line('subscription', {
            description: `${quantity} x ${name}`,
            price_id: price.id,
            quantity: String(quantity),
            amount: String(ratePrice(price, quantity)),
            period_start: started.start,
            period_end: started.end,
          }),
        );
      }
    }
    const pending = await this.repository.unbilledPendingItems(applicationId, sub.id, manager);
    for (const p of pending) {
      lines.push(
        line('proration', {
          description: p.description,
          price_id: p.price_id,
          quantity: String(p.quantity),
          amount: String(p.amount),
          period_start: p.period_start,
          period_end: p.period_end,
        }),
      );
    }
    await this.repository.markPendingBilled(
      applicationId,
      pending.map((p) => p.id),
      invoiceId,
      manager,
    );

    const totals = this.composer.apply(lines, terms);
    const [country] = await this.applications.countriesIn(manager, applicationId);
    await this.invoices.createSubscriptionDraft(
      {
        id: invoiceId,
        applicationId,
        country,
        customerId: sub.customer_id,
        subscriptionId: sub.id,
        currency: sub.currency,
        billingReason: 'subscription_cycle',
        period: ended,
        lines: totals.lineItems,
        subtotal: totals.subtotal,
        total: totals.total,
        dueDate: null,
      },
      manager,
    );
    await this.repository.insertLines(lines, manager);
  }
}

/** Facts as the entity's bigint columns hold them. */
export function stringify(facts: MeteredFacts): Partial<InvoiceLine> {
  return { ...facts, quantity: String(facts.quantity), amount: String(facts.amount) };
}
