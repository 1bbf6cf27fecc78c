import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Collection: the two collection targets (payment intents and invoices), checkouts on them and
 * payment links. Charges and payment methods are the ledger's tables (1763800400000-Ledger).
 */
export class Collection1763801200000 implements MigrationInterface {
  name = 'Collection1763801200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.payment_intents (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        country text NOT NULL,
        status text NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        amount_received bigint NOT NULL DEFAULT 0,
        currency text NOT NULL,
        scaling_factor integer NOT NULL,
        customer_id uuid,
        description text,
        payment_method_types jsonb NOT NULL,
        transfer_destination uuid,
        application_fee_amount bigint NOT NULL DEFAULT 0,
        latest_charge uuid,
        last_payment_error jsonb,
        cancellation_reason text,
        canceled_at timestamptz,
        succeeded_at timestamptz,
        metadata jsonb NOT NULL DEFAULT '{}',
        labels jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX payment_intents_app_created_idx ON ${s}.payment_intents (application_id, created_at DESC, id DESC)`,
      `CREATE INDEX payment_intents_app_customer_idx ON ${s}.payment_intents (application_id, customer_id, created_at DESC)`,

      `CREATE TABLE ${s}.invoices (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        country text NOT NULL,
        number text NOT NULL,
        status text NOT NULL,
        customer_id uuid NOT NULL,
        currency text NOT NULL,
        scaling_factor integer NOT NULL,
        line_items jsonb NOT NULL,
        subtotal bigint NOT NULL,
        total bigint NOT NULL,
        amount_paid bigint NOT NULL DEFAULT 0,
        description text,
        due_date timestamptz,
        payment_method_types jsonb NOT NULL,
        transfer_destination uuid,
        application_fee_amount bigint NOT NULL DEFAULT 0,
        charge_id uuid,
        finalized_at timestamptz,
        paid_at timestamptz,
        voided_at timestamptz,
        metadata jsonb NOT NULL DEFAULT '{}',
        labels jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE UNIQUE INDEX invoices_app_number_key ON ${s}.invoices (application_id, number)`,
      `CREATE INDEX invoices_app_created_idx ON ${s}.invoices (application_id, created_at DESC, id DESC)`,
      `CREATE INDEX invoices_app_customer_idx ON ${s}.invoices (application_id, customer_id, created_at DESC)`,

      `CREATE TABLE ${s}.checkouts (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        country text NOT NULL,
        status text NOT NULL,
        payment_status text NOT NULL,
        target_type text NOT NULL CHECK (target_type IN ('invoice', 'payment_intent')),
        target_id uuid NOT NULL,
        payment_link_id uuid,
        amount bigint NOT NULL,
        currency text NOT NULL,
        scaling_factor integer NOT NULL,
        customer_id uuid,
        transfer_destination uuid,
        application_fee_amount bigint NOT NULL DEFAULT 0,
        payment_method_types jsonb NOT NULL,
        success_url text,
        cancel_url text,
        mode text NOT NULL,
        line_items jsonb NOT NULL DEFAULT '[]',
        allow_promotion_codes boolean NOT NULL DEFAULT false,
        payment_method_collection text,
        subscription_data jsonb,
        session_id uuid NOT NULL,
        charge_id uuid,
        pending_charge_id uuid,
        expires_at timestamptz NOT NULL,
        completed_at timestamptz,
        expired_at timestamptz,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX checkouts_app_created_idx ON ${s}.checkouts (application_id, created_at DESC, id DESC)`,
      `CREATE INDEX checkouts_app_target_idx ON ${s}.checkouts (application_id, target_id)`,

      `CREATE TABLE ${s}.payment_links (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        country text NOT NULL,
        target_type text NOT NULL CHECK (target_type IN ('invoice', 'payment_intent')),
        target_id uuid NOT NULL,
        active boolean NOT NULL DEFAULT true,
        success_url text,
        cancel_url text,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX payment_links_app_created_idx ON ${s}.payment_links (application_id, created_at DESC, id DESC)`,
      `CREATE INDEX charges_app_invoice_idx ON ${s}.charges (application_id, invoice_id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP INDEX ${s}.charges_app_invoice_idx`,
      `DROP TABLE ${s}.payment_links`,
      `DROP TABLE ${s}.checkouts`,
      `DROP TABLE ${s}.invoices`,
      `DROP TABLE ${s}.payment_intents`,
    ]);
  }
}
