import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { IDEMPOTENCY_KEYS } from '../src/common/database/partitions/partitioned-tables.js';
import { periodStart } from '../src/common/database/partitions/partitions.sql.js';
import { createDatabase, dropDatabase, printTable, processCpuMs } from './support.js';

/**
 * `node dist/bench-build/bench/idempotency-claim.js`: what claiming an `Idempotency-Key` costs
 * PostgreSQL and the round trips it takes, for the daily-partitioned table (one statement,
 * `platform.idempotency_claim`, under the key's advisory lock, reading every kept day) against the
 * unpartitioned table it replaced (`DELETE` of an expired answer, then `INSERT ... ON CONFLICT DO
 * NOTHING` on its primary key: two statements). One connection, sequential new keys, both tables
 * holding BENCH_KEYS_PER_DAY keys on each of the three days kept (the partitioned one's three days
 * ahead empty), in rounds alternating A B B A. Per claim: the backend's CPU (from /proc) and the
 * client's wall time. Knobs: BENCH_CLAIMS (per round, 3000), BENCH_ROUNDS (4), BENCH_KEYS_PER_DAY (20000).
 */
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const KEYS_PER_DAY = Number(process.env.BENCH_KEYS_PER_DAY ?? 20000);
const DATABASE = 'wallet_bench_idempotency_claim_test';
const DAY_MS = 86_400_000;
const APP = '00000000-0000-7000-8000-000000000001';
const HASH = Buffer.alloc(32, 7);

async function main(): Promise<void> {
  const url = await createDatabase(DATABASE);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const now = new Date();
    await client.query(`CREATE TABLE platform.idempotency_keys_flat (LIKE platform.idempotency_keys,
      PRIMARY KEY (application_id, mode, key))`);
    for (let d = -2; d <= 3; d++) {
      const day = periodStart(now, IDEMPOTENCY_KEYS.granularity, d);
      const name = `idempotency_keys_y${day.getUTCFullYear()}m${String(day.getUTCMonth() + 1).padStart(2, '0')}d${String(day.getUTCDate()).padStart(2, '0')}`;
      await client.query(`CREATE TABLE IF NOT EXISTS platform.${name} PARTITION OF platform.idempotency_keys
        FOR VALUES FROM ('${day.toISOString()}') TO ('${new Date(day.getTime() + DAY_MS).toISOString()}')`);
      await client.query(
        `CREATE UNIQUE INDEX IF NOT EXISTS "${name}_key" ON platform.${name} (application_id, mode, key)`,
      );
      if (d > 0) continue;
      for (const table of ['idempotency_keys', 'idempotency_keys_flat']) {
        await client.query(
          `INSERT INTO platform.${table} (application_id, mode, key, request_hash, status, response_status, response_body, created_at, expires_at)
           SELECT $1, 'test', 'old-' || $2::text || '-' || g, $3, 'completed', 200, '{"id": "x"}',
                  $4::timestamptz + g * interval '1 second' / 4, $4::timestamptz + g * interval '1 second' / 4 + interval '1 day'
             FROM generate_series(1, ${KEYS_PER_DAY}) g`,
          [APP, d, HASH, day],
        );
      }
    }
    await client.query(`VACUUM ANALYZE platform.idempotency_keys_flat`);
    await client.query(`ANALYZE platform.idempotency_keys`);
    const [{ pid }] = (await client.query(`SELECT pg_backend_pid() AS pid`)).rows as Array<{ pid: number }>;

    const claims: Record<string, { statements: number; claim: (key: string, at: Date) => Promise<void> }> = {
      'unpartitioned (DELETE + INSERT ON CONFLICT)': {
        statements: 2,
        claim: async (key, at) => {
          const params = [APP, 'test', key];
          await client.query(
            `DELETE FROM platform.idempotency_keys_flat WHERE application_id = $1 AND mode = $2 AND key = $3
               AND status = 'completed' AND expires_at <= $4`,
            [...params, at],
          );
          await client.query(
            `INSERT INTO platform.idempotency_keys_flat (application_id, mode, key, request_hash, status, created_at, expires_at, lease_token)
             VALUES ($1, $2, $3, $4, 'processing', $5, $6, $7) ON CONFLICT (application_id, mode, key) DO NOTHING RETURNING key`,
            [...params, HASH, at, new Date(at.getTime() + 10_000), randomUUID()],
          );
        },
      },
      'by day (idempotency_claim under the key lock)': {
        statements: 1,
        claim: async (key, at) => {
          await client.query(`SELECT taken, resumes FROM platform.idempotency_claim($1, $2, $3, $4, $5, $6, $7)`, [
            APP,
            'test',
            key,
            HASH,
            at,
            new Date(at.getTime() + 10_000),
            randomUUID(),
          ]);
        },
      },
    };
    const names = Object.keys(claims);
    const samples: Record<string, { cpu: number[]; wall: number[] }> = {};
    for (const name of names) samples[name] = { cpu: [], wall: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of r % 2 ? [...names].reverse() : names) {
        const cpu = processCpuMs(pid);
        const wall = performance.now();
        for (let i = 0; i < CLAIMS; i++) await claims[name].claim(`r${r}-${i}-${randomUUID()}`, new Date());
        samples[name].wall.push(((performance.now() - wall) * 1000) / CLAIMS);
        samples[name].cpu.push(((processCpuMs(pid) - cpu) * 1000) / CLAIMS);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    printTable(
      names.map((name) => ({
        claim: name,
        statements: claims[name].statements,
        pg_cpu_us_median: Math.round(median(samples[name].cpu)),
        pg_cpu_us_rounds: samples[name].cpu.map(Math.round).join(' '),
        wall_us_median: Math.round(median(samples[name].wall)),
      })),
    );
    console.log(`${ROUNDS} rounds x ${CLAIMS} new keys, ${KEYS_PER_DAY} keys on each of 3 days kept, one connection`);
  } finally {
    await client.end();
    await dropDatabase(DATABASE);
  }
}

await main();
