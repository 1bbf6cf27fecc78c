import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Subscription checkouts (docs/BILLING.md, "Subscription checkout"): a checkout in mode
 * `subscription` names its subscription and the first invoice it collects; an invoice names the
 * subscription it bills and why (`billing_reason`, `subscription_create` for the first).
 */
export class SubscriptionCheckout1764400600000 implements MigrationInterface {
  name = 'SubscriptionCheckout1764400600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.checkouts ADD COLUMN subscription_id uuid, ADD COLUMN invoice_id uuid`,
      `ALTER TABLE ${s}.invoices ADD COLUMN subscription_id uuid, ADD COLUMN billing_reason text`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.invoices DROP COLUMN subscription_id, DROP COLUMN billing_reason`,
      `ALTER TABLE ${s}.checkouts DROP COLUMN subscription_id, DROP COLUMN invoice_id`,
    ]);
  }
}
