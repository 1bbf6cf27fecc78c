import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * The event log and webhook delivery (docs/EVENTS.md). `events` is written in the same transaction
 * as the change it describes, with one `webhook_deliveries` row (keyed by endpoint and event) per enabled endpoint whose
 * `enabled_events` match (the transactional outbox); the delivery job claims due rows through the
 * partial index with FOR UPDATE SKIP LOCKED and records every attempt in `webhook_attempts`.
 */
export class Events1763801300000 implements MigrationInterface {
  name = 'Events1763801300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.events (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         type text NOT NULL,
         api_version text NOT NULL,
         data jsonb NOT NULL,
         request jsonb,
         created_at timestamptz NOT NULL)`,
      `CREATE INDEX events_app_created_idx ON ${s}.events (application_id, created_at, id)`,
      `CREATE INDEX events_app_type_created_idx ON ${s}.events (application_id, type, created_at, id)`,
      `CREATE TABLE ${s}.webhook_endpoints (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         url text NOT NULL,
         description text,
         enabled_events text[] NOT NULL,
         status text NOT NULL,
         disabled_reason text,
         disabled_at timestamptz,
         secret text NOT NULL,
         previous_secret text,
         previous_secret_expires_at timestamptz,
         metadata jsonb NOT NULL,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX webhook_endpoints_app_created_idx ON ${s}.webhook_endpoints (application_id, created_at, id)`,
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
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP TABLE ${s}.webhook_attempts`,
      `DROP TABLE ${s}.webhook_deliveries`,
      `DROP TABLE ${s}.webhook_endpoints`,
      `DROP TABLE ${s}.events`,
    ]);
  }
}
