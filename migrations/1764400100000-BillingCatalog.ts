import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * The billing catalog (docs/BILLING.md): products, prices, coupons, promotion codes and tax rates.
 * A price's amounts and a tax rate's percentage never change once created (no UPDATE touches them).
 */
export class BillingCatalog1764400100000 implements MigrationInterface {
  name = 'BillingCatalog1764400100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.products (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         name text NOT NULL,
         description text,
         active boolean NOT NULL,
         metadata jsonb NOT NULL,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX products_app_created_idx ON ${s}.products (application_id, created_at, id)`,
      `CREATE TABLE ${s}.prices (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         product_id uuid NOT NULL REFERENCES ${s}.products (id),
         currency text NOT NULL,
         scaling_factor integer NOT NULL,
         type text NOT NULL,
         billing_scheme text NOT NULL,
         unit_amount bigint,
         tiers jsonb,
         tiers_mode text,
         transform_quantity jsonb,
         recurring jsonb,
         meter_id uuid,
         tax_behavior text NOT NULL,
         active boolean NOT NULL,
         lookup_key text,
         metadata jsonb NOT NULL,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX prices_app_created_idx ON ${s}.prices (application_id, created_at, id)`,
      `CREATE INDEX prices_app_product_idx ON ${s}.prices (application_id, product_id)`,
      `CREATE UNIQUE INDEX prices_app_lookup_key_idx ON ${s}.prices (application_id, lookup_key)
         WHERE active AND lookup_key IS NOT NULL`,
      `CREATE TABLE ${s}.coupons (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         name text,
         percent_off numeric(5, 2),
         amount_off bigint,
         currency text,
         scaling_factor integer,
         duration text NOT NULL,
         duration_in_months integer,
         max_redemptions integer,
         redeem_by timestamptz,
         times_redeemed integer NOT NULL DEFAULT 0,
         deleted_at timestamptz,
         metadata jsonb NOT NULL,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL,
         CHECK (max_redemptions IS NULL OR times_redeemed <= max_redemptions))`,
      `CREATE INDEX coupons_app_created_idx ON ${s}.coupons (application_id, created_at, id)`,
      `CREATE TABLE ${s}.promotion_codes (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         code text NOT NULL,
         coupon_id uuid NOT NULL REFERENCES ${s}.coupons (id),
         active boolean NOT NULL,
         max_redemptions integer,
         expires_at timestamptz,
         times_redeemed integer NOT NULL DEFAULT 0,
         first_time_transaction boolean NOT NULL,
         minimum_amount bigint,
         minimum_amount_currency text,
         metadata jsonb NOT NULL,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL,
         CHECK (max_redemptions IS NULL OR times_redeemed <= max_redemptions))`,
      `CREATE INDEX promotion_codes_app_created_idx ON ${s}.promotion_codes (application_id, created_at, id)`,
      `CREATE UNIQUE INDEX promotion_codes_app_code_idx ON ${s}.promotion_codes (application_id, lower(code))`,
      `CREATE TABLE ${s}.tax_rates (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         display_name text NOT NULL,
         description text,
         percentage numeric(7, 4) NOT NULL,
         inclusive boolean NOT NULL,
         country text,
         jurisdiction text,
         active boolean NOT NULL,
         metadata jsonb NOT NULL,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX tax_rates_app_created_idx ON ${s}.tax_rates (application_id, created_at, id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP TABLE ${s}.tax_rates`,
      `DROP TABLE ${s}.promotion_codes`,
      `DROP TABLE ${s}.coupons`,
      `DROP TABLE ${s}.prices`,
      `DROP TABLE ${s}.products`,
    ]);
  }
}
