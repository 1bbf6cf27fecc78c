import { Injectable } from '@nestjs/common';
import { ModeDb } from '../../../common/database/mode-db.js';
import { streamSnapshot, type Statement } from '../../../common/database/snapshot-cursor.js';

/** A meter usage report's window: the application's events that occurred in [from, to). */
export interface UsageReportWindow {
  applicationId: string;
  from: string;
  to: string;
}

export type UsageReportRow = Record<string, unknown>;

/**
 * Every meter event that occurred in the window, oldest first (ties by id), with the invoice line
 * that bills it, if one does yet (`meter_event_billings`: at most one line per event).
 */
export function usageInWindow(events: string, billings: string, w: UsageReportWindow): Statement {
  return {
    sql: `SELECT e.id, e.identifier, e.event_name, e.meter_id, e.customer_id, e.value::text AS value,
                 e.occurred_at, e.created_at, b.invoice_id, b.line_id, b.created_at AS billed_at
            FROM ${events} e LEFT JOIN ${billings} b ON b.event_id = e.id
           WHERE e.application_id = $1 AND e.occurred_at >= $2::timestamptz AND e.occurred_at < $3::timestamptz
           ORDER BY e.occurred_at, e.id`,
    params: [w.applicationId, w.from, w.to],
  };
}

/** Reads a meter usage report's rows from one snapshot, a batch at a time (`streamSnapshot`). */
@Injectable()
export class MeterUsageReportsRepository {
  constructor(private readonly db: ModeDb) {}

  stream(window: UsageReportWindow, batch: number, onRows: (rows: UsageReportRow[]) => Promise<void>): Promise<number> {
    const statement = usageInWindow(this.db.table('meter_events'), this.db.table('meter_event_billings'), window);
    return streamSnapshot(this.db.dataSource, statement, batch, onRows);
  }
}
