import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Settlement reconciliation (docs/RECONCILIATION.md): a run per provider payout (or interval),
 * the provider's itemized settlement as imported (`reconciliation_lines`), and the outcome of
 * matching it with the ledger by provider reference (`reconciliation_items`). A scheduled run is
 * unique per application, provider and payout, so replicas discovering the same payout make one.
 */
export class ReconciliationRuns1764501600000 implements MigrationInterface {
  name = 'ReconciliationRuns1764501600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.reconciliation_runs (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         provider text NOT NULL,
         payout text,
         interval_start timestamptz,
         interval_end timestamptz,
         trigger text NOT NULL,
         status text NOT NULL,
         error text,
         line_count integer,
         item_count integer,
         mismatch_count integer,
         outcomes jsonb,
         claimed_until timestamptz,
         created_at timestamptz NOT NULL,
         succeeded_at timestamptz,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX reconciliation_runs_app_created_idx ON ${s}.reconciliation_runs (application_id, created_at, id)`,
      `CREATE INDEX reconciliation_runs_pending_idx ON ${s}.reconciliation_runs (created_at) WHERE status = 'pending'`,
      `CREATE UNIQUE INDEX reconciliation_runs_scheduled_idx ON ${s}.reconciliation_runs (application_id, provider, payout)
         WHERE trigger = 'scheduled'`,
      `CREATE TABLE ${s}.reconciliation_lines (
         run_id uuid NOT NULL,
         line_id text NOT NULL,
         payout text NOT NULL,
         reference text,
         type text NOT NULL,
         amount bigint NOT NULL,
         fee bigint NOT NULL,
         currency text NOT NULL,
         created_at timestamptz NOT NULL)`,
      `CREATE INDEX reconciliation_lines_run_idx ON ${s}.reconciliation_lines (run_id, reference)`,
      `CREATE TABLE ${s}.reconciliation_items (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         run_id uuid NOT NULL,
         outcome text NOT NULL,
         reference text NOT NULL,
         type text NOT NULL,
         record_id uuid,
         currency text NOT NULL,
         ledger_amount bigint,
         provider_amount bigint,
         ledger_fee bigint,
         provider_fee bigint,
         provider_lines integer NOT NULL,
         created_at timestamptz NOT NULL)`,
      `CREATE INDEX reconciliation_items_run_idx ON ${s}.reconciliation_items (application_id, run_id, created_at, id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP TABLE ${s}.reconciliation_items`,
      `DROP TABLE ${s}.reconciliation_lines`,
      `DROP TABLE ${s}.reconciliation_runs`,
    ]);
  }
}
