import type { DataSource } from 'typeorm';
import { IdempotencyKeyPartitions1764502900000 } from '../../../migrations/1764502900000-IdempotencyKeyPartitions.js';
import { migratedBefore, migratedThrough, migrationDatabase } from '../../support/migration-database.js';

const APP = '00000000-0000-7000-8000-000000000001';
const DAY_MS = 86_400_000;
const HASH = Buffer.from('a'.repeat(64), 'hex');

/** Rows per mode, status and UTC day of `created_at`. */
const count = (ds: DataSource) =>
  ds.query(
    `SELECT mode, status, (created_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS n
       FROM platform.idempotency_keys GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  ) as Promise<Array<{ mode: string; status: string; day: string; n: number }>>;

const claim = (ds: DataSource, key: string, now: Date) =>
  ds.query(`SELECT taken, resumes FROM platform.idempotency_claim($1, 'test', $2, $3, $4, $5, gen_random_uuid())`, [
    APP,
    key,
    HASH,
    now,
    new Date(now.getTime() + 10_000),
  ]) as Promise<Array<{ taken: boolean; resumes: unknown }>>;

/**
 * docs/IDEMPOTENCY.md "Retention", migration IdempotencyKeyPartitions: a database with keys of both
 * modes over the last six days (answered ones, expired ones, a key an abandoned attempt left
 * processing with a recovery point) upgrades in place: every row is kept (counts per mode, status
 * and day equal before and after), each sits in its day's partition, an answered key is still
 * answered, the abandoned key is taken over with its recovery point, and a key stays unique within
 * a day. On this run's engine (a database of its own on PostgreSQL, an in-memory embedded one otherwise).
 */
describe('idempotency keys partitioning migration', () => {
  const db = migrationDatabase();

  it('moves every key of both modes into its day, nothing lost, and keys still answer', async () => {
    const now = new Date();
    const counted = await migratedBefore(db.url(), IdempotencyKeyPartitions1764502900000, async (before) => {
      for (const [mode, perDay] of [
        ['test', 30],
        ['live', 12],
      ] as const) {
        for (let daysAgo = 5; daysAgo >= 0; daysAgo--) {
          // Answered keys, kept 24 hours after their request (the older ones expired, never reused).
          await before.query(
            `INSERT INTO platform.idempotency_keys (application_id, mode, key, request_hash, status, response_status,
               response_body, created_at, expires_at)
             SELECT $1, $2, 'k-' || $3::text || '-' || g, $4, 'completed', 200, '{"id": "cus_1"}',
                    $5::timestamptz - g * interval '1 minute', $5::timestamptz - g * interval '1 minute' + interval '1 day'
               FROM generate_series(1, ${perDay}) g`,
            [APP, mode, daysAgo, HASH, new Date(now.getTime() - daysAgo * DAY_MS)],
          );
        }
      }
      await before.query(
        `INSERT INTO platform.idempotency_keys (application_id, mode, key, request_hash, status, created_at, expires_at,
           lease_token, recovery)
         VALUES ($1, 'test', 'abandoned', $2, 'processing', $3, $4, gen_random_uuid(), '{"object": "refund", "id": "re_1"}')`,
        [APP, HASH, new Date(now.getTime() - 5 * DAY_MS), new Date(now.getTime() - 5 * DAY_MS + 10_000)],
      );
      const rows = await count(before);
      expect(rows.reduce((n, r) => n + r.n, 0)).toBe(6 * 42 + 1);
      return rows;
    });

    await migratedThrough(db.url(), IdempotencyKeyPartitions1764502900000, async (after) => {
      expect(await count(after)).toEqual(counted);
      const [{ kind }] = (await after.query(
        `SELECT relkind AS kind FROM pg_class WHERE oid = 'platform.idempotency_keys'::regclass`,
      )) as Array<{ kind: string }>;
      expect(kind).toBe('p');
      const [{ misplaced }] = (await after.query(
        `SELECT count(*)::int AS misplaced FROM platform.idempotency_keys
          WHERE tableoid::regclass::text <> 'platform.idempotency_keys_y' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY"m"MM"d"DD')`,
      )) as Array<{ misplaced: number }>;
      expect(misplaced).toBe(0);

      // Today's answered key still answers (not taken); an expired one is new again.
      expect(await claim(after, 'k-0-1', now)).toEqual([{ taken: false, resumes: null }]);
      expect(await claim(after, 'k-3-1', now)).toEqual([{ taken: true, resumes: null }]);
      // The abandoned key (lapsed, same request) is taken over with its recovery point, into today.
      expect(await claim(after, 'abandoned', now)).toEqual([
        { taken: true, resumes: { object: 'refund', id: 're_1' } },
      ]);
      const [{ day }] = (await after.query(
        `SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day FROM platform.idempotency_keys WHERE key = 'abandoned'`,
      )) as Array<{ day: string }>;
      expect(day).toBe(now.toISOString().slice(0, 10));
      // Within a day a key is unique by its partition's index.
      await expect(
        after.query(
          `INSERT INTO platform.idempotency_keys (application_id, mode, key, request_hash, status, created_at, expires_at)
           SELECT application_id, mode, key, request_hash, status, created_at, expires_at
             FROM platform.idempotency_keys WHERE key = 'k-0-1' AND mode = 'test'`,
        ),
      ).rejects.toThrow(/duplicate key/);
    });
  });
});
