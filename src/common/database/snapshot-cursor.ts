import type { DataSource } from 'typeorm';

/** One SQL statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * Reads `statement`'s rows through a server-side cursor, `batch` rows at a time, in one read-only
 * REPEATABLE READ transaction, calling `onRows` with each batch in order (the next FETCH waits for
 * it): memory stays bounded by the batch whatever the row count, and every row comes from one
 * snapshot, so a report's totals are the database's at one moment. Answers the number of rows.
 * The reports of the ledger and of metering read this way (docs/REPORTS.md).
 */
export async function streamSnapshot<Row>(
  dataSource: DataSource,
  statement: Statement,
  batch: number,
  onRows: (rows: Row[]) => Promise<void>,
): Promise<number> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  let total = 0;
  try {
    await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await runner.query(`DECLARE report_rows NO SCROLL CURSOR FOR ${statement.sql}`, statement.params);
    for (;;) {
      const rows: Row[] = await runner.query(`FETCH ${batch} FROM report_rows`);
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
