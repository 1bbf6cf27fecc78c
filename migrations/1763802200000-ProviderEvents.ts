import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Inbound provider webhooks (docs/PROVIDERS.md): `provider_events` records each verified notice
 * once per (provider, provider_event_id); the row is written in the transaction that applies the
 * notice, so a replay finds it and changes nothing. The indexes find the charge, refund or payout
 * a notice names by the provider's reference (webhooks and the reconciliation job).
 */
export class ProviderEvents1763802200000 implements MigrationInterface {
  name = 'ProviderEvents1763802200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.provider_events (
        provider text NOT NULL,
        provider_event_id text NOT NULL,
        kind text NOT NULL,
        reference text NOT NULL,
        status text NOT NULL,
        outcome text NOT NULL,
        received_at timestamptz NOT NULL,
        applied_at timestamptz,
        PRIMARY KEY (provider, provider_event_id)
      )`,
      `CREATE INDEX charges_provider_reference_idx ON ${s}.charges (provider, reference_id) WHERE reference_id IS NOT NULL`,
      `CREATE INDEX charges_pending_provider_idx ON ${s}.charges (created_at) WHERE status = 'pending'`,
      `CREATE INDEX refunds_provider_reference_idx ON ${s}.refunds (provider, reference_id) WHERE reference_id IS NOT NULL`,
      `CREATE INDEX payouts_provider_reference_idx ON ${s}.payouts (provider, provider_reference) WHERE provider_reference IS NOT NULL`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP INDEX ${s}.payouts_provider_reference_idx`,
      `DROP INDEX ${s}.refunds_provider_reference_idx`,
      `DROP INDEX ${s}.charges_pending_provider_idx`,
      `DROP INDEX ${s}.charges_provider_reference_idx`,
      `DROP TABLE ${s}.provider_events`,
    ]);
  }
}
