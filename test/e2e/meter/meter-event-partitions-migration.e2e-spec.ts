import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { MeterEventPartitions1764502200000 } from '../../../migrations/1764502200000-MeterEventPartitions.js';
import { migratedBefore, migratedThrough, migrationDatabase } from '../../support/migration-database.js';

/**
 * docs/METERING.md "Partitions", migration: a database with meter events in both modes, over three
 * past months and this one, upgrades in place: every row is kept (counts per mode and per month
 * equal before and after), each in its month's partition, and an identifier stored before still
 * dedupes. On this run's database engine (a database of its own on PostgreSQL, an in-memory
 * embedded one otherwise).
 */
describe('meter events partitioning migration', () => {
  const db = migrationDatabase();

  it('moves every existing row of both modes into its month, nothing lost', async () => {
    const now = new Date();
    const months = [-3, -2, -1, 0].map((k) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1)));
    const count = async (ds: DataSource, schema: string) =>
      (await ds.query(
        `SELECT date_trunc('month', created_at AT TIME ZONE 'UTC')::date::text AS month, count(*)::int AS n
           FROM ${schema}.meter_events GROUP BY 1 ORDER BY 1`,
      )) as Array<{ month: string; n: number }>;
    const counted: Record<string, Array<{ month: string; n: number }>> = {};
    await migratedBefore(db.url(), MeterEventPartitions1764502200000, async (before) => {
      for (const [s, perMonth] of [
        ['wallet_test', 50],
        ['wallet_live', 30],
      ] as const) {
        for (const month of months) {
          await before.query(
            `INSERT INTO ${s}.meter_events (id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at)
             SELECT gen_random_uuid(), '00000000-0000-7000-8000-000000000001', gen_random_uuid(), 'calls', gen_random_uuid(),
                    'm-' || $1::text || '-' || g, '{}', g, $1::timestamptz + g * interval '1 minute', 'sandbox', $1::timestamptz + g * interval '1 minute'
             FROM generate_series(1, ${perMonth}) g`,
            [month.toISOString()],
          );
        }
        counted[s] = await count(before, s);
        expect(counted[s]).toHaveLength(4);
      }
    });

    await migratedThrough(db.url(), MeterEventPartitions1764502200000, async (after) => {
      for (const s of ['wallet_test', 'wallet_live']) {
        expect(await count(after, s)).toEqual(counted[s]);
        const misplaced = (await after.query(
          `SELECT count(*)::int AS n FROM ${s}.meter_events
            WHERE tableoid::regclass::text <> '${s}.meter_events_y' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY"m"MM')`,
        )) as Array<{ n: number }>;
        expect(misplaced[0].n).toBe(0);
        const [{ kind }] = (await after.query(
          `SELECT c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relname = 'meter_events'`,
          [s],
        )) as Array<{ kind: string }>;
        expect(kind).toBe('p');
      }
      // The month after this one is there too, so a fresh start takes events at once.
      const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      const nextName = `meter_events_y${next.getUTCFullYear()}m${String(next.getUTCMonth() + 1).padStart(2, '0')}`;
      const [{ present }] = (await after.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [
        `wallet_test.${nextName}`,
      ])) as Array<{ present: boolean }>;
      expect(present).toBe(true);
      // An identifier stored before the migration is still unique within its month.
      const first = months[0].toISOString();
      await expect(
        after.query(
          `INSERT INTO wallet_test.meter_events (id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at)
           VALUES (gen_random_uuid(), '00000000-0000-7000-8000-000000000001', gen_random_uuid(), 'calls', gen_random_uuid(), $1, '{}', 1, $2, 'sandbox', $2)`,
          [`m-${first}-1`, first],
        ),
      ).rejects.toThrow(/duplicate key/);
    });
  });
});
