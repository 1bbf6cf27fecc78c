import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Authorize, then capture (docs/COLLECTION.md, "Manual capture"): a payment intent's
 * `capture_method` and `amount_capturable`; a charge's capture claim (the amount a capture in
 * flight asked for, and when), so a second capture sees it; a partial index on authorizations'
 * expiry for the job that voids them.
 */
export class ManualCapture1764500700000 implements MigrationInterface {
  name = 'ManualCapture1764500700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.payment_intents
         ADD COLUMN capture_method text NOT NULL DEFAULT 'automatic',
         ADD COLUMN amount_capturable bigint NOT NULL DEFAULT 0`,
      `ALTER TABLE ${s}.charges
         ADD COLUMN capture_claim_amount bigint,
         ADD COLUMN capture_claimed_at timestamptz`,
      `CREATE INDEX charges_authorization_expiry_idx ON ${s}.charges (expires_at) WHERE status = 'requires_capture'`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP INDEX ${s}.charges_authorization_expiry_idx`,
      `ALTER TABLE ${s}.charges DROP COLUMN capture_claimed_at, DROP COLUMN capture_claim_amount`,
      `ALTER TABLE ${s}.payment_intents DROP COLUMN amount_capturable, DROP COLUMN capture_method`,
    ]);
  }
}
