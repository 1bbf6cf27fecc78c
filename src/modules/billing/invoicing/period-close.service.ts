import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import type { AllConfig } from '../../../config/app.config.js';
import { Clock } from '../../../common/clock.js';
import { newId } from '../../../common/ids.js';
import { ApplicationsService } from '../../applications/index.js';
import { InvoicesService } from '../../checkout/index.js';
import { MetersService, type Meter } from '../../meter/index.js';
import type { Price } from '../catalog/prices/entities/price.entity.js';
import { ratePrice } from '../pricing/index.js';
import type { PeriodRolled, PeriodsRolled } from '../subscriptions/subscription-hooks.js';
import type { InvoiceLine } from './entities/invoice-line.entity.js';
import type { InvoiceTerms, SubscriptionInvoice } from './entities/subscription-invoice.entity.js';
import { InvoiceComposer } from './invoice-composer.js';
import { InvoicingRepository } from './invoicing.repository.js';
import { MeteredLinesService, type MeteredFacts } from './metered-lines.service.js';
import { newInvoiceLine, pendingItemLineFields } from './new-invoice-line.js';

/** One period to close: the roll, the terms decided for it, its invoice's id and lines. */
interface Close {
  roll: PeriodRolled;
  terms: InvoiceTerms;
  invoiceId: string;
  lines: InvoiceLine[];
}

