import type { MigrationInterface, QueryRunner } from 'typeorm';
import { MODE_SCHEMAS, assertCount, countRows, monthPartition, monthsToMake, renameAside } from './support.js';

const EVENT_COLUMNS = 'id, application_id, type, api_version, data, request, created_at, traceparent';
const DELIVERY_COLUMNS =
  'endpoint_id, event_id, application_id, event_type, status, attempts, next_attempt_at, retry_window_from, delivered_at, created_at, updated_at';
const ATTEMPT_COLUMNS =
  'id, application_id, endpoint_id, event_id, event_type, attempt, outcome, status_code, duration_ms, response_excerpt, error, next_retry_at, created_at';

/**
 * `events`, `webhook_deliveries` and `webhook_attempts` become tables partitioned by month of the
 * event's `created_at` (docs/EVENTS.md "Retention"): deliveries and attempts gain
 * `event_created_at`, their event's, as their partition key, so an event and everything naming it
 * sit in the same month's partitions and retention drops the three together, whole months at a time,
 * instead of the row-by-row purge.
 *
 * Keys: a partitioned table's unique keys must contain its partition key, so the primary keys become
 * `events (id, created_at)`, `webhook_deliveries (endpoint_id, event_id, event_created_at)` and
 * `webhook_attempts (id, event_created_at)`. Uniqueness is unchanged: ids are UUIDv7 minted once,
 * and an event has one `created_at`, so `(endpoint_id, event_id, event_created_at)` is unique exactly
 * when `(endpoint_id, event_id)` is. The foreign keys from deliveries to events and from attempts to
 * deliveries go: a foreign key into a partitioned table must name its whole key, and detaching a
 * referenced partition makes PostgreSQL look for referencing rows in every partition of the
 * referencing table (a scan that would make retention cost as much as the rows it drops). What they
 * guaranteed is kept by construction: deliveries are only written with their event (same
 * transaction) or for an event read back (a resend), nothing deletes an event row alone, and the
 * three tables' months are dropped in one transaction. The cascade from an endpoint's deletion stays:
 * deliveries and now attempts reference `webhook_endpoints` directly (a plain table).
 *
 * In place, per mode schema, in this migration's transaction: the tables are renamed aside, the
 * partitioned ones created with every month holding a row plus now's and the next, the rows copied
 * (deliveries and attempts with their event's `created_at`), the counts checked (the migration fails,
 * changing nothing, if any differs) and the old tables dropped. It holds the tables' locks for the
 * copy: with many millions of events, plan a maintenance window.
 */
