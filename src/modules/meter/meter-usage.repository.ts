import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import {
  claimUsageForLinesSql,
  claimUsageSql,
  unbilledUsageSql,
  usageOfEachLineSql,
  usageOfLinesSql,
  type UsageTables,
} from './meter-usage.sql.js';

/** Aggregates of a set of billed events, numbers as their exact decimal text. */
export interface UsageRow {
  event_count: number;
  sum: string;
  max: string;
  last: string;
  digest: string;
}

export interface BilledEventRow {
  id: string;
  identifier: string;
  event_name: string;
  customer_id: string;
  value: string;
  occurred_at: Date;
  created_at: Date;
}

/** One claim: the customer's events of a meter in [from, to) that no line counts yet, for one line. */
export interface UsageClaim {
  applicationId: string;
  meterId: string;
  customerId: string;
  from: Date;
  to: Date;
  lineId: string;
  invoiceId: string;
  at: Date;
}

/** Which invoice line counts each meter event (table `meter_event_billings`), in the current mode. */
@Injectable()
export class MeterUsageRepository {
  constructor(private readonly db: ModeDb) {}

  private tables(): UsageTables {
    return { events: this.db.table('meter_events'), billings: this.db.table('meter_event_billings') };
  }

  async claim(manager: EntityManager, input: UsageClaim): Promise<number> {
    const rows: Array<{ claimed: number }> = await manager.query(claimUsageSql(this.tables()), [
      input.applicationId,
      input.meterId,
      input.customerId,
      input.from,
      input.to,
      input.lineId,
      input.invoiceId,
      input.at,
    ]);
    return rows[0].claimed;
  }

  /** Many claims in one statement, in order; answers the number of events claimed in all. */
  async claimMany(manager: EntityManager, claims: UsageClaim[]): Promise<number> {
    if (claims.length === 0) return 0;
    const rows: Array<{ claimed: number }> = await manager.query(claimUsageForLinesSql(this.tables()), [
      claims.map((c) => c.applicationId),
      claims.map((c) => c.lineId),
      claims.map((c) => c.invoiceId),
      claims.map((c) => c.meterId),
      claims.map((c) => c.customerId),
      claims.map((c) => c.from),
      claims.map((c) => c.to),
      claims.map((c) => c.at),
    ]);
    return rows[0].claimed;
  }

  /** Each line's own usage, by line id. */
  async usageOfEach(
    lines: Array<{ applicationId: string; lineId: string }>,
    manager: EntityManager,
  ): Promise<Map<string, UsageRow>> {
    if (lines.length === 0) return new Map();
    const rows: Array<UsageRow & { line_id: string }> = await manager.query(usageOfEachLineSql(this.tables()), [
      lines.map((l) => l.applicationId),
      lines.map((l) => l.lineId),
    ]);
    return new Map(rows.map(({ line_id, ...usage }) => [line_id, usage]));
  }

  async usageOf(applicationId: string, lineIds: string[], manager?: EntityManager): Promise<UsageRow> {
    const rows: UsageRow[] = await (manager ?? this.db.manager).query(usageOfLinesSql(this.tables()), [
      applicationId,
      lineIds,
    ]);
    return rows[0];
  }

  async unbilledUsage(
    applicationId: string,
    input: { meterId: string; customerId: string; from: Date; to: Date },
    manager?: EntityManager,
  ): Promise<UsageRow> {
    const rows: UsageRow[] = await (manager ?? this.db.manager).query(unbilledUsageSql(this.tables()), [
      applicationId,
      input.meterId,
      input.customerId,
      input.from,
      input.to,
    ]);
    return rows[0];
  }

  /** A page of the events line `lineId` counts, by event id (ascending, or descending when `backwards`). */
  async eventsOfLine(
    applicationId: string,
    lineId: string,
    page: { after?: string; before?: string; offset?: number; limit: number },
  ): Promise<{ rows: BilledEventRow[]; total: number }> {
    const t = this.tables();
    const params: unknown[] = [applicationId, lineId, page.limit];
    let where = '';
    if (page.after) {
      params.push(page.after);
      where = ` AND b.event_id > $${params.length}`;
    } else if (page.before) {
      params.push(page.before);
      where = ` AND b.event_id < $${params.length}`;
    }
    const order = page.before ? 'DESC' : 'ASC';
    const offset = page.offset ? ` OFFSET ${Math.trunc(page.offset)}` : '';
    const [rows, counted] = await Promise.all([
      this.db.manager.query(
        `SELECT e.id, e.identifier, e.event_name, e.customer_id, e.value::text AS value, e.occurred_at, e.created_at
         FROM ${t.billings} b JOIN ${t.events} e ON e.id = b.event_id
         WHERE b.application_id = $1 AND b.line_id = $2${where}
         ORDER BY b.event_id ${order} LIMIT $3${offset}`,
        params,
      ) as Promise<BilledEventRow[]>,
      this.db.manager.query(
        `SELECT count(*)::int AS total FROM ${t.billings} WHERE application_id = $1 AND line_id = $2`,
        [applicationId, lineId],
      ) as Promise<Array<{ total: number }>>,
    ]);
    return { rows: page.before ? rows.reverse() : rows, total: counted[0].total };
  }
}
