import type { EntityManager } from 'typeorm';
import type { PartitionFamily, PartitionGranularity } from './partitioned-tables.js';

/**
 * Native range partitions of the append-only tables (docs/SCALING.md "Partitioned tables"), for
 * every family of the registry (partitioned-tables.ts). Plain code with no Nest imports: the
 * maintenance job, the storage paths that make a missing partition on demand, the migrations' tests
 * and the partitions benchmark all make and drop partitions through it.
 */

/** The first instant (UTC) of `at`'s month, moved by `months`. */
export function monthStart(at: Date, months = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
}

/** The first instant (UTC) of `at`'s period (month or day), moved by `periods`. */
export function periodStart(at: Date, granularity: PartitionGranularity, periods = 0): Date {
  if (granularity === 'month') return monthStart(at, periods);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + periods));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `events_y2026m11` (a month) or `idempotency_keys_y2026m11d05` (a day): `table`'s partition of the period starting at `start`. */
export function partitionName(table: string, start: Date, granularity: PartitionGranularity): string {
  const month = `${table}_y${start.getUTCFullYear()}m${pad(start.getUTCMonth() + 1)}`;
  return granularity === 'month' ? month : `${month}d${pad(start.getUTCDate())}`;
}

/**
 * Partition changes of one family in one schema are serialized by this transaction-scoped advisory
 * lock, so two replicas (or a request and the job) making the same period never collide on the
 * catalog, and a drop never races a make.
 */
function lockKey(schema: string, family: PartitionFamily): string {
  return `hashtext('${schema}.${family.name} partitions')`;
}

/** The statements that make `table`'s partition of the period starting at `start` where missing. */
function makePartition(schema: string, family: PartitionFamily, table: string, start: Date): string[] {
  const spec = family.tables.find((t) => t.table === table)!;
  const name = partitionName(table, start, family.granularity);
  const end = periodStart(start, family.granularity, 1);
  return [
    `CREATE TABLE IF NOT EXISTS "${schema}"."${name}" PARTITION OF "${schema}"."${table}"
       FOR VALUES FROM ('${start.toISOString()}') TO ('${end.toISOString()}')${spec.storage ? ` WITH (${spec.storage})` : ''}`,
    ...(spec.partitionIndexes?.(`"${schema}"."${name}"`, name) ?? []),
    ...(spec.partitionTriggers?.(`"${schema}"."${name}"`, name) ?? []),
  ];
}

/**
 * Makes the partitions of the periods from `from`'s to `to`'s (both included) of every table of
 * `family` in `schema` where missing, in one transaction under the family's advisory lock. Answers
 * the partitions made (every table's, in the family's order per period).
 */
