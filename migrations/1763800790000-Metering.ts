import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Meters, meter events with their delivery outbox, and the built-in sandbox billing provider's own
 * tables (what it was sent), per mode.
 */
export class Metering1763800790000 implements MigrationInterface {
  name = 'Metering1763800790000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.meters (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        display_name text NOT NULL,
        event_name text NOT NULL,
        event_payload_key text NOT NULL,
        aggregation text NOT NULL CHECK (aggregation IN ('sum', 'count', 'last')),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (application_id, event_name)
      )`,
      `CREATE INDEX meters_app_created_idx ON ${s}.meters (application_id, created_at DESC, id DESC)`,
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
      )`,
      `CREATE INDEX meter_events_summary_idx ON ${s}.meter_events (application_id, meter_id, customer_id, occurred_at)`,
      `CREATE TABLE ${s}.meter_event_outbox (
        event_id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX meter_event_outbox_due_idx ON ${s}.meter_event_outbox (next_attempt_at)`,
      `CREATE TABLE ${s}.billing_sandbox_customers (
        reference text PRIMARY KEY,
        application_id uuid NOT NULL,
        customer_id uuid NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE TABLE ${s}.billing_sandbox_events (
        identifier text NOT NULL,
        application_id uuid NOT NULL,
        event_name text NOT NULL,
        payload jsonb NOT NULL,
        occurred_at timestamptz NOT NULL,
        received_count integer NOT NULL DEFAULT 1,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (application_id, identifier)
      )`,
      `CREATE TABLE ${s}.billing_sandbox_settings (
        application_id uuid PRIMARY KEY,
        failing boolean NOT NULL DEFAULT false
      )`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP TABLE ${s}.billing_sandbox_settings`,
      `DROP TABLE ${s}.billing_sandbox_events`,
      `DROP TABLE ${s}.billing_sandbox_customers`,
      `DROP TABLE ${s}.meter_event_outbox`,
      `DROP TABLE ${s}.meter_events`,
      `DROP TABLE ${s}.meters`,
    ]);
  }
}
