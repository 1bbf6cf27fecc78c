import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * A balance's chain places (`balance_transactions (balance_id, chain_seq)`) keep their index but not
 * its uniqueness (docs/LEDGER.md, "Hot balances"). Every writer of a balance takes its next places
 * from `chain_count` and moves `chain_count` past them in the same transaction while holding the
 * balance's lock, and a pipelined group-commit batch writes its balances only when `chain_count` is
 * still the one it computed from: so no two committed entries of a balance share a place, which
 * test/support/ledger-invariants.ts checks by replaying every chain. As a unique index it made a
 * writer that took a place a pipelined batch had taken (not yet committed) wait for that batch's
 * transaction while the batch waited for the writer's balance lock: a wait cycle that PostgreSQL
 * resolved by failing one of them.
 */
export class LedgerChainPlaces1764503100000 implements MigrationInterface {
  name = 'LedgerChainPlaces1764503100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE INDEX bt_balance_chain_idx ON ${s}.balance_transactions (balance_id, chain_seq)`,
      `DROP INDEX ${s}.bt_balance_chain_key`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE UNIQUE INDEX bt_balance_chain_key ON ${s}.balance_transactions (balance_id, chain_seq)`,
      `DROP INDEX ${s}.bt_balance_chain_idx`,
    ]);
  }
}
