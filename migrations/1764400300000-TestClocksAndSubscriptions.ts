import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Test clocks and subscriptions (docs/BILLING.md, "Subscriptions" and "Test clocks").
 * A customer may live on a test clock (`customers.test_clock_id`, test mode only). A subscription
 * copies its customer's clock; `next_event_at` is when its next time-driven step is due by that
 * clock, and two partial indexes serve the job's two claims: subscriptions on the service clock
 * (`test_clock_id IS NULL`) and those of one advancing test clock. Pending items are the
 * prorations (and later other one-off amounts) that the next invoice bills (part 2 sets
 * `invoice_id`).
 */
export class TestClocksAndSubscriptions1764400300000 implements MigrationInterface {
  name = 'TestClocksAndSubscriptions1764400300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.test_clocks (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         name text,
         frozen_time timestamptz NOT NULL,
         target_frozen_time timestamptz,
         status text NOT NULL,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX test_clocks_app_created_idx ON ${s}.test_clocks (application_id, created_at, id)`,
      `CREATE INDEX test_clocks_advancing_idx ON ${s}.test_clocks (updated_at) WHERE status = 'advancing'`,
      `ALTER TABLE ${s}.customers ADD COLUMN test_clock_id uuid`,
      `CREATE INDEX customers_test_clock_idx ON ${s}.customers (application_id, test_clock_id)
         WHERE test_clock_id IS NOT NULL`,
      `CREATE TABLE ${s}.subscriptions (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         customer_id uuid NOT NULL,
         test_clock_id uuid,
         status text NOT NULL,
         currency text NOT NULL,
         interval text NOT NULL,
         interval_count integer NOT NULL,
         collection_method text NOT NULL,
         days_until_due integer,
         default_payment_method text,
         billing_cycle_anchor timestamptz NOT NULL,
         current_period_start timestamptz NOT NULL,
         current_period_end timestamptz NOT NULL,
         trial_start timestamptz,
         trial_end timestamptz,
         trial_will_end_sent boolean NOT NULL,
         cancel_at_period_end boolean NOT NULL,
         canceled_at timestamptz,
         ended_at timestamptz,
         cancellation_details jsonb,
         coupon text,
         promotion_code text,
         default_tax_rates jsonb NOT NULL,
         latest_invoice uuid,
         next_event_at timestamptz,
         metadata jsonb NOT NULL,
         created timestamptz NOT NULL,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX subscriptions_app_created_idx ON ${s}.subscriptions (application_id, created_at, id)`,
      `CREATE INDEX subscriptions_customer_idx ON ${s}.subscriptions (application_id, customer_id)`,
      `CREATE INDEX subscriptions_due_idx ON ${s}.subscriptions (next_event_at)
         WHERE test_clock_id IS NULL AND next_event_at IS NOT NULL`,
      `CREATE INDEX subscriptions_clock_due_idx ON ${s}.subscriptions (test_clock_id, next_event_at)
         WHERE test_clock_id IS NOT NULL AND next_event_at IS NOT NULL`,
      `CREATE TABLE ${s}.subscription_items (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         subscription_id uuid NOT NULL REFERENCES ${s}.subscriptions (id),
         price_id uuid NOT NULL,
         quantity integer,
         metadata jsonb NOT NULL,
         created_at timestamptz NOT NULL,
         UNIQUE (subscription_id, price_id))`,
      `CREATE INDEX subscription_items_price_idx ON ${s}.subscription_items (application_id, price_id)`,
      `CREATE TABLE ${s}.subscription_pending_items (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         subscription_id uuid NOT NULL REFERENCES ${s}.subscriptions (id),
         subscription_item_id uuid,
         price_id uuid NOT NULL,
         kind text NOT NULL,
         description text NOT NULL,
         quantity integer NOT NULL,
         amount bigint NOT NULL,
         currency text NOT NULL,
         scaling_factor integer NOT NULL,
         period_start timestamptz NOT NULL,
         period_end timestamptz NOT NULL,
         invoice_id uuid,
         created_at timestamptz NOT NULL)`,
      `CREATE INDEX subscription_pending_items_sub_idx ON ${s}.subscription_pending_items
         (application_id, subscription_id, created_at, id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP TABLE ${s}.subscription_pending_items`,
      `DROP TABLE ${s}.subscription_items`,
      `DROP TABLE ${s}.subscriptions`,
      `DROP INDEX ${s}.customers_test_clock_idx`,
      `ALTER TABLE ${s}.customers DROP COLUMN test_clock_id`,
      `DROP TABLE ${s}.test_clocks`,
    ]);
  }
}
