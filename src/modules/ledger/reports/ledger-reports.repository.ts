import { Injectable } from '@nestjs/common';
import { ModeDb } from '../../../common/database/mode-db.js';
import {
  balanceSummary,
  entriesInWindow,
  payoutsInWindow,
  type ReportWindow,
  type Statement,
} from './ledger-reports.sql.js';

export type ReportRow = Record<string, unknown>;
export type LedgerReportKind = 'entries' | 'transfer_entries' | 'balance_summary' | 'payouts';

/**
 * Reads a report's rows through a server-side cursor, `batch` rows at a time, in one read-only
 * REPEATABLE READ transaction: memory stays bounded by the batch, and every row comes from one
 * snapshot of the ledger, so the report's totals are the ledger's at one moment.
 */
@Injectable()
export class LedgerReportsRepository {
  constructor(private readonly db: ModeDb) {}

  async stream(
    kind: LedgerReportKind,
    window: ReportWindow,
    batch: number,
    onRows: (rows: ReportRow[]) => Promise<void>,
  ): Promise<number> {
    const statement = this.statement(kind, window);
    const runner = this.db.dataSource.createQueryRunner();
    await runner.connect();
    let total = 0;
    try {
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await runner.query(`DECLARE ledger_report NO SCROLL CURSOR FOR ${statement.sql}`, statement.params);
      for (;;) {
        const rows: ReportRow[] = await runner.query(`FETCH ${batch} FROM ledger_report`);
        if (rows.length > 0) await onRows(rows);
        total += rows.length;
        if (rows.length < batch) break;
      }
      await runner.query('COMMIT');
      return total;
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
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
