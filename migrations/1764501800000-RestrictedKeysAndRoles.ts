import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Restricted keys (`rk_test_…`, `rk_live_…`) share platform.api_keys with secret keys: `kind` tells
 * them apart, `permissions` holds a restricted key's level per resource group, `name` is the
 * owner's label. `expires_at` is set on the old key when a key is rolled; after it the key is
 * refused (E1243). The analyst role joins the memberships' roles (docs/SECURITY.md, "Roles").
 */
export class RestrictedKeysAndRoles1764501800000 implements MigrationInterface {
  name = 'RestrictedKeysAndRoles1764501800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE platform.api_keys
        ADD COLUMN kind text NOT NULL DEFAULT 'secret' CHECK (kind IN ('secret', 'restricted')),
        ADD COLUMN name text NULL,
        ADD COLUMN permissions jsonb NULL,
        ADD COLUMN expires_at timestamptz NULL,
        ADD COLUMN replaced_by uuid NULL,
        ADD CONSTRAINT api_keys_restricted_permissions CHECK ((kind = 'restricted') = (permissions IS NOT NULL))`);
    await queryRunner.query(`ALTER TABLE platform.memberships DROP CONSTRAINT memberships_role_check`);
    await queryRunner.query(
      `ALTER TABLE platform.memberships ADD CONSTRAINT memberships_role_check
         CHECK (role IN ('owner', 'admin', 'developer', 'analyst', 'viewer'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM platform.memberships WHERE role = 'analyst'`);
    await queryRunner.query(`ALTER TABLE platform.memberships DROP CONSTRAINT memberships_role_check`);
    await queryRunner.query(
      `ALTER TABLE platform.memberships ADD CONSTRAINT memberships_role_check
         CHECK (role IN ('owner', 'admin', 'developer', 'viewer'))`,
    );
    await queryRunner.query(`DELETE FROM platform.api_keys WHERE kind = 'restricted'`);
    await queryRunner.query(`
      ALTER TABLE platform.api_keys
        DROP CONSTRAINT api_keys_restricted_permissions,
        DROP COLUMN replaced_by,
        DROP COLUMN expires_at,
        DROP COLUMN permissions,
        DROP COLUMN name,
        DROP COLUMN kind`);
  }
}
