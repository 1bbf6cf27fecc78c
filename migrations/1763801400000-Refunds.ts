import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Refunds of charges (docs/REFUNDS.md). A refund is recorded `pending` before its provider is
 * called; `refunds_charge_idx` serves the per-charge sum of pending refunds and `filter[charge_id]`.
 */
export class Refunds1763801400000 implements MigrationInterface {
  name = 'Refunds1763801400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.refunds (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         country text,
         charge_id uuid NOT NULL,
         payment_intent text,
         status text NOT NULL,
         amount bigint NOT NULL,
         currency text NOT NULL,
         scaling_factor integer NOT NULL,
         reason text,
         method text NOT NULL,
         provider text,
         reference_id text,
         balance_id uuid,
         amount_from_available bigint NOT NULL,
         amount_from_hold bigint NOT NULL,
         debits jsonb NOT NULL,
         reverse_transfer boolean NOT NULL,
         refund_application_fee boolean NOT NULL,
         transfer_reversal_amount bigint NOT NULL,
         failure_code text,
         failure_reason text,
         failure_message text,
         metadata jsonb NOT NULL,
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX refunds_app_created_idx ON ${s}.refunds (application_id, created_at, id)`,
      `CREATE INDEX refunds_charge_idx ON ${s}.refunds (application_id, charge_id, status)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP TABLE ${s}.refunds`]);
  }
}
