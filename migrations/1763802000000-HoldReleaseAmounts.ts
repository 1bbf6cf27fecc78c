import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Queued hold releases carry what is left to release and their balance (docs/ARCHITECTURE.md,
 * "Held funds"): a debit of held funds (a refund before the release) shrinks the queued releases of
 * its balance in the posting's own statement, so the release never moves more than the hold has.
 */
export class HoldReleaseAmounts1763802000000 implements MigrationInterface {
  name = 'HoldReleaseAmounts1763802000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.hold_releases ADD COLUMN balance_id uuid, ADD COLUMN amount bigint`,
      `UPDATE ${s}.hold_releases r SET balance_id = e.balance_id, amount = e.amount
         FROM ${s}.balance_transactions e WHERE e.id = r.entry_id`,
      `ALTER TABLE ${s}.hold_releases ALTER COLUMN balance_id SET NOT NULL, ALTER COLUMN amount SET NOT NULL,
         ADD CONSTRAINT hold_releases_amount_positive CHECK (amount > 0)`,
      `CREATE INDEX hold_releases_balance_idx ON ${s}.hold_releases (application_id, balance_id, available_on)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP INDEX ${s}.hold_releases_balance_idx`,
      `ALTER TABLE ${s}.hold_releases DROP CONSTRAINT hold_releases_amount_positive,
         DROP COLUMN amount, DROP COLUMN balance_id`,
    ]);
  }
}
