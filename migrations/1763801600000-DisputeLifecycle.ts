import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * The dispute lifecycle (docs/DISPUTES.md): a charge has at most one dispute, ever. The disputes
 * service refuses a second one (E9501) under the charge's row lock; this unique index makes the
 * database say so too.
 */
export class DisputeLifecycle1763801600000 implements MigrationInterface {
  name = 'DisputeLifecycle1763801600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE UNIQUE INDEX disputes_charge_unique_idx ON ${s}.disputes (charge_id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP INDEX ${s}.disputes_charge_unique_idx`]);
  }
}
