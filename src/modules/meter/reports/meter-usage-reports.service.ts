import { Injectable } from '@nestjs/common';
import {
  MeterUsageReportsRepository,
  type UsageReportRow,
  type UsageReportWindow,
} from './meter-usage-reports.repository.js';

export type { UsageReportRow, UsageReportWindow } from './meter-usage-reports.repository.js';

/**
 * Metering's side of the reports (docs/REPORTS.md, `meter_usage.itemized.1`): the events of a window,
 * streamed in batches (the reporting module turns them into CSV). Runs in the mode bound by the caller.
 */
@Injectable()
export class MeterUsageReports {
  constructor(private readonly reports: MeterUsageReportsRepository) {}

  /** Calls `onRows` with each batch of the report's rows, in order; answers the number of rows. */
  stream(window: UsageReportWindow, onRows: (rows: UsageReportRow[]) => Promise<void>, batch = 2000): Promise<number> {
    return this.reports.stream(window, batch, onRows);
  }
}
