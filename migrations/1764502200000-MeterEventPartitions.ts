import type { MigrationInterface, QueryRunner } from 'typeorm';
import { MODE_SCHEMAS } from './support.js';

const COLUMNS =
  'id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, delivery_status, delivered_at, errors, created_at';

/** The first instant (UTC) of `at`'s month, moved by `months`. */
function monthStart(at: Date, months = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
}

/** `meter_events_y2026m11`: the partition of the month starting at `month`. */
function partitionName(month: Date): string {
  return `meter_events_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * The partition of one month, as the partition job makes it (docs/METERING.md "Partitions"): the
 * forwarder's fillfactor (migration MeterForwardingHotUpdates) and the identifier's unique index,
 * which a partitioned table can only have per partition.
 */
function monthPartition(schema: string, month: Date): string[] {
  const name = partitionName(month);
  return [
    `CREATE TABLE IF NOT EXISTS ${schema}.${name} PARTITION OF ${schema}.meter_events
       FOR VALUES FROM ('${month.toISOString()}') TO ('${monthStart(month, 1).toISOString()}') WITH (fillfactor = 45)`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${name}_identifier_key ON ${schema}.${name} (application_id, identifier)`,
  ];
}

/**
 * `meter_events` becomes a table partitioned by month of `created_at` (when the event was received;
 * docs/METERING.md "Partitions"), so retention drops whole months instead of deleting rows.
 *
 * In place, per mode schema: the old table is renamed, the partitioned one created with a partition
 * for every month from the oldest stored event to the month after now, the rows copied in one
 * statement (this migration runs in its own transaction: nothing is lost or doubled if it fails),
 * their count checked, and the old table dropped. The primary key becomes `(id, created_at)` (a
 * partitioned table's unique keys must contain its partition key); `(application_id, identifier)`
 * stays unique within each month's partition, and the storage statement checks every earlier month
 * (src/modules/meter/store-events.sql.ts). The outbox stays one plain table: it is a queue whose
 * rows go when delivered, so it stays small.
 */
export class MeterEventPartitions1764502200000 implements MigrationInterface {
  name = 'MeterEventPartitions1764502200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const s of MODE_SCHEMAS) {
      for (const sql of [
        `ALTER TABLE ${s}.meter_events RENAME TO meter_events_unpartitioned`,
        `ALTER INDEX ${s}.meter_events_pkey RENAME TO meter_events_unpartitioned_pkey`,
        `ALTER INDEX ${s}.meter_events_application_id_identifier_key RENAME TO meter_events_unpartitioned_identifier_key`,
        `ALTER INDEX ${s}.meter_events_summary_idx RENAME TO meter_events_unpartitioned_summary_idx`,
        `CREATE TABLE ${s}.meter_events (
          id uuid NOT NULL,
          application_id uuid NOT NULL,
          meter_id uuid NOT NULL,
          event_name text NOT NULL,
          customer_id uuid NOT NULL,
          identifier text NOT NULL,
          payload jsonb NOT NULL,
          value numeric NOT NULL,
          occurred_at timestamptz NOT NULL,
          provider text NOT NULL,
          delivery_status text NOT NULL DEFAULT 'pending' CHECK (delivery_status IN ('pending', 'delivered', 'failed')),
          delivered_at timestamptz,
          errors jsonb NOT NULL DEFAULT '[]',
          created_at timestamptz NOT NULL,
          PRIMARY KEY (id, created_at)
        ) PARTITION BY RANGE (created_at)`,
        `CREATE INDEX meter_events_summary_idx ON ${s}.meter_events (application_id, meter_id, customer_id, occurred_at)`,
      ]) {
        await queryRunner.query(sql);
      }
      const [{ oldest, count }] = (await queryRunner.query(
        `SELECT min(created_at) AS oldest, count(*)::bigint AS count FROM ${s}.meter_events_unpartitioned`,
      )) as Array<{ oldest: Date | null; count: string }>;
      const now = new Date();
      const last = monthStart(now, 1);
      for (let month = monthStart(oldest ? new Date(oldest) : now); month <= last; month = monthStart(month, 1)) {
        for (const sql of monthPartition(s, month)) await queryRunner.query(sql);
      }
      // Events stored ahead of the month after now (a test clock moved forward) get their months too.
      const ahead = (await queryRunner.query(
        `SELECT DISTINCT date_trunc('month', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month
           FROM ${s}.meter_events_unpartitioned WHERE created_at >= $1`,
        [monthStart(last, 1)],
      )) as Array<{ month: Date }>;
      for (const { month } of ahead) for (const sql of monthPartition(s, new Date(month))) await queryRunner.query(sql);
      await queryRunner.query(
        `INSERT INTO ${s}.meter_events (${COLUMNS}) SELECT ${COLUMNS} FROM ${s}.meter_events_unpartitioned`,
      );
      const [{ copied }] = (await queryRunner.query(
        `SELECT count(*)::bigint AS copied FROM ${s}.meter_events`,
      )) as Array<{
        copied: string;
      }>;
      if (String(copied) !== String(count)) {
        throw new Error(`${s}.meter_events: ${count} row(s) before partitioning, ${copied} after`);
      }
      await queryRunner.query(`DROP TABLE ${s}.meter_events_unpartitioned`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const s of MODE_SCHEMAS) {
      for (const sql of [
        `ALTER TABLE ${s}.meter_events RENAME TO meter_events_partitioned`,
        `ALTER INDEX ${s}.meter_events_pkey RENAME TO meter_events_partitioned_pkey`,
        `ALTER INDEX ${s}.meter_events_summary_idx RENAME TO meter_events_partitioned_summary_idx`,
        `CREATE TABLE ${s}.meter_events (
          id uuid PRIMARY KEY,
          application_id uuid NOT NULL,
          meter_id uuid NOT NULL,
          event_name text NOT NULL,
          customer_id uuid NOT NULL,
          identifier text NOT NULL,
          payload jsonb NOT NULL,
          value numeric NOT NULL,
          occurred_at timestamptz NOT NULL,
          provider text NOT NULL,
          delivery_status text NOT NULL DEFAULT 'pending' CHECK (delivery_status IN ('pending', 'delivered', 'failed')),
          delivered_at timestamptz,
          errors jsonb NOT NULL DEFAULT '[]',
          created_at timestamptz NOT NULL,
          UNIQUE (application_id, identifier)
        ) WITH (fillfactor = 45)`,
        `CREATE INDEX meter_events_summary_idx ON ${s}.meter_events (application_id, meter_id, customer_id, occurred_at)`,
        // Identifiers repeated in different months (the race across a month's first second) keep their newest event.
        `INSERT INTO ${s}.meter_events (${COLUMNS})
           SELECT DISTINCT ON (application_id, identifier) ${COLUMNS} FROM ${s}.meter_events_partitioned
           ORDER BY application_id, identifier, created_at DESC`,
        `DROP TABLE ${s}.meter_events_partitioned`,
      ]) {
        await queryRunner.query(sql);
      }
    }
  }
}
