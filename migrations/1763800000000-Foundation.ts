import type { MigrationInterface, QueryRunner } from 'typeorm';
import { MODE_SCHEMAS } from './support.js';

export class Foundation1763800000000 implements MigrationInterface {
  name = 'Foundation1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS platform`);
    for (const schema of MODE_SCHEMAS) await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);

    await queryRunner.query(`
      CREATE TABLE platform.applications (
        id uuid PRIMARY KEY,
        slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{1,62}$'),
        name text NOT NULL,
        countries text[] NOT NULL CHECK (cardinality(countries) > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await queryRunner.query(`
      CREATE TABLE platform.api_keys (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL REFERENCES platform.applications (id) ON DELETE CASCADE,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        prefix text NOT NULL UNIQUE,
        secret_hash bytea NOT NULL,
        last4 text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX api_keys_application_idx ON platform.api_keys (application_id, mode)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const schema of MODE_SCHEMAS) await queryRunner.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await queryRunner.query(`DROP SCHEMA IF EXISTS platform CASCADE`);
  }
}
