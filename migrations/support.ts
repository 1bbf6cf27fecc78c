import type { QueryRunner } from 'typeorm';

/** Both mode schemas get their tables from the same code, so they can never differ. */
export const MODE_SCHEMAS = ['wallet_test', 'wallet_live'] as const;

export async function forEachModeSchema(
  queryRunner: QueryRunner,
  statements: (schema: string) => string[],
): Promise<void> {
  for (const schema of MODE_SCHEMAS) {
    for (const sql of statements(schema)) await queryRunner.query(sql);
  }
}

/** The first instant (UTC) of `at`'s month, moved by `months`. */
export function monthStart(at: Date, months = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
}

/**
 * Moves `schema.table` and every index of it (constraints' included) out of the way under
 * `<name>_unpartitioned`, so the partitioned table that replaces it takes the same names.
 */
export async function renameAside(queryRunner: QueryRunner, schema: string, table: string): Promise<string> {
  const indexes = (await queryRunner.query(
    `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2`,
    [schema, table],
  )) as Array<{ indexname: string }>;
  for (const { indexname } of indexes) {
    await queryRunner.query(`ALTER INDEX ${schema}.${indexname} RENAME TO ${indexname}_unpartitioned`);
  }
  await queryRunner.query(`ALTER TABLE ${schema}.${table} RENAME TO ${table}_unpartitioned`);
  return `${schema}.${table}_unpartitioned`;
}

/**
 * The months a table moved into monthly partitions needs: every month `monthsOf` (a query answering
 * `month` per row) holds a row in, and now's and the next (the maintenance job makes later ones).
 */
export async function monthsToMake(queryRunner: QueryRunner, monthsOf: string): Promise<Date[]> {
  const rows = (await queryRunner.query(monthsOf)) as Array<{ month: Date | string }>;
  const now = new Date();
  const months = new Map<number, Date>();
  for (const m of [...rows.map((r) => monthStart(new Date(r.month))), monthStart(now), monthStart(now, 1)]) {
    months.set(m.getTime(), m);
  }
  return [...months.values()].sort((a, b) => a.getTime() - b.getTime());
}

/** `table`'s partition of `month`, named as the partition code names it (`events_y2026m11`). */
export function monthPartition(schema: string, table: string, month: Date): string {
  const name = `${table}_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
  return `CREATE TABLE IF NOT EXISTS ${schema}.${name} PARTITION OF ${schema}.${table}
    FOR VALUES FROM ('${month.toISOString()}') TO ('${monthStart(month, 1).toISOString()}')`;
}

/** Fails the migration (its transaction: nothing changes) unless `table` holds as many rows as `before`. */
export async function assertCount(queryRunner: QueryRunner, table: string, before: string | number): Promise<void> {
  const [{ n }] = (await queryRunner.query(`SELECT count(*)::bigint AS n FROM ${table}`)) as Array<{ n: string }>;
  if (String(n) !== String(before)) throw new Error(`${table}: ${before} row(s) before partitioning, ${n} after`);
}

/** The number of rows of `table`, as text. */
export async function countRows(queryRunner: QueryRunner, table: string): Promise<string> {
  const [{ n }] = (await queryRunner.query(`SELECT count(*)::bigint AS n FROM ${table}`)) as Array<{ n: string }>;
  return String(n);
}

/** The first instant (UTC) of `at`'s day, moved by `days`. */
export function dayStart(at: Date, days = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + days));
}

/**
 * The days a table moved into daily partitions needs: every day `daysOf` (a query answering `day`
 * per row) holds a row in, and today's and the `ahead` next (the maintenance job makes later ones).
 */
export async function daysToMake(queryRunner: QueryRunner, daysOf: string, ahead: number): Promise<Date[]> {
  const rows = (await queryRunner.query(daysOf)) as Array<{ day: Date | string }>;
  const now = new Date();
  const days = new Map<number, Date>();
  const coming = Array.from({ length: ahead + 1 }, (_, k) => dayStart(now, k));
  for (const d of [...rows.map((r) => dayStart(new Date(r.day))), ...coming]) days.set(d.getTime(), d);
  return [...days.values()].sort((a, b) => a.getTime() - b.getTime());
}

/** `table`'s partition of `day`, named as the partition code names it (`idempotency_keys_y2026m11d05`), and its name. */
export function dayPartition(schema: string, table: string, day: Date): { name: string; sql: string } {
  const pad = (n: number) => String(n).padStart(2, '0');
  const name = `${table}_y${day.getUTCFullYear()}m${pad(day.getUTCMonth() + 1)}d${pad(day.getUTCDate())}`;
  return {
    name,
    sql: `CREATE TABLE IF NOT EXISTS ${schema}.${name} PARTITION OF ${schema}.${table}
    FOR VALUES FROM ('${day.toISOString()}') TO ('${dayStart(day, 1).toISOString()}')`,
  };
}
