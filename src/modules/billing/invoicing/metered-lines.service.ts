import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MeterUsageService, type MeterAggregation } from '../../meter/index.js';
import type { Price } from '../catalog/prices/entities/price.entity.js';
import { billableQuantity, meteredAmount } from './compose-invoice.js';
import type { InvoiceLine } from './entities/invoice-line.entity.js';
import { InvoicingRepository } from './invoicing.repository.js';

/** What a metered line should say, recomputed from the events it counts. */
export interface MeteredFacts {
  quantity: number;
  amount: number;
  usage_event_count: number;
  usage_quantity: string;
  usage_digest: string;
}

/**
 * A metered line's quantity, amount and usage, always recomputed from the meter events the line
 * counts (never kept incrementally): the period close, the finalization that adds late events, the
 * upcoming preview and billing:verify all ask here, so they cannot disagree.
 */
@Injectable()
export class MeteredLinesService {
  constructor(
    private readonly usage: MeterUsageService,
    private readonly repository: InvoicingRepository,
  ) {}

  /** Counts, for `line`, the customer's meter events of `period` that no line counts yet. */
  claim(line: InvoiceLine, period: { start: Date; end: Date }, at: Date, manager: EntityManager): Promise<number> {
    return this.usage.claim(manager, {
      applicationId: line.application_id,
      meterId: line.meter_id!,
      customerId: line.customer_id,
      from: period.start,
      to: period.end,
      lineId: line.id,
      invoiceId: line.invoice_id,
      at,
    });
  }

  /**
   * {@link claim} for many lines in one statement, in order: each line counts the customer's events
   * of its meter in its own period ([period_start, period_end)) that no line counts yet.
   */
  claimPeriods(lines: Array<{ line: InvoiceLine; at: Date }>, manager: EntityManager): Promise<number> {
    return this.usage.claimMany(
      manager,
      lines.map(({ line, at }) => ({
        applicationId: line.application_id,
        meterId: line.meter_id!,
        customerId: line.customer_id,
        from: line.period_start,
        to: line.period_end,
        lineId: line.id,
        invoiceId: line.invoice_id,
        at,
      })),
    );
  }

  /** {@link facts} of many lines of type `metered` (a period's usage), their usage read in one query. */
  async periodFacts(
    lines: Array<{ line: InvoiceLine; price: Price; freeUsage: boolean }>,
    manager: EntityManager,
  ): Promise<MeteredFacts[]> {
    const usage = await this.usage.usageOfEach(
      lines.map(({ line }) => ({
        applicationId: line.application_id,
        lineId: line.id,
        aggregation: line.aggregation as MeterAggregation,
      })),
      manager,
    );
    return lines.map(({ line, price, freeUsage }) => {
      const own = usage.get(line.id)!;
      return {
        quantity: billableQuantity(own.quantity),
        amount: freeUsage ? 0 : meteredAmount(price, own.quantity, null),
        usage_event_count: own.event_count,
        usage_quantity: own.quantity,
        usage_digest: own.digest,
      };
    });
  }

  /**
   * `line` (type `metered` or `metered_earlier`) rated by `price`. A `metered_earlier` line costs
   * what its events add to the rating of its period's line and that line's earlier additions.
   */
  async facts(line: InvoiceLine, price: Price, freeUsage: boolean, manager?: EntityManager): Promise<MeteredFacts> {
    const aggregation = line.aggregation as MeterAggregation;
    const own = await this.usage.usageOf(line.application_id, [line.id], aggregation, manager);
    let amount: number;
    if (freeUsage) amount = 0;
    else if (line.type === 'metered') amount = meteredAmount(price, own.quantity, null);
    else {
      const original = line.earlier_line_id!;
      const additions = await this.repository.laterAdditions(line.application_id, original, manager);
      const before = [
        original,
        ...additions
          .filter(
            (a) =>
              a.created_at < line.created_at ||
              (a.created_at.getTime() === line.created_at.getTime() && a.id < line.id),
          )
          .map((a) => a.id),
      ];
      const billed = await this.usage.usageOf(line.application_id, before, aggregation, manager);
      const combined = await this.usage.usageOf(line.application_id, [...before, line.id], aggregation, manager);
      amount = meteredAmount(price, own.quantity, { quantity: billed.quantity, combined: combined.quantity });
    }
    return {
      quantity: billableQuantity(own.quantity),
      amount,
      usage_event_count: own.event_count,
      usage_quantity: own.quantity,
      usage_digest: own.digest,
    };
  }
}
