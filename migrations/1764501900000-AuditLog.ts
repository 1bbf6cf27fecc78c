import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (docs/AUDIT.md). One table in `platform`, not per mode: an application's owners read
 * both modes' audit in one place (`livemode` on each row, null for what has no mode: a role, a login),
 * and keys, roles and logins live in `platform` already. Each application has one hash chain
 * (`chain_id` = the application id; the nil UUID for the platform's own rows: logins, refresh-token
 * reuse), whose head (`audit_chain_heads`) is locked and moved by the writer in its own transaction,
 * so concurrent writers never fork it. `entry_hash` = SHA-256 of the row's canonical JSON with the
 * previous row's hash (src/modules/audit/audit-chain.ts). Append-only: UPDATE, DELETE and TRUNCATE
 * are refused by triggers; the retention job alone deletes, with `wallet.audit_retention = on` set
 * for its transaction, and writes a signed checkpoint of what it removed first.
 * Partition-ready (issue 39): `created_at` is in the primary key.
 */
export class AuditLog1764501900000 implements MigrationInterface {
  name = 'AuditLog1764501900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `CREATE TABLE platform.audit_events (
         id uuid NOT NULL,
         chain_id uuid NOT NULL,
         chain_seq bigint NOT NULL,
         application_id uuid,
         livemode boolean,
         actor_type text NOT NULL,
         actor_id text,
         action text NOT NULL,
         target_type text NOT NULL,
         target_id text,
         request_id text,
         client_address text,
         user_agent text,
         changes jsonb,
         metadata jsonb NOT NULL DEFAULT '{}',
         created_at timestamptz NOT NULL,
         prev_hash text NOT NULL,
         entry_hash text NOT NULL,
         PRIMARY KEY (id, created_at))`,
      `CREATE INDEX audit_events_chain_idx ON platform.audit_events (chain_id, chain_seq)`,
      `CREATE INDEX audit_events_app_created_idx ON platform.audit_events (application_id, created_at, id)`,
      `CREATE TABLE platform.audit_chain_heads (
         chain_id uuid PRIMARY KEY,
         seq bigint NOT NULL,
         hash text NOT NULL,
         updated_at timestamptz)`,
      `CREATE TABLE platform.audit_checkpoints (
         id uuid PRIMARY KEY,
         chain_id uuid NOT NULL,
         through_seq bigint NOT NULL,
         through_hash text NOT NULL,
         removed_count bigint NOT NULL,
         removed_before timestamptz NOT NULL,
         kid text NOT NULL,
         jws text NOT NULL,
         created_at timestamptz NOT NULL)`,
      `CREATE INDEX audit_checkpoints_chain_idx ON platform.audit_checkpoints (chain_id, through_seq)`,
      `CREATE FUNCTION platform.audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'audit_events'
            AND current_setting('wallet.audit_retention', true) = 'on' THEN
           RETURN OLD;
         END IF;
         RAISE EXCEPTION 'platform.% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = '42501';
       END
       $$`,
      `CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON platform.audit_events
         FOR EACH ROW EXECUTE FUNCTION platform.audit_refuse_change()`,
      `CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON platform.audit_events
         FOR EACH STATEMENT EXECUTE FUNCTION platform.audit_refuse_change()`,
      `CREATE TRIGGER audit_checkpoints_append_only BEFORE UPDATE OR DELETE ON platform.audit_checkpoints
         FOR EACH ROW EXECUTE FUNCTION platform.audit_refuse_change()`,
      `CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON platform.audit_checkpoints
         FOR EACH STATEMENT EXECUTE FUNCTION platform.audit_refuse_change()`,
    ])
      await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform.audit_checkpoints`);
    await queryRunner.query(`DROP TABLE platform.audit_chain_heads`);
    await queryRunner.query(`DROP TABLE platform.audit_events`);
    await queryRunner.query(`DROP FUNCTION platform.audit_refuse_change()`);
  }
}
