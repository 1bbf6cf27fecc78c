import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Billing part 2, credit drawn by invoices (docs/BILLING.md, "Credit on the invoice"): an invoice
 * records the prepaid credit its finalization drew (`credit_applied`; `amount_due` = total - it), and
 * each of its lines the part of that credit it took (`credit_amount`, before tax), so billing:verify
 * recomputes the taxes on what the credit left.
 */
export class InvoiceCredit1764501000000 implements MigrationInterface {
  name = 'InvoiceCredit1764501000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.invoices ADD COLUMN credit_applied bigint NOT NULL DEFAULT 0 CHECK (credit_applied >= 0)`,
      `ALTER TABLE ${s}.invoice_lines ADD COLUMN credit_amount bigint NOT NULL DEFAULT 0 CHECK (credit_amount >= 0)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.invoice_lines DROP COLUMN credit_amount`,
      `ALTER TABLE ${s}.invoices DROP COLUMN credit_applied`,
    ]);
  }
}