export async function ensurePartitions(
  manager: EntityManager,
  schema: string,
  family: PartitionFamily,
  from: Date,
  to: Date,
): Promise<string[]> {
  return manager.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${lockKey(schema, family)})`);
    const made: string[] = [];
    for (const { table } of family.tables) {
      const existing = new Set((await listPartitions(tx, schema, table, family.granularity)).map((p) => p.name));
      for (let start = periodStart(from, family.granularity); start <= to;) {
        const name = partitionName(table, start, family.granularity);
        if (!existing.has(name)) {
          for (const sql of makePartition(schema, family, table, start)) await tx.query(sql);
          made.push(name);
        }
        start = periodStart(start, family.granularity, 1);
      }
    }
    return made;
  });
}

export interface Partition {
  name: string;
  start: Date;
  end: Date;
}

/** The partitions of `schema`'s `table`, oldest first (read from the names the functions above give). */
export async function listPartitions(
  manager: EntityManager,
  schema: string,
  table: string,
  granularity: PartitionGranularity,
): Promise<Partition[]> {
  const rows = (await manager.query(
    `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = to_regclass($1)`,
    [`"${schema}"."${table}"`],
  )) as Array<{ name: string }>;
  const pattern = new RegExp(`^${table}_y(\\d{4})m(\\d{2})${granularity === 'day' ? 'd(\\d{2})' : ''}$`);
  return rows
    .map(({ name }) => {
      const m = pattern.exec(name);
      if (!m) return null;
      const start = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : 1));
      return { name, start, end: periodStart(start, granularity, 1) };
    })
    .filter((p): p is Partition => p !== null)
    .sort((a, b) => a.start.getTime() - b.start.getTime());
}

/**
 * Drops the periods of `family` in `schema` whose whole range ends at or before `cutoff`: each period
 * (all the family's tables' partitions of it, in the family's order) detached and dropped in its own
 * short transaction under the family's advisory lock, waiting at most `lockTimeoutMs` for its lock
 * on each parent (a long read holding one makes this period wait for the next run rather than queue
 * every insert behind it). `beforeDrop` runs first in that transaction with the period's partitions
 * still attached (the audit log's checkpoint; idempotency keys carried forward) and may keep the
 * period for a later run by answering false. Never a row-by-row delete, so nothing is left for
 * vacuum. Plain DETACH, not CONCURRENTLY: that cannot run in a transaction (so not with the advisory
 * lock) and, interrupted, leaves the partition half-detached until someone runs FINALIZE; DETACH and
 * DROP only touch the catalog, so the locks are held for milliseconds. Answers the partitions
 * dropped, oldest period first.
 */
export async function dropPartitionsBefore(
  manager: EntityManager,
  schema: string,
  family: PartitionFamily,
  cutoff: Date,
  lockTimeoutMs = 2000,
  beforeDrop?: (tx: EntityManager, period: { start: Date; end: Date }) => Promise<boolean | void>,
): Promise<string[]> {
  const periods = new Map<number, Date>();
  for (const { table } of family.tables) {
    for (const p of await listPartitions(manager, schema, table, family.granularity)) {
      if (p.end <= cutoff) periods.set(p.start.getTime(), p.start);
    }
  }
  const dropped: string[] = [];
  for (const start of [...periods.values()].sort((a, b) => a.getTime() - b.getTime())) {
    const names = await manager.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${lockKey(schema, family)})`);
      const present: string[] = [];
      for (const { table } of family.tables) {
        const name = partitionName(table, start, family.granularity);
        // Another replica's run may have dropped it while this one waited for the lock.
        const [{ exists }] = (await tx.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [
          `"${schema}"."${name}"`,
        ])) as Array<{ exists: boolean }>;
        if (exists) present.push(name);
      }
      if (!present.length) return [];
      await tx.query(`SET LOCAL lock_timeout = ${Math.trunc(lockTimeoutMs)}`);
      if ((await beforeDrop?.(tx, { start, end: periodStart(start, family.granularity, 1) })) === false) return [];
      for (const { table } of family.tables) {
        const name = partitionName(table, start, family.granularity);
        if (!present.includes(name)) continue;
        await tx.query(`ALTER TABLE "${schema}"."${table}" DETACH PARTITION "${schema}"."${name}"`);
        await tx.query(`DROP TABLE "${schema}"."${name}"`);
      }
      return present;
    });
    dropped.push(...names);
  }
  return dropped;
}

/**
 * Drops the partitions of `family`'s drained-early tables (`drainedEarly`: queues) in `schema` whose
 * period ended at or before `now` and that hold no rows, ahead of the family's retention; the other
 * tables keep the period. A partition that still holds a row (an event not yet delivered) stays, and
 * is looked at again on the next run. Each partition in its own short transaction under the family's
 * advisory lock, waiting at most `lockTimeoutMs` for its locks: the partition is detached first (the
 * parent's and the partition's ACCESS EXCLUSIVE lock, taken parent first as every statement through
 * the parent takes them, so no deadlock), then its emptiness checked again under that lock, so a row
 * written meanwhile (a request stamped before the month ended, committing after) is never lost: it
 * rolls the detach back. A first look without any lock skips the partitions that plainly hold rows
 * without locking anything. Answers the partitions dropped, oldest period first.
 */
