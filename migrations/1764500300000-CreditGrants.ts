import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Prepaid credit (docs/BILLING.md, "Prepaid credit"). A credit grant is a customer's prepaid balance
 * in one currency; its money sits in the ledger's `customer_credit` balance, and `remaining` here is
 * its share of that balance (never below zero). `credit_usage` holds, per customer and currency, the
 * rated usage of credit-enforced meters accepted and not billed yet (`unbilled`); ingestion raises it
 * with one conditional UPDATE so concurrent events never pass the remaining credit.
 * `credit_usage_buckets` keeps the quantity and its rated amount per subscription item and period,
 * so a tiered price rates an event at its marginal cost. Meters gain `enforce_credit`.
 */
export class CreditGrants1764500300000 implements MigrationInterface {
  name = 'CreditGrants1764500300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.credit_grants (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         customer_id uuid NOT NULL,
         test_clock_id uuid,
         name text,
         category text NOT NULL,
         currency text NOT NULL,
         scaling_factor integer NOT NULL,
         amount bigint NOT NULL CHECK (amount > 0),
         remaining bigint NOT NULL CHECK (remaining >= 0 AND remaining <= amount),
         price_ids jsonb NOT NULL,
         effective_at timestamptz NOT NULL,
         expires_at timestamptz,
         status text NOT NULL,
         voided_at timestamptz,
         expired_at timestamptz,
         balance_id uuid NOT NULL,
         metadata jsonb NOT NULL,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX credit_grants_app_created_idx ON ${s}.credit_grants (application_id, created_at, id)`,
      `CREATE INDEX credit_grants_customer_idx ON ${s}.credit_grants (application_id, customer_id, currency)
         WHERE status = 'active'`,
      `CREATE INDEX credit_grants_expiry_idx ON ${s}.credit_grants (expires_at)
         WHERE status = 'active' AND expires_at IS NOT NULL`,
      `CREATE TABLE ${s}.credit_usage (
         application_id uuid NOT NULL,
         customer_id uuid NOT NULL,
         currency text NOT NULL,
         unbilled bigint NOT NULL,
         updated_at timestamptz NOT NULL,
         PRIMARY KEY (application_id, customer_id, currency))`,
      `CREATE TABLE ${s}.credit_usage_buckets (
         application_id uuid NOT NULL,
         customer_id uuid NOT NULL,
         subscription_id uuid NOT NULL,
         subscription_item_id uuid NOT NULL,
         period_start timestamptz NOT NULL,
         currency text NOT NULL,
         quantity numeric NOT NULL,
         amount bigint NOT NULL,
         PRIMARY KEY (subscription_item_id, period_start))`,
      `CREATE INDEX credit_usage_buckets_subscription_idx ON ${s}.credit_usage_buckets (subscription_id, period_start)`,
      `ALTER TABLE ${s}.meters ADD COLUMN enforce_credit boolean NOT NULL DEFAULT false`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.meters DROP COLUMN enforce_credit`,
      `DROP TABLE ${s}.credit_usage_buckets`,
      `DROP TABLE ${s}.credit_usage`,
      `DROP TABLE ${s}.credit_grants`,
    ]);
  }
}
