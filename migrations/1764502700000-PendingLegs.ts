import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Hot balances in callers' transactions (docs/LEDGER.md, "Hot balances", issue 42): a posting made
 * inside a caller's transaction writes its legs on a hot balance (`LEDGER_HOT_ACCOUNTS`) here instead
 * of taking that balance's row lock; the ledger's applier moves them into `balance_transactions`, in
 * `seq` order per balance, many journals per transaction. A row is the entry as it will be written
 * (its id is the entry's), with its journal's fields; it lives until applied, then is deleted in the
 * applier's transaction. No foreign key: journals' key is their id alone, and a leg is only ever
 * written with its journal, in the same statement or transaction.
 */
export class PendingLegs1764502700000 implements MigrationInterface {
  name = 'PendingLegs1764502700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.pending_legs (
        application_id uuid NOT NULL,
        entry_id uuid NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        journal_id uuid NOT NULL,
        balance_id uuid NOT NULL,
        currency text NOT NULL,
        amount bigint NOT NULL CHECK (amount <> 0),
        journal_description text,
        event_type text NOT NULL,
        event_id text,
        created_at timestamptz NOT NULL,
        entry jsonb NOT NULL,
        PRIMARY KEY (application_id, entry_id)
      )`,
      `CREATE INDEX pending_legs_balance_idx ON ${s}.pending_legs (balance_id, seq)`,
      `CREATE INDEX pending_legs_journal_idx ON ${s}.pending_legs (application_id, journal_id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP TABLE ${s}.pending_legs`]);
  }
}
