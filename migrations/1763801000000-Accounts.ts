import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

export class Accounts1763801000000 implements MigrationInterface {
  name = 'Accounts1763801000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.accounts (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        type text NOT NULL CHECK (type IN ('own', 'connected')),
        name text,
        business_name text,
        email text,
        country text,
        default_currency text,
        kyb_status text NOT NULL CHECK (kyb_status IN ('pending', 'verified', 'rejected')),
        kyb_rejection_reason text,
        kyb_decided_at timestamptz,
        metadata jsonb NOT NULL DEFAULT '{}',
        labels jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK (type = 'connected' OR kyb_status = 'verified')
      )`,
      `CREATE UNIQUE INDEX accounts_app_own_idx ON ${s}.accounts (application_id) WHERE type = 'own'`,
      `CREATE INDEX accounts_app_created_idx ON ${s}.accounts (application_id, created_at DESC, id DESC)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP TABLE ${s}.accounts`]);
  }
}
