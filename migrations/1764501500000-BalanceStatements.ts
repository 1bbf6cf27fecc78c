import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Signed balance statements (docs/LEDGER.md, "Statements"). Every balance transaction gets its place
 * in its balance's hash chain (`chain_seq`, from 1) and `entry_hash` = SHA-256 (hex) of the canonical
 * line `ledger_entry_hash` builds from the previous entry's hash and the entry's own fields; the
 * balance keeps the chain's head (`chain_head`, `chain_count`), written by the posting statement with
 * the running balance. Existing entries are chained here, per balance in (created_at, id) order, by
 * `ledger_chain_fill()`, which also chains any row inserted by hand without one (the benchmark's
 * seed): the immutability trigger lets an UPDATE only fill a missing chain and change nothing else.
 * `balance_statements` keeps each signed statement; `platform.statement_signing_keys` the public
 * halves of the Ed25519 keys generated when STATEMENT_SIGNING_KEYS is not set.
 */
export class BalanceStatements1764501500000 implements MigrationInterface {
  name = 'BalanceStatements1764501500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.balances
         ADD COLUMN chain_head text NOT NULL DEFAULT '${'0'.repeat(64)}',
         ADD COLUMN chain_count bigint NOT NULL DEFAULT 0`,
      `ALTER TABLE ${s}.balance_transactions ADD COLUMN chain_seq bigint, ADD COLUMN entry_hash text`,
      `CREATE UNIQUE INDEX bt_balance_chain_key ON ${s}.balance_transactions (balance_id, chain_seq)`,
      // The canonical line of an entry (docs/LEDGER.md, "Statements"); a verifier recomputes it offline.
      `CREATE FUNCTION ${s}.ledger_entry_hash(prev text, seq bigint, entry_id uuid, balance_id uuid, journal_id uuid,
           amount bigint, currency text, state text, running_balance bigint, created_at timestamptz)
         RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
         SELECT encode(sha256(convert_to(concat_ws('|', 'wallet-ledger-entry-v1', prev, seq::text, entry_id::text,
                  balance_id::text, journal_id::text, amount::text, currency, state, running_balance::text,
                  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), 'UTF8')), 'hex')
       $$`,
      // Entries stay immutable; the one UPDATE let through fills a missing chain and changes nothing
      // else (the WHEN is evaluated without calling the function, so filling costs little).
      `DROP TRIGGER balance_transactions_immutable ON ${s}.balance_transactions`,
      `CREATE TRIGGER balance_transactions_immutable BEFORE DELETE ON ${s}.balance_transactions
        FOR EACH ROW EXECUTE FUNCTION ${s}.refuse_ledger_change()`,
      `CREATE TRIGGER balance_transactions_immutable_update BEFORE UPDATE ON ${s}.balance_transactions
        FOR EACH ROW WHEN (NOT (OLD.entry_hash IS NULL AND NEW.entry_hash IS NOT NULL AND NEW.chain_seq IS NOT NULL
          AND to_jsonb(NEW) - 'entry_hash' - 'chain_seq' = to_jsonb(OLD) - 'entry_hash' - 'chain_seq'))
        EXECUTE FUNCTION ${s}.refuse_ledger_change()`,
      // Chains every entry that has none, per balance in (created_at, id) order after the balance's
      // head, computing the hashes in one pass and writing them 10,000 at a time.
      `CREATE FUNCTION ${s}.ledger_chain_fill() RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
          r record;
          current_balance uuid;
          head text;
          n bigint;
          filled bigint := 0;
          ids uuid[] := '{}';
          places bigint[] := '{}';
          hashes text[] := '{}';
        BEGIN
          FOR r IN SELECT id, balance_id, journal_id, amount, currency, state, running_balance, created_at
                     FROM ${s}.balance_transactions WHERE entry_hash IS NULL
                    ORDER BY balance_id, created_at, id LOOP
            IF current_balance IS DISTINCT FROM r.balance_id THEN
              IF current_balance IS NOT NULL THEN
                UPDATE ${s}.balances SET chain_head = head, chain_count = n WHERE id = current_balance;
              END IF;
              SELECT chain_head, chain_count INTO head, n FROM ${s}.balances WHERE id = r.balance_id FOR UPDATE;
              current_balance := r.balance_id;
            END IF;
            n := n + 1;
            head := ${s}.ledger_entry_hash(head, n, r.id, r.balance_id, r.journal_id, r.amount, r.currency, r.state,
                                           r.running_balance, r.created_at);
            ids := ids || r.id;
            places := places || n;
            hashes := hashes || head;
            filled := filled + 1;
            IF cardinality(ids) >= 10000 THEN
              UPDATE ${s}.balance_transactions e SET chain_seq = u.place, entry_hash = u.hash
                FROM unnest(ids, places, hashes) AS u (id, place, hash) WHERE e.id = u.id;
              ids := '{}';
              places := '{}';
              hashes := '{}';
            END IF;
          END LOOP;
          UPDATE ${s}.balance_transactions e SET chain_seq = u.place, entry_hash = u.hash
            FROM unnest(ids, places, hashes) AS u (id, place, hash) WHERE e.id = u.id;
          IF current_balance IS NOT NULL THEN
            UPDATE ${s}.balances SET chain_head = head, chain_count = n WHERE id = current_balance;
          END IF;
          RETURN filled;
        END
      $$`,
      `SELECT ${s}.ledger_chain_fill()`,
      `CREATE TABLE ${s}.balance_statements (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         balance_id uuid NOT NULL REFERENCES ${s}.balances (id),
         as_of timestamptz NOT NULL,
         kid text NOT NULL,
         payload jsonb NOT NULL,
         jws text NOT NULL,
         created_at timestamptz NOT NULL)`,
      `CREATE INDEX balance_statements_app_balance_idx ON ${s}.balance_statements (application_id, balance_id, created_at)`,
    ]);
    // The public halves of the generated signing keys (a private key never reaches the database).
    await queryRunner.query(`CREATE TABLE platform.statement_signing_keys (
       kid text PRIMARY KEY,
       public_jwk jsonb NOT NULL,
       created_at timestamptz NOT NULL,
       retired_at timestamptz)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform.statement_signing_keys`);
    await forEachModeSchema(queryRunner, (s) => [
      `DROP TABLE ${s}.balance_statements`,
      `DROP FUNCTION ${s}.ledger_chain_fill()`,
      `DROP TRIGGER balance_transactions_immutable_update ON ${s}.balance_transactions`,
      `DROP TRIGGER balance_transactions_immutable ON ${s}.balance_transactions`,
      `CREATE TRIGGER balance_transactions_immutable BEFORE UPDATE OR DELETE ON ${s}.balance_transactions
        FOR EACH ROW EXECUTE FUNCTION ${s}.refuse_ledger_change()`,
      `DROP FUNCTION ${s}.ledger_entry_hash(text, bigint, uuid, uuid, uuid, bigint, text, text, bigint, timestamptz)`,
      `DROP INDEX ${s}.bt_balance_chain_key`,
      `ALTER TABLE ${s}.balance_transactions DROP COLUMN chain_seq, DROP COLUMN entry_hash`,
      `ALTER TABLE ${s}.balances DROP COLUMN chain_head, DROP COLUMN chain_count`,
    ]);
  }
}
