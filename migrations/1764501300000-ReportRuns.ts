import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Report runs (docs/REPORTS.md): a request for a CSV report over an interval, produced by
 * `ReportRunsJob`. `claimed_until` is the lease of the replica producing it; `result_file_id` names
 * the CSV in `files` once it succeeded.
 */
export class ReportRuns1764501300000 implements MigrationInterface {
  name = 'ReportRuns1764501300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.report_runs (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         report_type text NOT NULL,
         parameters jsonb NOT NULL,
         status text NOT NULL,
         error text,
         result_file_id uuid,
         row_count integer,
         claimed_until timestamptz,
         created_at timestamptz NOT NULL,
         succeeded_at timestamptz,
         updated_at timestamptz NOT NULL)`,
      `CREATE INDEX report_runs_app_created_idx ON ${s}.report_runs (application_id, created_at, id)`,
      `CREATE INDEX report_runs_pending_idx ON ${s}.report_runs (application_id, created_at) WHERE status = 'pending'`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP TABLE ${s}.report_runs`]);
  }
}
