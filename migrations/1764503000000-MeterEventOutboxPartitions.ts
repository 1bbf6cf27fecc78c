import type { MigrationInterface, QueryRunner } from 'typeorm';
import { MODE_SCHEMAS, assertCount, countRows, monthPartition, monthsToMake, renameAside } from './support.js';

const COLUMNS = 'event_id, application_id, attempts, next_attempt_at, created_at, leased_until, traceparent';

/** The outbox's columns, the same before and after: only its key and its storage change. */
const COLUMN_DEFINITIONS = `event_id uuid NOT NULL,
           application_id uuid NOT NULL,
           attempts integer NOT NULL DEFAULT 0,
           next_attempt_at timestamptz NOT NULL,
           created_at timestamptz NOT NULL,
           leased_until timestamptz,
           traceparent text`;

/**
 * `meter_event_outbox` becomes a table partitioned by month of `created_at` (its event's receipt,
 * docs/METERING.md "Partitions"), in the `meter_events` family: the same months, made ahead and dropped
 * with the events' months, and a month whose outbox rows are all delivered or abandoned is dropped as
 * soon as it has ended, taking the queue's dead tuples and index bloat with it. The primary key becomes
 * `(event_id, created_at)` (a partitioned table's unique keys must contain its partition key; an event
 * has one outbox row and one `created_at`, so uniqueness is unchanged). Each partition keeps the
 * forwarder's fillfactor 45 (migration MeterForwardingHotUpdates: a lease is a heap-only update).
 *
 * In place, per mode schema, in this migration's transaction: the table is renamed aside, the
 * partitioned one created with a partition for every month `meter_events` has one for (and any month an
 * outbox row names), the rows copied, the count checked (the migration fails, changing nothing, if it
 * differs) and the old table dropped.
 */
export class MeterEventOutboxPartitions1764503000000 implements MigrationInterface {
  name = 'MeterEventOutboxPartitions1764503000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const s of MODE_SCHEMAS) {
      const before = await countRows(queryRunner, `${s}.meter_event_outbox`);
      const old = await renameAside(queryRunner, s, 'meter_event_outbox');
      for (const sql of [
        `CREATE TABLE ${s}.meter_event_outbox (
           ${COLUMN_DEFINITIONS},
           PRIMARY KEY (event_id, created_at)
         ) PARTITION BY RANGE (created_at)`,
        `CREATE INDEX meter_event_outbox_due_idx ON ${s}.meter_event_outbox (next_attempt_at)`,
      ]) {
        await queryRunner.query(sql);
      }
      // The events' months (the migration MeterEventPartitions and the partition job made them, ahead
      // included), so the family has both tables' partitions of every month, and any month an outbox row names.
      const months = await monthsToMake(
        queryRunner,
        `SELECT DISTINCT date_trunc('month', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month FROM ${old}
         UNION
         SELECT make_timestamptz(substring(c.relname from '_y(\\d{4})m')::int, substring(c.relname from 'm(\\d{2})$')::int, 1, 0, 0, 0, 'UTC')
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = '${s}.meter_events'::regclass AND c.relname ~ '^meter_events_y\\d{4}m\\d{2}$'`,
      );
      for (const month of months) {
        await queryRunner.query(`${monthPartition(s, 'meter_event_outbox', month)} WITH (fillfactor = 45)`);
      }
      await queryRunner.query(`INSERT INTO ${s}.meter_event_outbox (${COLUMNS}) SELECT ${COLUMNS} FROM ${old}`);
      await assertCount(queryRunner, `${s}.meter_event_outbox`, before);
      await queryRunner.query(`DROP TABLE ${old}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const s of MODE_SCHEMAS) {
      const before = await countRows(queryRunner, `${s}.meter_event_outbox`);
      const old = await renameAside(queryRunner, s, 'meter_event_outbox');
      for (const sql of [
        `CREATE TABLE ${s}.meter_event_outbox (
           ${COLUMN_DEFINITIONS},
           PRIMARY KEY (event_id)
         ) WITH (fillfactor = 45)`,
        `CREATE INDEX meter_event_outbox_due_idx ON ${s}.meter_event_outbox (next_attempt_at)`,
        `INSERT INTO ${s}.meter_event_outbox (${COLUMNS}) SELECT ${COLUMNS} FROM ${old}`,
      ]) {
        await queryRunner.query(sql);
      }
      await assertCount(queryRunner, `${s}.meter_event_outbox`, before);
      await queryRunner.query(`DROP TABLE ${old}`);
    }
  }
}
