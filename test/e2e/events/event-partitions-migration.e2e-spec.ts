import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { EventPartitions1764502400000 } from '../../../migrations/1764502400000-EventPartitions.js';
import { migratedBefore, migratedThrough, migrationDatabase } from '../../support/migration-database.js';

const APP = '00000000-0000-7000-8000-000000000001';
const TABLES = ['events', 'webhook_deliveries', 'webhook_attempts'] as const;

/**
 * docs/EVENTS.md "Retention", migration EventPartitions: a database with events, webhook deliveries
 * and attempts in both modes, over three past months and this one, upgrades in place: every row is
 * kept (counts per table, mode and month equal before and after), deliveries and attempts sit in
 * their event's month, and a delivery is still unique per endpoint and event. On this run's engine
 * (a database of its own on PostgreSQL, an in-memory embedded one otherwise).
 */
describe('events partitioning migration', () => {
  const db = migrationDatabase();

  /** Rows per table and month of the event they belong to. */
  const count = async (ds: DataSource, schema: string) => {
    const counted: Record<string, Array<{ month: string; n: number }>> = {};
    for (const table of TABLES) {
      counted[table] = (await ds.query(
        `SELECT date_trunc('month', e.created_at AT TIME ZONE 'UTC')::date::text AS month, count(*)::int AS n
           FROM ${schema}.${table} x JOIN ${schema}.events e ON e.id = ${table === 'events' ? 'x.id' : 'x.event_id'}
          GROUP BY 1 ORDER BY 1`,
      )) as Array<{ month: string; n: number }>;
    }
    return counted;
  };

  it('moves every event, delivery and attempt of both modes into its event month, nothing lost', async () => {
    const now = new Date();
    const months = [-3, -2, -1, 0].map((k) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1)));
    const counted: Record<string, Awaited<ReturnType<typeof count>>> = {};
    await migratedBefore(db.url(), EventPartitions1764502400000, async (before) => {
      for (const [s, perMonth] of [
        ['wallet_test', 40],
        ['wallet_live', 25],
      ] as const) {
        const [{ id: endpoint }] = (await before.query(
          `INSERT INTO ${s}.webhook_endpoints (id, application_id, url, enabled_events, status, secret, metadata, created_at, updated_at)
           VALUES (gen_random_uuid(), $1, 'https://example.com/hook', '{*}', 'enabled', 'whsec_x', '{}', now(), now()) RETURNING id`,
          [APP],
        )) as Array<{ id: string }>;
        for (const month of months) {
          // Each event is delivered later in its month or the next (the attempt's own created_at).
          await before.query(
            `WITH e AS (
               INSERT INTO ${s}.events (id, application_id, type, api_version, data, created_at)
               SELECT gen_random_uuid(), $1, 'customer.created', '2025-01-01', '{}', $2::timestamptz + g * interval '1 hour'
                 FROM generate_series(1, ${perMonth}) g RETURNING id, created_at
             ), d AS (
               INSERT INTO ${s}.webhook_deliveries (endpoint_id, event_id, application_id, event_type, status, attempts,
                 retry_window_from, delivered_at, created_at, updated_at)
               SELECT $3, id, $1, 'customer.created', 'succeeded', 1, created_at, created_at, created_at, created_at FROM e
               RETURNING event_id, created_at
             )
             INSERT INTO ${s}.webhook_attempts (id, application_id, endpoint_id, event_id, event_type, attempt, outcome,
               status_code, duration_ms, created_at)
             SELECT gen_random_uuid(), $1, $3, event_id, 'customer.created', 1, 'succeeded', 200, 5, created_at + interval '40 days' FROM d`,
            [APP, month.toISOString(), endpoint],
          );
        }
        counted[s] = await count(before, s);
        for (const table of TABLES) expect(counted[s][table]).toHaveLength(4);
      }
    });

    await migratedThrough(db.url(), EventPartitions1764502400000, async (after) => {
      for (const s of ['wallet_test', 'wallet_live']) {
        expect(await count(after, s)).toEqual(counted[s]);
        for (const [table, key] of [
          ['events', 'created_at'],
          ['webhook_deliveries', 'event_created_at'],
          ['webhook_attempts', 'event_created_at'],
        ]) {
          const misplaced = (await after.query(
            `SELECT count(*)::int AS n FROM ${s}.${table}
              WHERE tableoid::regclass::text <> '${s}.${table}_y' || to_char(${key} AT TIME ZONE 'UTC', 'YYYY"m"MM')`,
          )) as Array<{ n: number }>;
          expect(misplaced[0].n).toBe(0);
          const [{ kind }] = (await after.query(
            `SELECT c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = $1 AND c.relname = $2`,
            [s, table],
          )) as Array<{ kind: string }>;
          expect(kind).toBe('p');
        }
        // Each delivery's and attempt's event_created_at is its event's.
        const [{ wrong }] = (await after.query(
          `SELECT (SELECT count(*) FROM ${s}.webhook_deliveries d JOIN ${s}.events e ON e.id = d.event_id
                    WHERE d.event_created_at <> e.created_at)
                + (SELECT count(*) FROM ${s}.webhook_attempts a JOIN ${s}.events e ON e.id = a.event_id
                    WHERE a.event_created_at <> e.created_at) AS wrong`,
        )) as Array<{ wrong: string }>;
        expect(Number(wrong)).toBe(0);
      }
      // A delivery stays unique per endpoint and event.
      await expect(
        after.query(
          `INSERT INTO wallet_test.webhook_deliveries (endpoint_id, event_id, application_id, event_type, status, attempts,
             retry_window_from, created_at, updated_at, event_created_at)
           SELECT endpoint_id, event_id, application_id, event_type, 'pending', 0, now(), now(), now(), event_created_at
             FROM wallet_test.webhook_deliveries LIMIT 1`,
        ),
      ).rejects.toThrow(/duplicate key/);
    });
  });
});
