import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users, memberships, OAuth clients, codes and tokens, and one-time sessions: all platform data
 * (not per mode). Every secret (password, client secret, code, token) is stored only as a hash.
 */
export class Auth1763800300000 implements MigrationInterface {
  name = 'Auth1763800300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform.users (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        name text NOT NULL,
        password_hash text NOT NULL,
        is_superuser boolean NOT NULL DEFAULT false,
        failed_logins integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX users_email_idx ON platform.users (lower(email))`);

    await queryRunner.query(`
      CREATE TABLE platform.memberships (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES platform.users (id) ON DELETE CASCADE,
        application_id uuid NOT NULL REFERENCES platform.applications (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, application_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX memberships_application_idx ON platform.memberships (application_id, user_id)`,
    );

    await queryRunner.query(`
      CREATE TABLE platform.oauth_clients (
        id uuid PRIMARY KEY,
        client_id text NOT NULL UNIQUE,
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('confidential', 'public')),
        secret_hash bytea,
        redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((type = 'confidential') = (secret_hash IS NOT NULL))
      )`);

    await queryRunner.query(`
      CREATE TABLE platform.oauth_codes (
        id uuid PRIMARY KEY,
        code_hash bytea NOT NULL UNIQUE,
        client_id uuid NOT NULL REFERENCES platform.oauth_clients (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES platform.users (id) ON DELETE CASCADE,
        redirect_uri text NOT NULL,
        scope text[] NOT NULL DEFAULT '{}',
        code_challenge text,
        code_challenge_method text,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    // A family is every token pair descending from one authorization code (its id is the code's).
    // Revoking the family is one row: every token checks it, including one inserted concurrently.
    await queryRunner.query(`
      CREATE TABLE platform.oauth_token_families (
        id uuid PRIMARY KEY,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    // One row per issued access/refresh pair.
    await queryRunner.query(`
      CREATE TABLE platform.oauth_tokens (
        id uuid PRIMARY KEY,
        family_id uuid NOT NULL REFERENCES platform.oauth_token_families (id) ON DELETE CASCADE,
        code_id uuid REFERENCES platform.oauth_codes (id) ON DELETE SET NULL,
        client_id uuid NOT NULL REFERENCES platform.oauth_clients (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES platform.users (id) ON DELETE CASCADE,
        access_hash bytea NOT NULL UNIQUE,
        access_expires_at timestamptz NOT NULL,
        refresh_hash bytea UNIQUE,
        refresh_expires_at timestamptz,
        scope text[] NOT NULL DEFAULT '{}',
        rotated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX oauth_tokens_family_idx ON platform.oauth_tokens (family_id)`);
    await queryRunner.query(`CREATE INDEX oauth_tokens_code_idx ON platform.oauth_tokens (code_id)`);

    await queryRunner.query(`
      CREATE TABLE platform.one_time_sessions (
        id uuid PRIMARY KEY,
        token_hash bytea NOT NULL UNIQUE,
        application_id uuid NOT NULL REFERENCES platform.applications (id) ON DELETE CASCADE,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        purpose text NOT NULL,
        target_id text NOT NULL,
        expires_at timestamptz NOT NULL,
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX one_time_sessions_target_idx ON platform.one_time_sessions (application_id, purpose, target_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'one_time_sessions',
      'oauth_tokens',
      'oauth_token_families',
      'oauth_codes',
      'oauth_clients',
      'memberships',
      'users',
    ]) {
      await queryRunner.query(`DROP TABLE platform.${table}`);
    }
  }
}
