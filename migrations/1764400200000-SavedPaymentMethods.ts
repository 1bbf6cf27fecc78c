import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Saved payment methods (docs/COLLECTION.md, "Saved payment methods"). The existing payment_methods
 * table already holds the card facts of every charge attempt; a saved method is a row of it with a
 * `status` (`attached` | `detached`; null for a charge attempt's own one-off method), the provider's
 * customer reference (`cust_…` / `cus_…`) beside its card reference (`reference_id`: `card_…` /
 * `pm_…`), the sandbox outcome of a test card, and the card's funding. Never a card number. A
 * setup checkout names the payment method it saved.
 */
export class SavedPaymentMethods1764400200000 implements MigrationInterface {
  name = 'SavedPaymentMethods1764400200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.payment_methods
         ADD COLUMN status text,
         ADD COLUMN funding text,
         ADD COLUMN provider_customer text,
         ADD COLUMN sandbox_outcome text,
         ADD COLUMN detached_at timestamptz`,
      `CREATE INDEX payment_methods_saved_idx ON ${s}.payment_methods (application_id, customer_id, created_at DESC, id)
         WHERE status IS NOT NULL`,
      `ALTER TABLE ${s}.checkouts ADD COLUMN setup_payment_method uuid`,
      // A setup checkout names the customer whose card it saves as its target.
      `ALTER TABLE ${s}.checkouts DROP CONSTRAINT checkouts_target_type_check`,
      `ALTER TABLE ${s}.checkouts ADD CONSTRAINT checkouts_target_type_check
         CHECK (target_type IN ('invoice', 'payment_intent', 'customer'))`,
      `ALTER TABLE ${s}.payment_intents ADD COLUMN next_action jsonb, ADD COLUMN payment_method uuid`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.payment_intents DROP COLUMN next_action, DROP COLUMN payment_method`,
      `ALTER TABLE ${s}.checkouts DROP CONSTRAINT checkouts_target_type_check`,
      `ALTER TABLE ${s}.checkouts ADD CONSTRAINT checkouts_target_type_check
         CHECK (target_type IN ('invoice', 'payment_intent'))`,
      `ALTER TABLE ${s}.checkouts DROP COLUMN setup_payment_method`,
      `DROP INDEX ${s}.payment_methods_saved_idx`,
      `ALTER TABLE ${s}.payment_methods
         DROP COLUMN status, DROP COLUMN funding, DROP COLUMN provider_customer,
         DROP COLUMN sandbox_outcome, DROP COLUMN detached_at`,
    ]);
  }
}
