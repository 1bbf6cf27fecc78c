import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * A merchant's accept of a provider's dispute is sent to the provider (docs/DISPUTES.md,
 * "Accepting at the provider"): `close_started_at` is its recovery point, set before the provider
 * is called and cleared when the provider's closed dispute is applied.
 */
export class DisputeCloseAtProvider1764501200000 implements MigrationInterface {
  name = 'DisputeCloseAtProvider1764501200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.disputes ADD COLUMN close_started_at timestamptz NULL`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`ALTER TABLE ${s}.disputes DROP COLUMN close_started_at`]);
  }
}
