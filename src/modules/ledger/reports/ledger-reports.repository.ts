import { Injectable } from '@nestjs/common';
import { ModeDb } from '../../../common/database/mode-db.js';
import { streamSnapshot, type Statement } from '../../../common/database/snapshot-cursor.js';
import { balanceSummary, entriesInWindow, payoutsInWindow, type ReportWindow } from './ledger-reports.sql.js';

export type ReportRow = Record<string, unknown>;
export type LedgerReportKind = 'entries' | 'transfer_entries' | 'balance_summary' | 'payouts';

/**
 * Reads a report's rows from one snapshot of the ledger, a batch at a time (`streamSnapshot`): memory
 * stays bounded by the batch, and the report's totals are the ledger's at one moment.
 */
@Injectable()
export class LedgerReportsRepository {
  constructor(private readonly db: ModeDb) {}

  stream(
    kind: LedgerReportKind,
    window: ReportWindow,
    batch: number,
    onRows: (rows: ReportRow[]) => Promise<void>,
  ): Promise<number> {
    return streamSnapshot(this.db.dataSource, this.statement(kind, window), batch, onRows);
  }

  private statement(kind: LedgerReportKind, window: ReportWindow): Statement {
    const bt = this.db.table('balance_transactions');
    switch (kind) {
      case 'entries':
        return entriesInWindow(bt, window, false);
      case 'transfer_entries':
        return entriesInWindow(bt, window, true);
      case 'balance_summary':
        return balanceSummary(bt, window);
      case 'payouts':
        return payoutsInWindow(bt, window);
    }
  }
}
