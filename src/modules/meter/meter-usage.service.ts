import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { MeterAggregation } from './entities/meter.entity.js';
import { MeterUsageRepository, type BilledEventRow, type UsageClaim, type UsageRow } from './meter-usage.repository.js';

/** The usage of billed events by one meter formula: its event count, aggregated quantity and digest. */
export interface LineUsage {
  event_count: number;
  /** The meter's formula over the events, as exact decimal text ("0" without events). */
  quantity: string;
  digest: string;
}

export function usageBy(row: UsageRow, aggregation: MeterAggregation): LineUsage {
  const quantity = aggregation === 'count' ? String(row.event_count) : row[aggregation];
  return { event_count: row.event_count, quantity, digest: row.digest };
}

/**
 * Billing's way to meter events (docs/BILLING.md, "Each event in exactly one line"): claim the
 * customer's unbilled events of a time range for an invoice line, read a line's usage back from the
 * events it counts, list them. Every claim runs in the caller's transaction; the link table's
 * primary key (the event) makes counting one event twice impossible.
 */
@Injectable()
export class MeterUsageService {
  constructor(private readonly usage: MeterUsageRepository) {}

  claim(manager: EntityManager, input: UsageClaim): Promise<number> {
    return this.usage.claim(manager, input);
  }

  /** Many claims in one statement (a batch of period closes), in order; answers the events claimed in all. */
  claimMany(manager: EntityManager, claims: UsageClaim[]): Promise<number> {
    return this.usage.claimMany(manager, claims);
  }

  /** Each line's own usage by its aggregation, by line id. */
  async usageOfEach(
    lines: Array<{ applicationId: string; lineId: string; aggregation: MeterAggregation }>,
    manager: EntityManager,
  ): Promise<Map<string, LineUsage>> {
    const rows = await this.usage.usageOfEach(lines, manager);
    return new Map(lines.map((l) => [l.lineId, usageBy(rows.get(l.lineId)!, l.aggregation)]));
  }

  /** The usage of the events counted by `lineIds` together, by `aggregation`. */
  async usageOf(
    applicationId: string,
    lineIds: string[],
    aggregation: MeterAggregation,
    manager?: EntityManager,
  ): Promise<LineUsage> {
    return usageBy(await this.usage.usageOf(applicationId, lineIds, manager), aggregation);
  }

  /** The usage so far of the customer's events of `meterId` in [from, to) that no line counts yet. */
  async unbilledUsage(
    applicationId: string,
    input: { meterId: string; customerId: string; from: Date; to: Date },
    aggregation: MeterAggregation,
    manager?: EntityManager,
  ): Promise<LineUsage> {
    return usageBy(await this.usage.unbilledUsage(applicationId, input, manager), aggregation);
  }

  eventsOfLine(
    applicationId: string,
    lineId: string,
    page: { after?: string; before?: string; offset?: number; limit: number },
  ): Promise<{ rows: BilledEventRow[]; total: number }> {
    return this.usage.eventsOfLine(applicationId, lineId, page);
  }
}

export type { BilledEventRow, UsageClaim };
