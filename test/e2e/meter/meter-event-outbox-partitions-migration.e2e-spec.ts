import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { MeterEventOutboxPartitions1764503000000 } from '../../../migrations/1764503000000-MeterEventOutboxPartitions.js';
import { monthPartition } from '../../../migrations/support.js';
import { migratedBefore, migratedThrough, migrationDatabase, undoneThrough } from '../../support/migration-database.js';

/**
 * docs/METERING.md "Partitions", migration of the outbox: a database with undelivered meter events in
 * both modes, over three past months and this one (leased, retried and traced rows among them),
 * upgrades in place: every outbox row is kept with every column (the same rows before and after, per
 * mode), each in its month's partition, every month of `meter_events` has its outbox partition
 * (fillfactor 45), and the down migration gives the plain table back with the same rows. On this run's
 * database engine (a database of its own on PostgreSQL, an in-memory embedded one otherwise).
 */
describe('meter event outbox partitioning migration', () => {
  const db = migrationDatabase();

  const rowsOf = (ds: DataSource, schema: string) =>
    ds.query(
      `SELECT event_id, application_id, attempts, next_attempt_at, created_at, leased_until, traceparent
         FROM ${schema}.meter_event_outbox ORDER BY event_id`,
    ) as Promise<Array<Record<string, unknown>>>;
  const kind = async (ds: DataSource, schema: string) =>
    (
      (await ds.query(
        `SELECT c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND c.relname = 'meter_event_outbox'`,
        [schema],
      )) as Array<{ kind: string }>
    )[0].kind;

  it('moves every outbox row of both modes into its month, nothing lost, and back down', async () => {
    const now = new Date();
    const months = [-3, -2, -1, 0].map((k) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1)));
    const before: Record<string, Array<Record<string, unknown>>> = {};
    await migratedBefore(db.url(), MeterEventOutboxPartitions1764503000000, async (ds) => {
      for (const [s, perMonth] of [
        ['wallet_test', 40],
        ['wallet_live', 25],
      ] as const) {
        for (const month of months) {
          // The events' past months, as the partition code would have made them.
          await ds.query(monthPartition(s, 'meter_events', month));
          await ds.query(
            `WITH e AS (
               INSERT INTO ${s}.meter_events (id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at)
               SELECT gen_random_uuid(), '00000000-0000-7000-8000-000000000001', gen_random_uuid(), 'calls', gen_random_uuid(),
                      'o-' || $1::text || '-' || g, '{}', g, $1::timestamptz + g * interval '1 minute', 'sandbox', $1::timestamptz + g * interval '1 minute'
               FROM generate_series(1, ${perMonth}) g
               RETURNING id, application_id, created_at, value
             )
             INSERT INTO ${s}.meter_event_outbox (event_id, application_id, attempts, next_attempt_at, created_at, leased_until, traceparent)
             SELECT id, application_id, (value % 3)::int, created_at + (value % 3) * interval '1 hour', created_at,
                    CASE WHEN value % 4 = 0 THEN created_at + interval '1 minute' END,
                    CASE WHEN value % 5 = 0 THEN '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' END
             FROM e`,
            [month.toISOString()],
          );
        }
        before[s] = await rowsOf(ds, s);
        expect(before[s]).toHaveLength(4 * perMonth);
        expect(await kind(ds, s)).toBe('r');
      }
    });

    await migratedThrough(db.url(), MeterEventOutboxPartitions1764503000000, async (ds) => {
      for (const s of ['wallet_test', 'wallet_live']) {
        expect(await kind(ds, s)).toBe('p');
        expect(await rowsOf(ds, s)).toEqual(before[s]);
        const [{ misplaced }] = (await ds.query(
          `SELECT count(*)::int AS misplaced FROM ${s}.meter_event_outbox
            WHERE tableoid::regclass::text <> '${s}.meter_event_outbox_y' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY"m"MM')`,
        )) as Array<{ misplaced: number }>;
        expect(misplaced).toBe(0);
        // The same months as the events (the next month's, made ahead, included), each at fillfactor 45.
        const partitions = (await ds.query(
          `SELECT p.relname AS name, c.reloptions AS options
             FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
             JOIN pg_namespace n ON n.oid = p.relnamespace
            WHERE n.nspname = $1 AND p.relname IN ('meter_events', 'meter_event_outbox') ORDER BY c.relname`,
          [s],
        )) as Array<{ name: string; options: string[] | string | null }>;
        const outbox = partitions.filter((p) => p.name === 'meter_event_outbox');
        expect(outbox.length).toBeGreaterThanOrEqual(5);
        expect(outbox).toHaveLength(partitions.length - outbox.length);
        for (const p of outbox) expect(String(p.options)).toMatch(/fillfactor=45/);
        const [{ key }] = (await ds.query(
          `SELECT pg_get_constraintdef(oid) AS key FROM pg_constraint
            WHERE conrelid = '${s}.meter_event_outbox'::regclass AND contype = 'p'`,
        )) as Array<{ key: string }>;
        expect(key).toBe('PRIMARY KEY (event_id, created_at)');
      }

      // Down through this migration (and the ones after it, first).
      await undoneThrough(ds, MeterEventOutboxPartitions1764503000000);
      for (const s of ['wallet_test', 'wallet_live']) {
        expect(await kind(ds, s)).toBe('r');
        expect(await rowsOf(ds, s)).toEqual(before[s]);
      }
    });
  });
});
