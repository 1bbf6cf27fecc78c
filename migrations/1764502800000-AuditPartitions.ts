import type { MigrationInterface, QueryRunner } from 'typeorm';
import { assertCount, countRows, monthPartition, monthsToMake, renameAside } from './support.js';

const COLUMNS =
  'id, chain_id, chain_seq, application_id, livemode, actor_type, actor_id, action, target_type, target_id, request_id, client_address, user_agent, changes, metadata, created_at, prev_hash, entry_hash';

/** The TRUNCATE refusal of one partition: a statement trigger of the parent does not reach its partitions. */
export function auditPartitionNoTruncate(qualified: string, name: string): string {
  return `CREATE OR REPLACE TRIGGER "${name}_no_truncate" BEFORE TRUNCATE ON ${qualified}
    FOR EACH STATEMENT EXECUTE FUNCTION platform.audit_refuse_change()`;
}

/**
 * `platform.audit_events` becomes a table partitioned by month of `created_at` (docs/AUDIT.md
 * "Retention"): retention drops whole months behind a signed checkpoint of what each chain loses,
 * instead of the row-by-row delete. The primary key `(id, created_at)` already holds the partition key.
 *
 * Append-only stays on every partition: the UPDATE/DELETE row trigger of the parent is cloned onto each
 * partition by PostgreSQL, the TRUNCATE statement trigger is not, so each partition gets its own (the
 * partition code makes it with every new month). Dropping or detaching a month is refused by two event
 * triggers unless `wallet.audit_retention = on` for the transaction, the same switch the row retention
 * used (only the retention path sets it, after writing its checkpoint). Event triggers need a superuser:
 * where the migrating role is not one, the migration says so (NOTICE) and goes on without them.
 *
 * In place, in this migration's transaction: the table is renamed aside, the partitioned one created
 * with every month holding a row plus now's and the next, the rows copied, the count checked (the
 * migration fails, changing nothing, if it differs) and the old table dropped.
 */
export class AuditPartitions1764502800000 implements MigrationInterface {
  name = 'AuditPartitions1764502800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const before = await countRows(queryRunner, 'platform.audit_events');
    const old = await renameAside(queryRunner, 'platform', 'audit_events');
    // The old table's triggers go with it (DROP TABLE below); the function stays.
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
         PRIMARY KEY (id, created_at)
       ) PARTITION BY RANGE (created_at)`,
      `CREATE INDEX audit_events_chain_idx ON platform.audit_events (chain_id, chain_seq)`,
      `CREATE INDEX audit_events_app_created_idx ON platform.audit_events (application_id, created_at, id)`,
      `CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON platform.audit_events
         FOR EACH ROW EXECUTE FUNCTION platform.audit_refuse_change()`,
      `CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON platform.audit_events
         FOR EACH STATEMENT EXECUTE FUNCTION platform.audit_refuse_change()`,
    ]) {
      await queryRunner.query(sql);
    }
    const months = await monthsToMake(
      queryRunner,
      `SELECT DISTINCT date_trunc('month', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month FROM ${old}`,
    );
    for (const month of months) {
      await queryRunner.query(monthPartition('platform', 'audit_events', month));
      const name = `audit_events_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
      await queryRunner.query(auditPartitionNoTruncate(`platform.${name}`, name));
    }
    await queryRunner.query(`INSERT INTO platform.audit_events (${COLUMNS}) SELECT ${COLUMNS} FROM ${old}`);
    await assertCount(queryRunner, 'platform.audit_events', before);
    await queryRunner.query(`DROP TABLE ${old}`);

    await queryRunner.query(
      `CREATE FUNCTION platform.audit_refuse_drop() RETURNS event_trigger LANGUAGE plpgsql AS $$
       DECLARE r record;
       BEGIN
         IF current_setting('wallet.audit_retention', true) = 'on' THEN RETURN; END IF;
         IF TG_EVENT = 'sql_drop' THEN
           FOR r IN SELECT object_identity FROM pg_event_trigger_dropped_objects()
                     WHERE object_type = 'table' AND schema_name = 'platform'
                       AND (object_name = 'audit_events' OR object_name ~ '^audit_events_y[0-9]{4}m[0-9]{2}$') LOOP
             RAISE EXCEPTION 'platform.audit_events is append-only: DROP of % refused', r.object_identity
               USING ERRCODE = '42501';
           END LOOP;
         ELSE
           FOR r IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                     WHERE n.nspname = 'platform' AND c.relkind = 'r' AND NOT c.relispartition
                       AND c.relname ~ '^audit_events_y[0-9]{4}m[0-9]{2}$' LOOP
             RAISE EXCEPTION 'platform.audit_events is append-only: DETACH of platform.% refused', r.relname
               USING ERRCODE = '42501';
           END LOOP;
         END IF;
       END
       $$`,
    );
    const [{ superuser }] = (await queryRunner.query(
      `SELECT rolsuper AS superuser FROM pg_roles WHERE rolname = current_user`,
    )) as Array<{ superuser: boolean }>;
    if (superuser) {
      await queryRunner.query(
        `CREATE EVENT TRIGGER audit_events_no_drop ON sql_drop EXECUTE FUNCTION platform.audit_refuse_drop()`,
      );
      await queryRunner.query(
        `CREATE EVENT TRIGGER audit_events_no_detach ON ddl_command_end WHEN TAG IN ('ALTER TABLE')
           EXECUTE FUNCTION platform.audit_refuse_drop()`,
      );
    } else {
      await queryRunner.query(
        `DO $$ BEGIN RAISE NOTICE 'not a superuser: the audit months'' DROP/DETACH guard (event triggers) is not installed'; END $$`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP EVENT TRIGGER IF EXISTS audit_events_no_detach`);
    await queryRunner.query(`DROP EVENT TRIGGER IF EXISTS audit_events_no_drop`);
    await queryRunner.query(`DROP FUNCTION platform.audit_refuse_drop()`);
    const old = await renameAside(queryRunner, 'platform', 'audit_events');
    for (const sql of [
      `CREATE TABLE platform.audit_events (LIKE ${old} INCLUDING DEFAULTS, PRIMARY KEY (id, created_at))`,
      `CREATE INDEX audit_events_chain_idx ON platform.audit_events (chain_id, chain_seq)`,
      `CREATE INDEX audit_events_app_created_idx ON platform.audit_events (application_id, created_at, id)`,
      `CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON platform.audit_events
         FOR EACH ROW EXECUTE FUNCTION platform.audit_refuse_change()`,
      `CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON platform.audit_events
         FOR EACH STATEMENT EXECUTE FUNCTION platform.audit_refuse_change()`,
      `INSERT INTO platform.audit_events (${COLUMNS}) SELECT ${COLUMNS} FROM ${old}`,
      `DROP TABLE ${old}`,
    ]) {
      await queryRunner.query(sql);
    }
  }
}
