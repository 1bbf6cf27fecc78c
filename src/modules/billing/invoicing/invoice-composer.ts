import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { InvoiceLineItem } from '../../checkout/index.js';
import type { TaxRate } from '../catalog/tax-rates/entities/tax-rate.entity.js';
import type { Subscription } from '../subscriptions/entities/subscription.entity.js';
import { composeInvoice } from './compose-invoice.js';
import type { InvoiceLine } from './entities/invoice-line.entity.js';
import type { InvoiceTerms } from './entities/subscription-invoice.entity.js';
import { couponApplies } from './invoice-terms.js';
import { InvoicingRepository } from './invoicing.repository.js';

export interface InvoiceTotals {
  /** The invoice's `line_items` summary: one per line, the discount, one per exclusive tax rate. */
  lineItems: InvoiceLineItem[];
  subtotal: number;
  total_discount: number;
  total_tax: number;
  total: number;
}

/** The discount and taxes of a subscription invoice: decided at the close, applied again at finalization. */
@Injectable()
export class InvoiceComposer {
  constructor(private readonly repository: InvoicingRepository) {}

  /** The subscription's coupon (if it still applies to this period, by its duration) and default tax rates. */
  async termsFor(
    sub: Subscription,
    periodStart: Date,
    trialEnded: boolean,
    manager?: EntityManager,
  ): Promise<InvoiceTerms> {
    const earlier = await this.repository.countSchedules(sub.application_id, sub.id, manager);
    const rates = await this.repository.taxRates(sub.application_id, sub.default_tax_rates ?? [], manager);
    return this.termsOf(sub, periodStart, trialEnded, earlier, rates, manager);
  }

  /**
   * {@link termsFor} of a batch of period closes, in order: the earlier invoices counted in one
   * query, each set of tax rates read once.
   */
  async termsForMany(
    closes: Array<{ sub: Subscription; periodStart: Date; trialEnded: boolean }>,
    manager: EntityManager,
  ): Promise<InvoiceTerms[]> {
    const counts = await this.repository.countSchedulesOf(
      closes.map((c) => c.sub),
      manager,
    );
    const rateSets = new Map<string, TaxRate[]>();
    const terms: InvoiceTerms[] = [];
    for (const { sub, periodStart, trialEnded } of closes) {
      const ids = sub.default_tax_rates ?? [];
      const key = `${sub.application_id}:${ids.join(',')}`;
      let rates = rateSets.get(key);
      if (!rates) {
        rates = await this.repository.taxRates(sub.application_id, ids, manager);
        rateSets.set(key, rates);
      }
      terms.push(await this.termsOf(sub, periodStart, trialEnded, counts.get(sub.id) ?? 0, rates, manager));
    }
    return terms;
  }

  private async termsOf(
    sub: Subscription,
    periodStart: Date,
    trialEnded: boolean,
    earlier: number,
    rates: TaxRate[],
    manager?: EntityManager,
  ): Promise<InvoiceTerms> {
    const applicationId = sub.application_id;
    let couponId = sub.coupon;
    if (!couponId && sub.promotion_code) {
      couponId = await this.repository.couponOfPromotionCode(applicationId, sub.promotion_code, manager);
    }
    const coupon = couponId ? await this.repository.coupon(applicationId, couponId, manager) : null;
    const applies =
      coupon !== null &&
      couponApplies(coupon, {
        subscriptionCreated: sub.created,
        periodStart,
        earlierInvoices: earlier + (sub.latest_invoice ? 1 : 0),
      });
    return {
      coupon: applies
        ? {
            id: coupon.id,
            percent_off: coupon.percent_off,
            amount_off: coupon.amount_off === null ? null : Number(coupon.amount_off),
          }
        : null,
      tax_rates: rates.map((r) => ({
        id: r.id,
        display_name: r.display_name,
        percentage: r.percentage,
        inclusive: r.inclusive,
      })),
      free_usage: trialEnded,
    };
  }

  /** Sets each line's discount and taxes from `terms` and answers the invoice's totals. */
  apply(lines: InvoiceLine[], terms: InvoiceTerms): InvoiceTotals {
    const composed = composeInvoice(
      lines.map((l) => Number(l.amount)),
      terms.coupon,
      terms.tax_rates,
      lines.map((l) => Number(l.credit_amount ?? 0)),
    );
    lines.forEach((l, i) => {
      l.discount_amount = String(composed.lines[i].discount_amount);
      l.tax_amounts = composed.lines[i].tax_amounts;
    });
    const lineItems: InvoiceLineItem[] = lines.map((l) => ({
      description: l.description,
      amount: Number(l.amount),
      quantity: 1,
    }));
    if (composed.total_discount > 0) {
      lineItems.push({ description: `Discount (${terms.coupon!.id})`, amount: -composed.total_discount, quantity: 1 });
    }
    for (const rate of terms.tax_rates.filter((t) => !t.inclusive)) {
      const amount = composed.lines.reduce(
        (sum, l) => sum + l.tax_amounts.filter((t) => t.tax_rate_id === rate.id).reduce((s, t) => s + t.amount, 0),
        0,
      );
      lineItems.push({ description: `${rate.display_name} ${rate.percentage}%`, amount, quantity: 1 });
    }
    return {
      lineItems,
      subtotal: composed.subtotal,
      total_discount: composed.total_discount,
      total_tax: composed.total_tax,
      total: composed.total,
    };
  }
}
