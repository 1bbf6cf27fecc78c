import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { EmbeddedPostgres } from '../../../src/common/database/embedded-postgres.js';
import { MIGRATIONS } from '../../../migrations/index.js';
import { MeterEventPartitions1764502200000 } from '../../../migrations/1764502200000-MeterEventPartitions.js';
import { createRunDatabase, dropRunDatabase } from '../../support/test-database.js';

const source = (url: string, migrations: typeof MIGRATIONS) =>
  new DataSource({
    type: 'postgres',
    url,
    migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    logging: ['error'],
  });

/**
 * docs/METERING.md "Partitions", migration: a database with meter events in both modes, over three
 * past months and this one, upgrades in place: every row is kept (counts per mode and per month
 * equal before and after), each in its month's partition, and an identifier stored before still
 * dedupes. On this run's database engine (a database of its own on PostgreSQL, an in-memory
 * embedded one otherwise).
 */
describe('meter events partitioning migration', () => {
  let url: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    if (process.env.WALLET_TEST_DATABASE === 'postgresql') {
      url = await createRunDatabase(process.env.DATABASE_URL!);
      stop = () => dropRunDatabase(url);
    } else {
      const embedded = await EmbeddedPostgres.start('memory://');
      url = embedded.url;
      stop = () => embedded.stop();
    }
  });
  afterAll(async () => {
    await stop();
  });

  it('moves every existing row of both modes into its month, nothing lost', async () => {
    const index = MIGRATIONS.indexOf(MeterEventPartitions1764502200000);
    expect(index).toBeGreaterThan(0);
    const before = source(url, MIGRATIONS.slice(0, index));
    await before.initialize();
    await before.runMigrations({ transaction: 'each' });
    const now = new Date();
    const months = [-3, -2, -1, 0].map((k) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1)));
    const count = async (ds: DataSource, schema: string) =>
      (await ds.query(
        `SELECT date_trunc('month', created_at AT TIME ZONE 'UTC')::date::text AS month, count(*)::int AS n
           FROM ${schema}.meter_events GROUP BY 1 ORDER BY 1`,
      )) as Array<{ month: string; n: number }>;
    const counted: Record<string, Array<{ month: string; n: number }>> = {};
    try {
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
    } finally {
      await before.destroy();
    }

    const after = source(url, MIGRATIONS);
    await after.initialize();
    try {
      expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toContain(
        'MeterEventPartitions1764502200000',
      );
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
    } finally {
      await after.destroy();
    }
  });
});
