import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Billing part 2, period close (docs/BILLING.md, "The life of a period"):
 * - `invoices.period_start` / `period_end`, and one invoice per subscription period and reason
 *   (a partial unique index: a replayed job or a restarted process never makes a second one);
 * - `subscription_invoices`: billing's schedule of the invoices it made (when the grace window
 *   ends, when it was finalized), the same key unique again;
 * - `invoice_lines`: an invoice's lines as rows, metered lines with their usage (count, quantity, digest);
 * - `meter_event_billings`: which line counts each meter event. Its primary key is the event, so the
 *   database itself refuses to count one event in two lines;
 * - `invoice_upcoming_notices`: one `invoice.upcoming` per subscription period;
 * - meters may aggregate by `max`.
 */
export class Invoicing1764500100000 implements MigrationInterface {
  name = 'Invoicing1764500100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.invoices ADD COLUMN period_start timestamptz, ADD COLUMN period_end timestamptz`,
      `CREATE UNIQUE INDEX invoices_subscription_period_key ON ${s}.invoices (subscription_id, period_start, billing_reason)
         WHERE subscription_id IS NOT NULL AND period_start IS NOT NULL`,
      `CREATE TABLE ${s}.subscription_invoices (
         invoice_id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         subscription_id uuid NOT NULL,
         customer_id uuid NOT NULL,
         test_clock_id uuid,
         billing_reason text NOT NULL,
         period_start timestamptz NOT NULL,
         period_end timestamptz NOT NULL,
         terms jsonb NOT NULL,
         finalize_at timestamptz NOT NULL,
         finalized_at timestamptz,
         created_at timestamptz NOT NULL,
         UNIQUE (subscription_id, period_start, billing_reason))`,
      `CREATE INDEX subscription_invoices_due_idx ON ${s}.subscription_invoices (finalize_at)
         WHERE finalized_at IS NULL`,
      `CREATE TABLE ${s}.invoice_lines (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         invoice_id uuid NOT NULL,
         subscription_id uuid,
         customer_id uuid NOT NULL,
         type text NOT NULL CHECK (type IN ('subscription', 'proration', 'metered', 'metered_earlier')),
         description text NOT NULL,
         price_id uuid,
         meter_id uuid,
         aggregation text,
         earlier_line_id uuid,
         quantity bigint NOT NULL,
         amount bigint NOT NULL,
         discount_amount bigint NOT NULL,
         tax_amounts jsonb NOT NULL,
         period_start timestamptz NOT NULL,
         period_end timestamptz NOT NULL,
         usage_event_count integer,
         usage_quantity numeric,
         usage_digest text,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX invoice_lines_invoice_idx ON ${s}.invoice_lines (application_id, invoice_id, id)`,
      `CREATE INDEX invoice_lines_metered_idx ON ${s}.invoice_lines (subscription_id, meter_id, period_start)
         WHERE type = 'metered'`,
      `CREATE TABLE ${s}.meter_event_billings (
         event_id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         line_id uuid NOT NULL,
         invoice_id uuid NOT NULL,
         created_at timestamptz NOT NULL)`,
      `CREATE INDEX meter_event_billings_line_idx ON ${s}.meter_event_billings (line_id, event_id)`,
      `CREATE TABLE ${s}.invoice_upcoming_notices (
         subscription_id uuid NOT NULL,
         period_end timestamptz NOT NULL,
         application_id uuid NOT NULL,
         created_at timestamptz NOT NULL,
         PRIMARY KEY (subscription_id, period_end))`,
      `ALTER TABLE ${s}.meters DROP CONSTRAINT meters_aggregation_check`,
      `ALTER TABLE ${s}.meters ADD CONSTRAINT meters_aggregation_check CHECK (aggregation IN ('sum', 'count', 'last', 'max'))`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.meters DROP CONSTRAINT meters_aggregation_check`,
      `ALTER TABLE ${s}.meters ADD CONSTRAINT meters_aggregation_check CHECK (aggregation IN ('sum', 'count', 'last'))`,
      `DROP TABLE ${s}.invoice_upcoming_notices`,
      `DROP TABLE ${s}.meter_event_billings`,
      `DROP TABLE ${s}.invoice_lines`,
      `DROP TABLE ${s}.subscription_invoices`,
      `DROP INDEX ${s}.invoices_subscription_period_key`,
      `ALTER TABLE ${s}.invoices DROP COLUMN period_start, DROP COLUMN period_end`,
    ]);
  }
}
