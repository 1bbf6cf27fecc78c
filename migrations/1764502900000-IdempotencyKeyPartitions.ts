import type { MigrationInterface, QueryRunner } from 'typeorm';
import { assertCount, countRows, dayPartition, daysToMake, renameAside } from './support.js';

const COLUMNS =
  'application_id, mode, key, request_hash, status, response_status, response_body, created_at, expires_at, lease_token, recovery';

/** Days made ahead by the migration, as the maintenance job's family does (IDEMPOTENCY_KEYS.ahead). */
const AHEAD = 3;

/** A key's unique index in one day's partition (the family's `partitionIndexes`). */
const uniqueKey = (name: string) =>
  `CREATE UNIQUE INDEX IF NOT EXISTS "${name}_key" ON platform.${name} (application_id, mode, key)`;

/**
 * Takes (or takes over) a key in one statement, under a transaction-scoped advisory lock on the key
 * (docs/IDEMPOTENCY.md "Retention"): with a partition per day the unique index only holds within a
 * day, so two claims of one key across midnight are serialized by the lock, and each statement of a
 * VOLATILE function reads with a new snapshot, taken after the lock: the second sees the first's row.
 * `taken` false: the key is answered, held, or was sent with another body. A takeover (a lapsed lease
 * with the same request) and a reuse (an answer past its expiry) put the key in `p_now`'s day, so
 * every key an attempt holds is in the day its `created_at` (= the claim's `p_now`) names.
 */
const CLAIM_FUNCTION = `
CREATE FUNCTION platform.idempotency_claim(
  p_application_id uuid, p_mode text, p_key text, p_request_hash bytea,
  p_now timestamptz, p_lease_until timestamptz, p_token uuid,
  OUT taken boolean, OUT resumes jsonb)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  held platform.idempotency_keys%ROWTYPE;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_application_id::text || ' ' || p_mode || ' ' || p_key, 0));
  SELECT * INTO held FROM platform.idempotency_keys k
   WHERE k.application_id = p_application_id AND k.mode = p_mode AND k.key = p_key;
  taken := true;
  IF NOT FOUND THEN
    INSERT INTO platform.idempotency_keys (application_id, mode, key, request_hash, status, created_at, expires_at, lease_token)
    VALUES (p_application_id, p_mode, p_key, p_request_hash, 'processing', p_now, p_lease_until, p_token);
  ELSIF held.status = 'completed' AND held.expires_at <= p_now THEN
    DELETE FROM platform.idempotency_keys k
     WHERE k.application_id = p_application_id AND k.mode = p_mode AND k.key = p_key AND k.created_at = held.created_at;
    INSERT INTO platform.idempotency_keys (application_id, mode, key, request_hash, status, created_at, expires_at, lease_token)
    VALUES (p_application_id, p_mode, p_key, p_request_hash, 'processing', p_now, p_lease_until, p_token);
  ELSIF held.status = 'processing' AND held.expires_at <= p_now AND held.request_hash = p_request_hash THEN
    UPDATE platform.idempotency_keys k SET lease_token = p_token, expires_at = p_lease_until, created_at = p_now
     WHERE k.application_id = p_application_id AND k.mode = p_mode AND k.key = p_key AND k.created_at = held.created_at
       AND k.status = 'processing' AND k.expires_at <= p_now
    RETURNING k.recovery INTO resumes;
    taken := FOUND;
  ELSE
    taken := false;
  END IF;
END
$$`;

/**
 * `platform.idempotency_keys` becomes a table partitioned by UTC day of `created_at`
 * (docs/IDEMPOTENCY.md "Retention", docs/SCALING.md "Partitioned tables"): retention drops whole
 * days instead of leaving every key ever sent until it is reused. The primary key
 * `(application_id, mode, key)` becomes a unique index per day's partition (a unique key of a
 * partitioned table must hold the partition key), and keys are claimed through
 * `platform.idempotency_claim`, which holds a per-key advisory lock so a key stays unique across
 * days. The expiry index goes: nothing reads by expiry any more (a day is dropped whole).
 *
 * In place, in this migration's transaction: the table is renamed aside, the partitioned one created
 * with every day holding a row plus today and the next three, the rows copied, the count checked
 * (the migration fails, changing nothing, if it differs) and the old table dropped. Days past the
 * retention are left for the maintenance job, which carries forward the keys that can still answer.
 */
export class IdempotencyKeyPartitions1764502900000 implements MigrationInterface {
  name = 'IdempotencyKeyPartitions1764502900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const before = await countRows(queryRunner, 'platform.idempotency_keys');
    const old = await renameAside(queryRunner, 'platform', 'idempotency_keys');
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
        lease_token uuid,
        recovery jsonb
      ) PARTITION BY RANGE (created_at)`);
    const days = await daysToMake(
      queryRunner,
      `SELECT DISTINCT date_trunc('day', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS day FROM ${old}`,
      AHEAD,
    );
    for (const day of days) {
      const { name, sql } = dayPartition('platform', 'idempotency_keys', day);
      await queryRunner.query(sql);
      await queryRunner.query(uniqueKey(name));
    }
    await queryRunner.query(`INSERT INTO platform.idempotency_keys (${COLUMNS}) SELECT ${COLUMNS} FROM ${old}`);
    await assertCount(queryRunner, 'platform.idempotency_keys', before);
    await queryRunner.query(`DROP TABLE ${old}`);
    await queryRunner.query(CLAIM_FUNCTION);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION platform.idempotency_claim`);
    const old = await renameAside(queryRunner, 'platform', 'idempotency_keys');
    for (const sql of [
      `CREATE TABLE platform.idempotency_keys (LIKE ${old} INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
         PRIMARY KEY (application_id, mode, key))`,
      `CREATE INDEX idempotency_keys_expiry_idx ON platform.idempotency_keys (expires_at)`,
      `INSERT INTO platform.idempotency_keys (${COLUMNS}) SELECT ${COLUMNS} FROM ${old}`,
      `DROP TABLE ${old}`,
    ]) {
      await queryRunner.query(sql);
    }
  }
}
