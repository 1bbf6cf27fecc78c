import { Injectable } from '@nestjs/common';
import { InvoicesService } from '../../checkout/index.js';
import { ratePrice } from '../pricing/index.js';
import type { InvoiceLine } from './entities/invoice-line.entity.js';
import { InvoiceComposer } from './invoice-composer.js';
import { InvoicingRepository } from './invoicing.repository.js';
import { MeteredLinesService } from './metered-lines.service.js';

export interface Difference {
  invoice: string;
  line: string | null;
  field: string;
  stored: string;
  recomputed: string;
}

export interface VerifyReport {
  invoices: number;
  lines: number;
  events: number;
  differences: Difference[];
}

/**
 * `billing:verify` (docs/BILLING.md): every line of a subscription invoice recomputed from what it
 * rests on. Metered lines from the meter events they count (event count, the meter's formula, the
 * digest, the rated quantity and amount, late usage against its period's earlier billing); licensed
 * lines from their price and quantity; then the discount, taxes and the invoice's totals from the
 * terms it was made with. Any stored value that differs is reported.
 */
@Injectable()
export class BillingVerifyService {
  constructor(
    private readonly repository: InvoicingRepository,
    private readonly metered: MeteredLinesService,
    private readonly composer: InvoiceComposer,
    private readonly invoices: InvoicesService,
  ) {}

  /** The invoices of the current mode made for periods starting in [from, to), or the one invoice `id`. */
  async verify(target: { invoiceId: string } | { from: Date; to: Date }): Promise<VerifyReport> {
    const ids =
      'invoiceId' in target
        ? await this.repository.scheduleOfInvoice(target.invoiceId)
        : await this.repository.invoiceIdsBetween(target.from, target.to);
    const report: VerifyReport = { invoices: 0, lines: 0, events: 0, differences: [] };
    for (const { application_id, invoice_id } of ids) await this.verifyInvoice(application_id, invoice_id, report);
    return report;
  }

  private async verifyInvoice(applicationId: string, invoiceId: string, report: VerifyReport): Promise<void> {
    const schedule = await this.repository.findSchedule(applicationId, invoiceId);
    const invoice = await this.invoices.findOf(applicationId, invoiceId);
    if (!schedule || !invoice) return;
    report.invoices += 1;
    const differ = (line: string | null, field: string, stored: unknown, recomputed: unknown) => {
      if (String(stored) !== String(recomputed)) {
        report.differences.push({
          invoice: invoiceId,
          line,
          field,
          stored: String(stored),
          recomputed: String(recomputed),
        });
      }
    };
    const lines = await this.repository.linesOf(applicationId, invoiceId);
    const prices = await this.repository.pricesById(
      applicationId,
      lines.map((l) => l.price_id).filter((id): id is string => id !== null),
    );
    for (const line of lines) {
      report.lines += 1;
      const price = line.price_id ? prices.get(line.price_id) : undefined;
      if (line.type === 'metered' || line.type === 'metered_earlier') {
        if (!price) {
          differ(line.id, 'price', line.price_id, 'missing');
          continue;
        }
        let free = schedule.terms.free_usage;
        if (line.type === 'metered_earlier') {
          const original = await this.repository.lineById(applicationId, line.earlier_line_id!);
          const originalSchedule = original && (await this.repository.findSchedule(applicationId, original.invoice_id));
          free = originalSchedule?.terms.free_usage ?? false;
        }
        const facts = await this.metered.facts(line, price, free);
        report.events += facts.usage_event_count;
        differ(line.id, 'usage.event_count', line.usage_event_count, facts.usage_event_count);
        differ(line.id, 'usage.quantity', line.usage_quantity, facts.usage_quantity);
        differ(line.id, 'usage.digest', line.usage_digest, facts.usage_digest);
        differ(line.id, 'quantity', line.quantity, facts.quantity);
        differ(line.id, 'amount', line.amount, facts.amount);
      } else if (line.type === 'subscription' && price) {
        differ(line.id, 'amount', line.amount, ratePrice(price, Number(line.quantity)));
      }
    }
    const recomposed = lines.map((l) =>
      Object.assign(Object.create(Object.getPrototypeOf(l) as object) as typeof l, l),
    );
    const totals = this.composer.apply(recomposed, schedule.terms);
    recomposed.forEach((r, i) => {
      differ(r.id, 'discount_amount', lines[i].discount_amount, r.discount_amount);
      differ(r.id, 'tax_amounts', taxText(lines[i].tax_amounts), taxText(r.tax_amounts));
    });
    differ(
      null,
      'credit_applied',
      invoice.credit_applied ?? 0,
      lines.reduce((sum, l) => sum + Number(l.credit_amount ?? 0), 0),
    );
    differ(null, 'subtotal', invoice.subtotal, totals.subtotal);
    differ(null, 'total', invoice.total, totals.total);
  }
}

/** Tax amounts as comparable text (jsonb keeps its own key order). */
function taxText(taxes: InvoiceLine['tax_amounts']): string {
  return taxes.map((t) => `${t.tax_rate_id}:${t.inclusive}:${t.taxable_amount}:${t.amount}`).join(',');
}
