import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { BalanceTransactionCustomerIndex1764503100000 } from '../../../migrations/1764503100000-BalanceTransactionCustomerIndex.js';
import { migratedBefore, migratedThrough, migrationDatabase, undoneThrough } from '../../support/migration-database.js';

/**
 * docs/LEDGER.md "Hot balances": the per-customer index of balance transactions holds only the entries
 * that name a customer, in both modes; a list by customer still reads it, and the down migration
 * gives the index over every entry back. On this run's database engine.
 */
describe('balance transactions: the per-customer index is partial', () => {
  const db = migrationDatabase();

  const definition = async (ds: DataSource, schema: string) =>
    (
      (await ds.query(
        `SELECT indexdef FROM pg_indexes
          WHERE schemaname = $1 AND tablename = 'balance_transactions' AND indexname = 'bt_app_customer_created_idx'`,
        [schema],
      )) as Array<{ indexdef: string }>
    ).map((row) => row.indexdef);

  it('keeps only entries with a customer, a list by customer reads it, and it goes back down', async () => {
    const full = /\(application_id, customer_id, created_at DESC, id DESC\)$/;
    await migratedBefore(db.url(), BalanceTransactionCustomerIndex1764503100000, async (ds) => {
      for (const s of ['wallet_test', 'wallet_live'])
        expect(await definition(ds, s)).toEqual([expect.stringMatching(full)]);
    });
    await migratedThrough(db.url(), BalanceTransactionCustomerIndex1764503100000, async (ds) => {
      for (const s of ['wallet_test', 'wallet_live']) {
        const [index] = await definition(ds, s);
        expect(index).toMatch(
          /\(application_id, customer_id, created_at DESC, id DESC\) WHERE \(customer_id IS NOT NULL\)$/,
        );
        // The list's filter (`bt.customer_id = $x`) implies the index's predicate.
        const plan = (await ds.transaction(async (manager) => {
          await manager.query('SET LOCAL enable_seqscan = off');
          return manager.query(
            `EXPLAIN SELECT id FROM ${s}.balance_transactions
              WHERE application_id = '00000000-0000-7000-8000-000000000001'
                AND customer_id = '00000000-0000-7000-8000-000000000002'
              ORDER BY created_at DESC, id DESC LIMIT 10`,
          );
        })) as Array<{ 'QUERY PLAN': string }>;
        expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(
          /Index (Only )?Scan using bt_app_customer_created_idx on balance_transactions/,
        );
      }

      // Down through this migration (and the ones after it, first).
      await undoneThrough(ds, BalanceTransactionCustomerIndex1764503100000);
      for (const s of ['wallet_test', 'wallet_live']) {
        expect(await definition(ds, s)).toEqual([expect.stringMatching(full)]);
      }
    });
  });
});
