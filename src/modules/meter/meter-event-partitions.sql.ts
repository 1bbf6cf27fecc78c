import type { EntityManager } from 'typeorm';

/**
 * The monthly partitions of `meter_events` (docs/METERING.md "Partitions"). Plain code with no Nest
 * imports: the partition job, the storage path (a row whose month has no partition yet) and the
 * partitions benchmark all make and drop partitions through it.
 */

/** The first instant (UTC) of `at`'s month, moved by `months`. */
export function monthStart(at: Date, months = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
}

/** `meter_events_y2026m11`: the partition holding the events received in the month starting at `month`. */
export function partitionName(month: Date): string {
  return `meter_events_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

const PARTITION_NAME = /^meter_events_y(\d{4})m(\d{2})$/;

/**
 * Partition changes of one schema are serialized by this transaction-scoped advisory lock, so two
 * replicas (or a request and the job) making the same month never collide on the catalog.
 */
function lockKey(schema: string): string {
  return `hashtext('${schema}.meter_events partitions')`;
}

/**
 * Makes the partitions of the months from `from` to `to` (both included) of `schema`'s
 * `meter_events` where missing, in one transaction: each with the forwarder's fillfactor (migration
 * MeterForwardingHotUpdates) and its unique index on `(application_id, identifier)`, which a
 * partitioned table can only have per partition. Answers the partitions made.
 */
export async function ensureMonthPartitions(
  manager: EntityManager,
  schema: string,
  from: Date,
  to: Date,
): Promise<string[]> {
  return manager.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${lockKey(schema)})`);
    const existing = new Set((await listPartitions(tx, schema)).map((p) => p.name));
    const made: string[] = [];
    for (let month = monthStart(from); month <= to; month = monthStart(month, 1)) {
      const name = partitionName(month);
      if (existing.has(name)) continue;
      await tx.query(
        `CREATE TABLE IF NOT EXISTS "${schema}"."${name}" PARTITION OF "${schema}"."meter_events"
           FOR VALUES FROM ('${month.toISOString()}') TO ('${monthStart(month, 1).toISOString()}') WITH (fillfactor = 45)`,
      );
      await tx.query(
        `CREATE UNIQUE INDEX IF NOT EXISTS "${name}_identifier_key" ON "${schema}"."${name}" (application_id, identifier)`,
      );
      made.push(name);
    }
    return made;
  });
}

/** The monthly partitions of `schema`'s `meter_events`, oldest first. */
export async function listPartitions(
  manager: EntityManager,
  schema: string,
): Promise<Array<{ name: string; month: Date; end: Date }>> {
  const rows = (await manager.query(
    `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = to_regclass($1)`,
    [`"${schema}"."meter_events"`],
  )) as Array<{ name: string }>;
  return rows
    .map(({ name }) => {
      const m = PARTITION_NAME.exec(name);
      if (!m) return null;
      const month = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
      return { name, month, end: monthStart(month, 1) };
    })
    .filter((p): p is { name: string; month: Date; end: Date } => p !== null)
    .sort((a, b) => a.month.getTime() - b.month.getTime());
}

/**
 * Drops the partitions of `schema` whose whole month ends at or before `cutoff`: each detached and
 * dropped in its own short transaction that waits at most `lockTimeoutMs` for its lock on the parent
 * (a long read holding it makes this month wait for the next run rather than queue every insert
 * behind it). Never a row-by-row delete, so nothing is left for vacuum. Plain DETACH, not
 * CONCURRENTLY: that cannot run in a transaction (so not with the advisory lock) and, interrupted,
 * leaves the partition half-detached until someone runs FINALIZE; DETACH and DROP only touch the
 * catalog, so the lock is held for milliseconds. Answers the partitions dropped, oldest first.
 */
export async function dropPartitionsBefore(
  manager: EntityManager,
  schema: string,
  cutoff: Date,
  lockTimeoutMs = 2000,
): Promise<string[]> {
  const dropped: string[] = [];
  for (const partition of await listPartitions(manager, schema)) {
    if (partition.end > cutoff) break;
    await manager.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${lockKey(schema)})`);
      // Another replica's run may have dropped it while this one waited for the lock.
      const [{ present }] = (await tx.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [
        `"${schema}"."${partition.name}"`,
      ])) as Array<{ present: boolean }>;
      if (!present) return;
      await tx.query(`SET LOCAL lock_timeout = ${Math.trunc(lockTimeoutMs)}`);
      await tx.query(`ALTER TABLE "${schema}"."meter_events" DETACH PARTITION "${schema}"."${partition.name}"`);
      await tx.query(`DROP TABLE "${schema}"."${partition.name}"`);
    });
    dropped.push(partition.name);
  }
  return dropped;
}

/** True for PostgreSQL's refusal of a row whose partition key no partition covers (a month not made yet). */
export function isMissingPartition(error: unknown): boolean {
  const e = error as { code?: string; message?: string; driverError?: { code?: string } } | null;
  const code = e?.code ?? e?.driverError?.code;
  return code === '23514' && /no partition of relation/.test(e?.message ?? '');
}
