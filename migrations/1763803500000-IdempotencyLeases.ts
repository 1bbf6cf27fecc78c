import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Idempotency keys become leases (docs/IDEMPOTENCY.md): `lease_token` names the attempt that holds
 * a key while it runs (its writes are fenced by it), and `recovery` is the point its committed work
 * reached, written in the work's own transaction, from which a later attempt resumes. A key still
 * processing expires with its lease (`expires_at`, seconds ahead, moved by a heartbeat); an
 * answered key keeps its answer 24 hours as before. Pending refunds get an index for the job that
 * finishes those whose provider answer was lost (RefundReconciliationJob).
 */
export class IdempotencyLeases1763803500000 implements MigrationInterface {
  name = 'IdempotencyLeases1763803500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE platform.idempotency_keys ADD COLUMN lease_token uuid, ADD COLUMN recovery jsonb`,
    );
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE INDEX refunds_pending_idx ON ${s}.refunds (created_at) WHERE status = 'pending'`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP INDEX ${s}.refunds_pending_idx`]);
    await queryRunner.query(`ALTER TABLE platform.idempotency_keys DROP COLUMN lease_token, DROP COLUMN recovery`);
  }
}
