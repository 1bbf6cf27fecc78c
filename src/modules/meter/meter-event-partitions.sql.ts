import type { EntityManager } from 'typeorm';
import { METER_EVENTS } from '../../common/database/partitions/partitioned-tables.js';
import * as partitions from '../../common/database/partitions/partitions.sql.js';

/**
 * The monthly partitions of `meter_events` (docs/METERING.md "Partitions"): the registry's
 * METER_EVENTS family, made and dropped by the common partition code (partitions.sql.ts) that the
 * maintenance job runs for every family. The storage path (a row whose month has no partition yet)
 * and the partitions benchmark use these.
 */

export { isMissingPartition, monthStart } from '../../common/database/partitions/partitions.sql.js';

/** `meter_events_y2026m11`: the partition holding the events received in the month starting at `month`. */
export function partitionName(month: Date): string {
  return partitions.partitionName('meter_events', month, 'month');
}

/** Makes the months from `from`'s to `to`'s of `schema`'s `meter_events` where missing; answers those made. */
export function ensureMonthPartitions(manager: EntityManager, schema: string, from: Date, to: Date): Promise<string[]> {
  return partitions.ensurePartitions(manager, schema, METER_EVENTS, from, to);
}

/** The monthly partitions of `schema`'s `meter_events`, oldest first. */
export async function listPartitions(
  manager: EntityManager,
  schema: string,
): Promise<Array<{ name: string; month: Date; end: Date }>> {
  const found = await partitions.listPartitions(manager, schema, 'meter_events', 'month');
  return found.map((p) => ({ name: p.name, month: p.start, end: p.end }));
}

/** Drops the months of `schema`'s `meter_events` wholly received before `cutoff`; answers those dropped. */
export function dropPartitionsBefore(
  manager: EntityManager,
  schema: string,
  cutoff: Date,
  lockTimeoutMs = 2000,
): Promise<string[]> {
  return partitions.dropPartitionsBefore(manager, schema, METER_EVENTS, cutoff, lockTimeoutMs);
}