export class EventPartitions1764502400000 implements MigrationInterface {
  name = 'EventPartitions1764502400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const s of MODE_SCHEMAS) {
      const before = {
        events: await countRows(queryRunner, `${s}.events`),
        deliveries: await countRows(queryRunner, `${s}.webhook_deliveries`),
        attempts: await countRows(queryRunner, `${s}.webhook_attempts`),
      };
      const oldAttempts = await renameAside(queryRunner, s, 'webhook_attempts');
      const oldDeliveries = await renameAside(queryRunner, s, 'webhook_deliveries');
      const oldEvents = await renameAside(queryRunner, s, 'events');
      for (const sql of [
        `CREATE TABLE ${s}.events (
           id uuid NOT NULL,
           application_id uuid NOT NULL,
           type text NOT NULL,
           api_version text NOT NULL,
           data jsonb NOT NULL,
           request jsonb,
           created_at timestamptz NOT NULL,
           traceparent text,
           PRIMARY KEY (id, created_at)
         ) PARTITION BY RANGE (created_at)`,
        `CREATE INDEX events_app_created_idx ON ${s}.events (application_id, created_at, id)`,
        `CREATE INDEX events_app_type_created_idx ON ${s}.events (application_id, type, created_at, id)`,
        `CREATE TABLE ${s}.webhook_deliveries (
           endpoint_id uuid NOT NULL CONSTRAINT webhook_deliveries_endpoint_id_fkey
             REFERENCES ${s}.webhook_endpoints (id) ON DELETE CASCADE,
           event_id uuid NOT NULL,
           application_id uuid NOT NULL,
           event_type text NOT NULL,
           status text NOT NULL,
           attempts integer NOT NULL,
           next_attempt_at timestamptz,
           retry_window_from timestamptz NOT NULL,
           delivered_at timestamptz,
           created_at timestamptz NOT NULL,
           updated_at timestamptz NOT NULL,
           event_created_at timestamptz NOT NULL,
           PRIMARY KEY (endpoint_id, event_id, event_created_at)
         ) PARTITION BY RANGE (event_created_at)`,
        `CREATE INDEX webhook_deliveries_due_idx ON ${s}.webhook_deliveries (next_attempt_at, event_id) WHERE status = 'pending'`,
        `CREATE INDEX webhook_deliveries_event_idx ON ${s}.webhook_deliveries (event_id)`,
        `CREATE INDEX webhook_deliveries_endpoint_due_idx ON ${s}.webhook_deliveries (endpoint_id, next_attempt_at, event_id)
           WHERE status = 'pending'`,
        `CREATE TABLE ${s}.webhook_attempts (
           id uuid NOT NULL,
           application_id uuid NOT NULL,
           endpoint_id uuid NOT NULL CONSTRAINT webhook_attempts_endpoint_id_fkey
             REFERENCES ${s}.webhook_endpoints (id) ON DELETE CASCADE,
           event_id uuid NOT NULL,
           event_type text NOT NULL,
           attempt integer NOT NULL,
           outcome text NOT NULL,
           status_code integer,
           duration_ms integer NOT NULL,
           response_excerpt text,
           error text,
           next_retry_at timestamptz,
           created_at timestamptz NOT NULL,
           event_created_at timestamptz NOT NULL,
           PRIMARY KEY (id, event_created_at)
         ) PARTITION BY RANGE (event_created_at)`,
        `CREATE INDEX webhook_attempts_endpoint_idx ON ${s}.webhook_attempts (endpoint_id, created_at, id)`,
        `CREATE INDEX webhook_attempts_event_idx ON ${s}.webhook_attempts (event_id, created_at, id)`,
      ]) {
        await queryRunner.query(sql);
      }
      const months = await monthsToMake(
        queryRunner,
        `SELECT DISTINCT date_trunc('month', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month FROM ${oldEvents}`,
      );
      for (const month of months) {
        for (const table of ['events', 'webhook_deliveries', 'webhook_attempts']) {
          await queryRunner.query(monthPartition(s, table, month));
        }
      }
      for (const sql of [
        `INSERT INTO ${s}.events (${EVENT_COLUMNS}) SELECT ${EVENT_COLUMNS} FROM ${oldEvents}`,
        `INSERT INTO ${s}.webhook_deliveries (${DELIVERY_COLUMNS}, event_created_at)
           SELECT ${DELIVERY_COLUMNS.split(', ')
             .map((c) => `d.${c}`)
             .join(', ')}, e.created_at FROM ${oldDeliveries} d JOIN ${oldEvents} e ON e.id = d.event_id`,
        `INSERT INTO ${s}.webhook_attempts (${ATTEMPT_COLUMNS}, event_created_at)
           SELECT ${ATTEMPT_COLUMNS.split(', ')
             .map((c) => `a.${c}`)
             .join(', ')}, e.created_at FROM ${oldAttempts} a JOIN ${oldEvents} e ON e.id = a.event_id`,
      ]) {
        await queryRunner.query(sql);
      }
      await assertCount(queryRunner, `${s}.events`, before.events);
      await assertCount(queryRunner, `${s}.webhook_deliveries`, before.deliveries);
      await assertCount(queryRunner, `${s}.webhook_attempts`, before.attempts);
      for (const table of [oldAttempts, oldDeliveries, oldEvents]) await queryRunner.query(`DROP TABLE ${table}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const s of MODE_SCHEMAS) {
      const oldAttempts = await renameAside(queryRunner, s, 'webhook_attempts');
      const oldDeliveries = await renameAside(queryRunner, s, 'webhook_deliveries');
      const oldEvents = await renameAside(queryRunner, s, 'events');
      for (const sql of [
        `CREATE TABLE ${s}.events (
           id uuid PRIMARY KEY,
           application_id uuid NOT NULL,
           type text NOT NULL,
           api_version text NOT NULL,
           data jsonb NOT NULL,
           request jsonb,
           created_at timestamptz NOT NULL,
           traceparent text)`,
        `CREATE INDEX events_app_created_idx ON ${s}.events (application_id, created_at, id)`,
        `CREATE INDEX events_app_type_created_idx ON ${s}.events (application_id, type, created_at, id)`,
        `CREATE INDEX events_created_idx ON ${s}.events (created_at, id)`,
        `CREATE TABLE ${s}.webhook_deliveries (
           endpoint_id uuid NOT NULL REFERENCES ${s}.webhook_endpoints (id) ON DELETE CASCADE,
           event_id uuid NOT NULL REFERENCES ${s}.events (id) ON DELETE CASCADE,
           application_id uuid NOT NULL,
           event_type text NOT NULL,
           status text NOT NULL,
           attempts integer NOT NULL,
           next_attempt_at timestamptz,
           retry_window_from timestamptz NOT NULL,
           delivered_at timestamptz,
           created_at timestamptz NOT NULL,
           updated_at timestamptz NOT NULL,
           PRIMARY KEY (endpoint_id, event_id))`,
        `CREATE INDEX webhook_deliveries_due_idx ON ${s}.webhook_deliveries (next_attempt_at, event_id) WHERE status = 'pending'`,
        `CREATE INDEX webhook_deliveries_event_idx ON ${s}.webhook_deliveries (event_id)`,
        `CREATE INDEX webhook_deliveries_endpoint_due_idx ON ${s}.webhook_deliveries (endpoint_id, next_attempt_at, event_id)
           WHERE status = 'pending'`,
        `CREATE TABLE ${s}.webhook_attempts (
           id uuid PRIMARY KEY,
           application_id uuid NOT NULL,
           endpoint_id uuid NOT NULL,
           event_id uuid NOT NULL,
           event_type text NOT NULL,
           attempt integer NOT NULL,
           outcome text NOT NULL,
           status_code integer,
           duration_ms integer NOT NULL,
           response_excerpt text,
           error text,
           next_retry_at timestamptz,
           created_at timestamptz NOT NULL,
           FOREIGN KEY (endpoint_id, event_id) REFERENCES ${s}.webhook_deliveries (endpoint_id, event_id) ON DELETE CASCADE)`,
        `CREATE INDEX webhook_attempts_endpoint_idx ON ${s}.webhook_attempts (endpoint_id, created_at, id)`,
        `CREATE INDEX webhook_attempts_event_idx ON ${s}.webhook_attempts (event_id, created_at, id)`,
        `INSERT INTO ${s}.events (${EVENT_COLUMNS}) SELECT ${EVENT_COLUMNS} FROM ${oldEvents}`,
        `INSERT INTO ${s}.webhook_deliveries (${DELIVERY_COLUMNS}) SELECT ${DELIVERY_COLUMNS} FROM ${oldDeliveries}`,
        `INSERT INTO ${s}.webhook_attempts (${ATTEMPT_COLUMNS}) SELECT ${ATTEMPT_COLUMNS} FROM ${oldAttempts}`,
        `DROP TABLE ${oldAttempts}`,
        `DROP TABLE ${oldDeliveries}`,
        `DROP TABLE ${oldEvents}`,
      ]) {
        await queryRunner.query(sql);
      }
    }
  }
}