/**
 * The period close (docs/BILLING.md, "The life of a period" and "Closing at scale"): the periods a
 * batch of the subscriptions job rolled (SubscriptionHooks.periodsRolled, in the batch's
 * transaction, the subscriptions locked) each become one draft invoice (`subscription_cycle`): the
 * licensed items for the period that begins (billed ahead, as Stripe), the pending prorations, and
 * one metered line per metered price counting the customer's meter events of the ended period. The
 * batch is written set-based: one statement records every period's invoice (a replayed close finds
 * its period recorded and makes nothing), one claims every metered line's events, one reads their
 * usage back, one inserts the invoices, one the lines; `invoice.created` goes with each. A draft
 * stays for BILLING_GRACE_PERIOD (InvoiceFinalizationService).
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

  /** Closes the rolled periods in the order they rolled (a subscription's second roll after its first). */
  async closeRolled({ rolls, manager }: PeriodsRolled): Promise<void> {
    for (const round of rounds(rolls)) await this.closeRound(round, manager);
  }

  /** Periods of distinct subscriptions. */
  private async closeRound(rolls: PeriodRolled[], manager: EntityManager): Promise<void> {
    const now = this.clock.now();
    const graceMs = this.config.get('app.billingGracePeriodMs', { infer: true });
    const terms = await this.composer.termsForMany(
      rolls.map((r) => ({ sub: r.subscription, periodStart: r.ended.start, trialEnded: r.reason === 'trial_end' })),
      manager,
    );
    const closes: Close[] = rolls.map((roll, i) => ({ roll, terms: terms[i], invoiceId: newId(), lines: [] }));
    const fresh = await this.repository.insertSchedules(
      closes.map(
        ({ roll, terms, invoiceId }): SubscriptionInvoice =>
          ({
            invoice_id: invoiceId,
            application_id: roll.subscription.application_id,
            subscription_id: roll.subscription.id,
            customer_id: roll.subscription.customer_id,
            test_clock_id: roll.subscription.test_clock_id,
            billing_reason: 'subscription_cycle',
            period_start: roll.ended.start,
            period_end: roll.ended.end,
            terms,
            finalize_at: new Date(roll.at.getTime() + graceMs),
            finalized_at: null,
            created_at: now,
          }) as SubscriptionInvoice,
      ),
      manager,
    );
    const byApplication = new Map<string, Close[]>();
    for (const close of closes.filter((c) => fresh.has(c.invoiceId))) {
      const applicationId = close.roll.subscription.application_id;
      byApplication.set(applicationId, [...(byApplication.get(applicationId) ?? []), close]);
    }
    for (const [applicationId, group] of byApplication) await this.write(applicationId, group, now, manager);
  }

  /** The invoices and lines of one application's recorded periods. */
  private async write(applicationId: string, closes: Close[], now: Date, manager: EntityManager): Promise<void> {
    const subscriptionIds = closes.map((c) => c.roll.subscription.id);
    const items = await this.repository.itemsWithPricesOf(applicationId, subscriptionIds, manager);
    const meters = new Map<string, Meter | null>();
    const metered: Array<{ line: InvoiceLine; price: Price; freeUsage: boolean; at: Date }> = [];
    for (const close of closes) {
      const { subscription: sub, ended, started, reason, at } = close.roll;
      const trialEnded = reason === 'trial_end';
      for (const { item, price } of items.get(sub.id)!) {
        const name = price.lookup_key ?? price.id;
        if (price.recurring?.usage_type === 'metered' && price.meter_id) {
          if (!meters.has(price.meter_id)) {
            meters.set(price.meter_id, await this.meters.findOf(applicationId, price.meter_id, manager));
          }
          const meter = meters.get(price.meter_id);
          const line = newInvoiceLine(sub, { id: newId(), invoiceId: close.invoiceId }, now, {
            type: 'metered',
            description: `Usage of ${meter?.display_name ?? name}${trialEnded ? ' (trial)' : ''}`,
            price_id: price.id,
            meter_id: price.meter_id,
            aggregation: meter?.aggregation ?? 'sum',
            period_start: ended.start,
            period_end: ended.end,
          });
          metered.push({ line, price, freeUsage: close.terms.free_usage, at });
          close.lines.push(line);
        } else {
          const quantity = item.quantity ?? 1;
          close.lines.push(
            newInvoiceLine(sub, { id: newId(), invoiceId: close.invoiceId }, now, {
              type: 'subscription',
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
    }
    await this.metered.claimPeriods(metered, manager);
    const facts = await this.metered.periodFacts(metered, manager);
    metered.forEach(({ line }, i) => Object.assign(line, stringify(facts[i])));

    const pending = await this.repository.unbilledPendingItemsOf(applicationId, subscriptionIds, manager);
    for (const close of closes) {
      const sub = close.roll.subscription;
      const items = pending.get(sub.id)!;
      for (const p of items) {
        close.lines.push(
          newInvoiceLine(sub, { id: newId(), invoiceId: close.invoiceId }, now, pendingItemLineFields(p)),
        );
      }
      await this.repository.markPendingBilled(
        applicationId,
        items.map((p) => p.id),
        close.invoiceId,
        manager,
      );
    }

    const [country] = await this.applications.countriesIn(manager, applicationId);
    await this.invoices.createSubscriptionDrafts(
      closes.map(({ roll, terms, invoiceId, lines }) => {
        const totals = this.composer.apply(lines, terms);
        return {
          id: invoiceId,
          applicationId,
          country,
          customerId: roll.subscription.customer_id,
          subscriptionId: roll.subscription.id,
          currency: roll.subscription.currency,
          description: null,
          billingReason: 'subscription_cycle',
          period: roll.ended,
          lines: totals.lineItems,
          subtotal: totals.subtotal,
          total: totals.total,
          dueDate: null,
        };
      }),
      manager,
    );
    await this.repository.insertLines(
      closes.flatMap((c) => c.lines),
      manager,
    );
  }
}

/**
 * `rolls` in rounds of distinct subscriptions, in order: a subscription's later roll goes to a later
 * round, so its close sees the earlier period's invoice (a `once` coupon, the pending items billed).
 */
function rounds(rolls: PeriodRolled[]): PeriodRolled[][] {
  const out: PeriodRolled[][] = [];
  const seen = new Map<string, number>();
  for (const roll of rolls) {
    const round = (seen.get(roll.subscription.id) ?? -1) + 1;
    seen.set(roll.subscription.id, round);
    (out[round] ??= []).push(roll);
  }
  return out;
}

/** Facts as the entity's bigint columns hold them. */
export function stringify(facts: MeteredFacts): Partial<InvoiceLine> {
  return { ...facts, quantity: String(facts.quantity), amount: String(facts.amount) };
}
