import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

export class Payouts1763801100000 implements MigrationInterface {
  name = 'Payouts1763801100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.bank_accounts (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        account_id uuid NOT NULL REFERENCES ${s}.accounts (id),
        account_kind text NOT NULL CHECK (account_kind IN ('own', 'connected')),
        type text NOT NULL CHECK (type IN ('bookbank', 'promptpay_phone', 'promptpay_primary_identify_id')),
        country text NOT NULL,
        currency text NOT NULL,
        account_holder_name text NOT NULL,
        bank_code text,
        branch_code text,
        account_type text,
        account_number text,
        phone_number text,
        primary_identify_id text,
        last4 text NOT NULL,
        provider text,
        provider_type text,
        provider_status text NOT NULL CHECK (provider_status IN ('not_applicable', 'disabled', 'created', 'failed')),
        recipient_reference text,
        routing_number text,
        intent_id uuid,
        metadata jsonb NOT NULL DEFAULT '{}',
        labels jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK (account_kind = 'own' OR provider_status = 'not_applicable')
      )`,
      `CREATE INDEX bank_accounts_app_created_idx ON ${s}.bank_accounts (application_id, created_at DESC, id DESC)`,
      `CREATE INDEX bank_accounts_app_account_idx ON ${s}.bank_accounts (application_id, account_id, created_at DESC)`,
      `CREATE TABLE ${s}.bank_account_intents (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        account_id uuid NOT NULL REFERENCES ${s}.accounts (id),
        country text NOT NULL,
        return_url text NOT NULL,
        refresh_url text NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        session_id uuid NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'completed')),
        bank_account_id uuid REFERENCES ${s}.bank_accounts (id),
        expires_at timestamptz NOT NULL,
        completed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX bank_account_intents_app_created_idx ON ${s}.bank_account_intents (application_id, created_at DESC, id DESC)`,
      `CREATE TABLE ${s}.transfer_sandbox_recipients (
        reference text PRIMARY KEY,
        application_id uuid NOT NULL,
        bank_account_id uuid NOT NULL,
        type text NOT NULL,
        routing_number text NOT NULL,
        received jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX transfer_sandbox_recipients_app_idx ON ${s}.transfer_sandbox_recipients (application_id, created_at)`,
      `CREATE TABLE ${s}.transfer_sandbox_settings (
        application_id uuid PRIMARY KEY,
        failing boolean NOT NULL DEFAULT false
      )`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP TABLE ${s}.transfer_sandbox_settings`,
      `DROP TABLE ${s}.transfer_sandbox_recipients`,
      `DROP TABLE ${s}.bank_account_intents`,
      `DROP TABLE ${s}.bank_accounts`,
    ]);
  }
}
