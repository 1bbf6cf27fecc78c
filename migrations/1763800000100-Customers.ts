import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

export class Customers1763800000100 implements MigrationInterface {
  name = 'Customers1763800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.customers (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        name text,
        email text,
        phone text,
        tax_exempt text NOT NULL DEFAULT 'none' CHECK (tax_exempt IN ('none', 'exempt', 'reverse')),
        business_name text,
        currency text,
        is_system boolean NOT NULL DEFAULT false,
        is_application_customer boolean NOT NULL DEFAULT false,
        address jsonb,
        shipping jsonb,
        capabilities jsonb NOT NULL DEFAULT '{"charge": true, "transfer": false, "payout": false}',
        tax_ids jsonb NOT NULL DEFAULT '[]',
        metadata jsonb NOT NULL DEFAULT '{}',
        labels jsonb NOT NULL DEFAULT '[]',
        invoice_settings jsonb NOT NULL DEFAULT '{}',
        preferred_locales jsonb NOT NULL DEFAULT '[]',
        kyc_status text NOT NULL DEFAULT 'not_required' CHECK (kyc_status IN ('not_required', 'pending', 'verified', 'rejected')),
        provider text,
        provider_reference text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX customers_app_created_idx ON ${s}.customers (application_id, created_at DESC, id DESC)`,
      `CREATE INDEX customers_app_email_idx ON ${s}.customers (application_id, lower(email))`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP TABLE ${s}.customers`]);
  }
}
