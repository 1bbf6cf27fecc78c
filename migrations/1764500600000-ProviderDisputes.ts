import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Disputes reported by the real providers (docs/DISPUTES.md, "Disputes from the providers"):
 * - `funds_withdrawn`: the opened journal was booked (every chargeback opened before this
 *   migration, none of the inquiries);
 * - `fee_booked`: the provider's dispute fee booked so far (Stripe reports it with the withdrawal);
 * - `submission_count`, `has_evidence`: evidence_details, as the provider counts them;
 * - `submission_started_at`: the recovery point of an evidence submission whose provider call
 *   has not been recorded yet;
 * - `provider_synced_at`: when the provider's state was last applied (the reconciliation job
 *   re-reads the open ones that are stale);
 * - a provider's dispute id is recorded once per mode.
 */
export class ProviderDisputes1764500600000 implements MigrationInterface {
  name = 'ProviderDisputes1764500600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.disputes
         ADD COLUMN funds_withdrawn boolean NOT NULL DEFAULT false,
         ADD COLUMN fee_booked bigint NOT NULL DEFAULT 0,
         ADD COLUMN submission_count integer NOT NULL DEFAULT 0,
         ADD COLUMN has_evidence boolean NOT NULL DEFAULT false,
         ADD COLUMN submission_started_at timestamptz NULL,
         ADD COLUMN provider_synced_at timestamptz NULL`,
      `UPDATE ${s}.disputes SET funds_withdrawn = true
         WHERE status NOT IN ('warning_needs_response', 'warning_closed')`,
      `UPDATE ${s}.disputes SET has_evidence = true, submission_count = 1 WHERE status = 'under_review'`,
      `UPDATE ${s}.disputes SET has_evidence = true WHERE evidence <> '{}'::jsonb`,
      `CREATE UNIQUE INDEX disputes_provider_id_unique_idx ON ${s}.disputes (provider, provider_id)
         WHERE provider_id IS NOT NULL`,
      `CREATE INDEX disputes_provider_open_idx ON ${s}.disputes (provider, provider_synced_at)
         WHERE settled = false`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP INDEX ${s}.disputes_provider_open_idx`,
      `DROP INDEX ${s}.disputes_provider_id_unique_idx`,
      `ALTER TABLE ${s}.disputes
         DROP COLUMN funds_withdrawn, DROP COLUMN fee_booked, DROP COLUMN submission_count,
         DROP COLUMN has_evidence, DROP COLUMN submission_started_at, DROP COLUMN provider_synced_at`,
    ]);
  }
}
