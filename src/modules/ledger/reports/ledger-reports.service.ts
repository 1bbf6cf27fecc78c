import { Injectable } from '@nestjs/common';
import type { ReportWindow } from './ledger-reports.sql.js';
import { LedgerReportsRepository, type LedgerReportKind, type ReportRow } from './ledger-reports.repository.js';

export type { ReportWindow } from './ledger-reports.sql.js';
export type { LedgerReportKind, ReportRow } from './ledger-reports.repository.js';

/**
 * The ledger's side of the reports: rows read from the entries, streamed in batches (the reporting
 * module turns them into CSV). Runs in the mode bound by the caller.
 */
@Injectable()
export class LedgerReports {
  constructor(private readonly reports: LedgerReportsRepository) {}

  /** Calls `onRows` with each batch of the report's rows, in order; answers the number of rows. */
  stream(
    kind: LedgerReportKind,
    window: ReportWindow,
    onRows: (rows: ReportRow[]) => Promise<void>,
    batch = 2000,
  ): Promise<number> {
    return this.reports.stream(kind, window, batch, onRows);
  }
}
