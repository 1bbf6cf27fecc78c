import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Collection and dunning of subscription invoices (docs/BILLING.md, "Collection and retries"): how an
 * invoice is collected, its attempts and the next one (by the customer's clock), the attempt in flight
 * (never two at once), what was refunded of it and its hosted page; a subscription's choice of what
 * happens when the retries are exhausted.
 */
export class InvoiceCollection1764500200000 implements MigrationInterface {
  name = 'InvoiceCollection1764500200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.invoices
         ADD COLUMN collection_method text,
         ADD COLUMN attempt_count integer NOT NULL DEFAULT 0,
         ADD COLUMN next_payment_attempt timestamptz,
         ADD COLUMN collection_charge_id uuid,
         ADD COLUMN test_clock_id uuid,
         ADD COLUMN amount_refunded bigint NOT NULL DEFAULT 0,
         ADD COLUMN hosted_invoice_url text`,
      `CREATE INDEX invoices_next_payment_attempt_idx ON ${s}.invoices (test_clock_id, next_payment_attempt)
         WHERE next_payment_attempt IS NOT NULL`,
      `ALTER TABLE ${s}.subscriptions
         ADD COLUMN retries_exhausted_action text NOT NULL DEFAULT 'cancel'`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.subscriptions DROP COLUMN retries_exhausted_action`,
      `DROP INDEX ${s}.invoices_next_payment_attempt_idx`,
      `ALTER TABLE ${s}.invoices
         DROP COLUMN collection_method, DROP COLUMN attempt_count, DROP COLUMN next_payment_attempt,
         DROP COLUMN collection_charge_id, DROP COLUMN test_clock_id, DROP COLUMN amount_refunded, DROP COLUMN hosted_invoice_url`,
    ]);
  }
}
