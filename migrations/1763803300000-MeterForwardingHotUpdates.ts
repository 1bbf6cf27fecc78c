import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * The outbox forwarder's two updates become heap-only (HOT) updates (docs/METERING.md): no new index entries, and a WAL record of what changed rather than a whole row.
 *
 * - `meter_events`: every event is written once by its request and updated once when delivered
 *   (`delivery_status`, `delivered_at`, `errors`: no indexed column). With full pages the new
 *   version went to another page, with three new index entries.
 * - `meter_event_outbox`: a lease moved `next_attempt_at`, which is indexed. It now sets
 *   `leased_until`, which is not; `next_attempt_at` only changes when an attempt fails.
 *
 * Both tables leave 55% of each page free (fillfactor 45) for those updates. A row's updated
 * version is a few bytes longer (a timestamp that was null, a longer status) and takes a line
 * pointer of its own; at 50 the last rows of a page would find no room, and the rows of a page are
 * often updated in one statement, so pruning cannot free the space of their old versions first.
 *
 * Applies to pages written from now on.
 */
export class MeterForwardingHotUpdates1763803300000 implements MigrationInterface {
  name = 'MeterForwardingHotUpdates1763803300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.meter_events SET (fillfactor = 45)`,
      `ALTER TABLE ${s}.meter_event_outbox ADD COLUMN leased_until timestamptz, SET (fillfactor = 45)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.meter_event_outbox DROP COLUMN leased_until, RESET (fillfactor)`,
      `ALTER TABLE ${s}.meter_events RESET (fillfactor)`,
    ]);
  }
}
