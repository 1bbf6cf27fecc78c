import type { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyKeys1763800200000 implements MigrationInterface {
  name = 'IdempotencyKeys1763800200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform.idempotency_keys (
        application_id uuid NOT NULL,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        key text NOT NULL,
        request_hash bytea NOT NULL,
        status text NOT NULL CHECK (status IN ('processing', 'completed')),
        response_status integer,
        response_body jsonb,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (application_id, mode, key)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_expiry_idx ON platform.idempotency_keys (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform.idempotency_keys`);
  }
}