export async function dropDrainedPartitions(
  manager: EntityManager,
  schema: string,
  family: PartitionFamily,
  now: Date,
  lockTimeoutMs = 2000,
): Promise<string[]> {
  const dropped: string[] = [];
  for (const { table } of family.tables.filter((t) => t.drainedEarly)) {
    for (const p of await listPartitions(manager, schema, table, family.granularity)) {
      if (p.end > now) continue;
      const qualified = `"${schema}"."${p.name}"`;
      const holdsRows = async (m: EntityManager) =>
        ((await m.query(`SELECT EXISTS (SELECT 1 FROM ${qualified}) AS rows`)) as Array<{ rows: boolean }>)[0].rows;
      // Skipped while it holds rows, or when another replica's run dropped it since the list was read.
      const skip = await holdsRows(manager).catch((error: unknown) => {
        if (sqlState(error) === '42P01') return true;
        throw error;
      });
      if (skip) continue;
      const gone = await manager.transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock(${lockKey(schema, family)})`);
        const [{ exists }] = (await tx.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [qualified])) as Array<{
          exists: boolean;
        }>;
        if (!exists) return false;
        await tx.query(`SET LOCAL lock_timeout = ${Math.trunc(lockTimeoutMs)}`);
        await tx.query('SAVEPOINT drained');
        await tx.query(`ALTER TABLE "${schema}"."${table}" DETACH PARTITION ${qualified}`);
        if (await holdsRows(tx)) {
          await tx.query('ROLLBACK TO SAVEPOINT drained');
          return false;
        }
        await tx.query(`DROP TABLE ${qualified}`);
        return true;
      });
      if (gone) dropped.push(p.name);
    }
  }
  return dropped;
}

/** True for PostgreSQL's refusal of a row whose partition key no partition covers (a period not made yet). */
export function isMissingPartition(error: unknown): boolean {
  return (
    sqlState(error) === '23514' &&
    /no partition of relation/.test((error as { message?: string } | null)?.message ?? '')
  );
}

/** The SQLSTATE of a database error, the driver's or as TypeORM wraps it; undefined for anything else. */
function sqlState(error: unknown): string | undefined {
  const e = error as { code?: string; driverError?: { code?: string } } | null;
  return e?.code ?? e?.driverError?.code;
}

/**
 * Makes sure the period of `at` has its partitions in every table of `family` before a row goes in,
 * inside the caller's transaction (`manager`), for the writes that cannot retry a failed statement
 * (an event is written in the transaction of the change it records). The periods seen present are
 * remembered per process, so after the first row of a period this costs nothing. A period still
 * missing (the maintenance job makes them `ahead`, so only when it has not run for that long, or a
 * clock moved ahead in tests) is made in the caller's transaction under the family's advisory lock:
 * that holds the parents' ACCESS EXCLUSIVE lock until it commits, a rare pause rather than a failed
 * change.
 */
export class PartitionCoverage {
  private readonly present = new Set<string>();

  constructor(private readonly family: PartitionFamily) {}

  async ensure(manager: EntityManager, schema: string, at: Date): Promise<void> {
    const start = periodStart(at, this.family.granularity);
    const key = `${schema}:${start.getTime()}`;
    if (this.present.has(key)) return;
    const names = this.family.tables.map(
      ({ table }) => `"${schema}"."${partitionName(table, start, this.family.granularity)}"`,
    );
    const [{ missing }] = (await manager.query(
      `SELECT count(*) FILTER (WHERE to_regclass(n) IS NULL)::int AS missing FROM unnest($1::text[]) n`,
      [names],
    )) as Array<{ missing: number }>;
    if (missing > 0) {
      await manager.query(`SELECT pg_advisory_xact_lock(${lockKey(schema, this.family)})`);
      for (const { table } of this.family.tables) {
        for (const sql of makePartition(schema, this.family, table, start)) await manager.query(sql);
      }
    }
    this.present.add(key);
  }
}
