import { readFileSync } from 'node:fs';
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { METER_EVENTS } from '../src/common/database/partitions/partitioned-tables.js';
import { dropDrainedPartitions, partitionName } from '../src/common/database/partitions/partitions.sql.js';
import {
  dropPartitionsBefore,
  ensureMonthPartitions,
  monthStart,
} from '../src/modules/meter/meter-event-partitions.sql.js';
import { storeEventsParams, storeEventsSql, type StoreRow } from '../src/modules/meter/store-events.sql.js';
import { createDatabase, dropDatabase, printTable, summarize, writeResults } from './support.js';

/**
 * `npm run bench:partitions`: what partitioning `meter_events` by month (docs/METERING.md
 * "Partitions") costs and buys, on real PostgreSQL, in one run:
 *   1. seeds BENCH_ROWS events (default 10,000,000) received over the three months before this one
 *      into the partitioned table, and (BENCH_AB=1, the default) the same rows into the table as it
 *      was before (one heap, the identifier unique over all of it, fillfactor 45);
 *   2. A/B of the service's own storage statement (100 events, new identifiers, this month) and the
 *      forwarder's delivered mark (by id, since the earliest receipt of the batch), alternated A B B A: each statement's latency and the backend's
 *      CPU time per statement (/proc of the PostgreSQL backend, so only the database's work);
 *   3. retention of the oldest month: DETACH + DROP of its partition, timed, then the dead tuples of
 *      the table (pg_stat_user_tables, after vacuum stats flush); with BENCH_AB the same month
 *      deleted row by row from the unpartitioned table, timed, and its dead tuples, for comparison;
 *   4. the outbox of a drained month: BENCH_OUTBOX events (default 100,000) stored by the storage
 *      statement in each of the two months before this one, then delivered by the forwarder's
 *      delivered mark (500 per statement: the events marked, their outbox rows deleted); the dead
 *      tuples and size of each month's outbox partition; the older month VACUUMed (timed, its size
 *      after) for comparison, then the maintenance job's early drop of the drained months' outbox
 *      partitions (timed) and what is left of them.
 * Target: retention of the oldest month under 5 s and no dead tuples; (2) no worse partitioned; (4)
 * nothing left of a drained month's outbox.
 */
const DATABASE = 'wallet_bench_partitions_test';
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const AB = process.env.BENCH_AB !== '0';
const STATEMENTS = Number(process.env.BENCH_STATEMENTS ?? 300);
const BATCH = 100;
const APPS = 20;
const SEED_CHUNK = 500_000;
const TICK_MS = 10;

const appId = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;

function backendCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function seed(ds: DataSource, table: string, from: Date, to: Date): Promise<number> {
  const span = to.getTime() - from.getTime();
  const started = Date.now();
  for (let offset = 0; offset < ROWS; offset += SEED_CHUNK) {
    const n = Math.min(SEED_CHUNK, ROWS - offset);
    await ds.query(
      `INSERT INTO ${table} (id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, delivery_status, delivered_at, created_at)
       SELECT gen_random_uuid(), ('00000000-0000-7000-8000-' || lpad(((g % ${APPS}) + 1)::text, 12, '0'))::uuid,
              '00000000-0000-7000-8000-00000000aaaa', 'calls',
              ('00000000-0000-7000-8001-' || lpad((g % 1000)::text, 12, '0'))::uuid,
              'seed-' || g, '{"calls":"1"}', 1, t, 'sandbox', 'delivered', t, t
       FROM generate_series($1::bigint, $2::bigint) g,
            LATERAL (SELECT $3::timestamptz + (g::float8 / ${ROWS}) * ($4::bigint * interval '1 millisecond') AS t) at`,
      [offset, offset + n - 1, from.toISOString(), span],
    );
  }
  await ds.query(`VACUUM ANALYZE ${table}`);
  return Date.now() - started;
}

async function storeRound(ds: DataSource, table: string, round: number) {
  const runner = ds.createQueryRunner();
  // The storage statement runs as a named prepared statement, as the service runs it (PreparedStatements).
  const client = (await runner.connect()) as {
    query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Array<{ id: string }> }>;
  };
  try {
    const [{ pid }] = (await runner.query('SELECT pg_backend_pid() AS pid')) as Array<{ pid: number }>;
    const sql = storeEventsSql({ events: table, outbox: 'wallet_test.meter_event_outbox' });
    const mark = `UPDATE ${table} SET delivery_status = 'delivered', delivered_at = $2, errors = '[]' WHERE id = ANY($1::uuid[]) AND created_at >= $3::timestamptz`;
    const store: number[] = [];
    const marks: number[] = [];
    const cpuBefore = backendCpuMs(pid);
    for (let s = 0; s < STATEMENTS; s++) {
      const now = new Date();
      const rows: StoreRow[] = Array.from({ length: BATCH }, (_, i) => ({
        id: crypto.randomUUID(),
        applicationId: appId((i % APPS) + 1),
        meterId: '00000000-0000-7000-8000-00000000aaaa',
        eventName: 'calls',
        customerId: '00000000-0000-7000-8001-000000000001',
        identifier: `ab-${table}-${round}-${s}-${i}`,
        payload: { calls: '1' },
        value: '1',
        occurredAt: now,
        provider: 'sandbox',
        createdAt: now,
      }));
      let t0 = performance.now();
      const inserted = (await client.query({ name: `store_${round}`, text: sql, values: storeEventsParams(rows) }))
        .rows;
      store.push(performance.now() - t0);
      if (inserted.length !== BATCH) throw new Error(`${table}: ${inserted.length} of ${BATCH} stored`);
      t0 = performance.now();
      await runner.query(mark, [inserted.map((r) => r.id), now, now]);
      marks.push(performance.now() - t0);
    }
    const cpu = backendCpuMs(pid) - cpuBefore;
    await runner.query('DELETE FROM wallet_test.meter_event_outbox');
    return { store: summarize(store), mark: summarize(marks), cpuPerStatementMs: cpu / STATEMENTS };
  } finally {
    await runner.release();
  }
}

const OUTBOX_ROWS = Number(process.env.BENCH_OUTBOX ?? 100_000);
const OUTBOX_BATCH = 500;

/** Stores OUTBOX_ROWS events received in `month` with the service's storage statement, then delivers them as the forwarder does. */
async function storeAndDeliver(ds: DataSource, month: Date): Promise<{ storeMs: number; deliverMs: number }> {
  const sql = storeEventsSql({ events: 'wallet_test.meter_events', outbox: 'wallet_test.meter_event_outbox' });
  const mark = `WITH marked AS (
      UPDATE wallet_test.meter_events SET delivery_status = 'delivered', delivered_at = $2, errors = '[]'
      WHERE id = ANY($1::uuid[]) AND created_at >= $3::timestamptz
    ), removed AS (
      DELETE FROM wallet_test.meter_event_outbox WHERE event_id = ANY($1::uuid[]) AND created_at >= $3::timestamptz
    ) SELECT 1`;
  const ids: string[] = [];
  let t0 = performance.now();
  for (let n = 0; n < OUTBOX_ROWS; n += OUTBOX_BATCH) {
    const createdAt = new Date(month.getTime() + Math.floor((n / OUTBOX_ROWS) * 27 * 86_400_000));
    const rows: StoreRow[] = Array.from({ length: Math.min(OUTBOX_BATCH, OUTBOX_ROWS - n) }, (_, i) => ({
      id: crypto.randomUUID(),
      applicationId: appId((i % APPS) + 1),
      meterId: '00000000-0000-7000-8000-00000000aaaa',
      eventName: 'calls',
      customerId: '00000000-0000-7000-8001-000000000001',
      identifier: `outbox-${month.toISOString()}-${n + i}`,
      payload: { calls: '1' },
      value: '1',
      occurredAt: createdAt,
      provider: 'sandbox',
      createdAt,
    }));
    await ds.query(sql, storeEventsParams(rows));
    ids.push(...rows.map((r) => r.id));
  }
  const storeMs = performance.now() - t0;
  t0 = performance.now();
  for (let n = 0; n < ids.length; n += OUTBOX_BATCH) {
    await ds.query(mark, [ids.slice(n, n + OUTBOX_BATCH), new Date(), month]);
  }
  return { storeMs: Math.round(storeMs), deliverMs: Math.round(performance.now() - t0) };
}

async function relationBytes(ds: DataSource, name: string): Promise<number> {
  const [{ bytes }] = (await ds.query(`SELECT pg_total_relation_size($1::regclass)::bigint AS bytes`, [
    `wallet_test.${name}`,
  ])) as Array<{ bytes: string }>;
  return Number(bytes);
}

async function outboxOfDrainedMonths(ds: DataSource, now: Date): Promise<Record<string, unknown>> {
  const months = [monthStart(now, -2), monthStart(now, -1)];
  const names = months.map((m) => partitionName('meter_event_outbox', m, 'month'));
  const result: Record<string, unknown> = { eventsPerMonth: OUTBOX_ROWS };
  for (const [i, month] of months.entries()) {
    const timing = await storeAndDeliver(ds, month);
    // The pool's other backends report their deletes to the statistics when idle for a second.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [{ left }] = (await ds.query(`SELECT count(*)::int AS left FROM wallet_test.${names[i]}`)) as Array<{
      left: number;
    }>;
    result[names[i]] = {
      ...timing,
      rowsLeft: left,
      deadTuples: await deadTuples(ds, names[i]),
      bytes: await relationBytes(ds, names[i]),
    };
  }
  const t0 = performance.now();
  await ds.query(`VACUUM wallet_test.${names[0]}`);
  result.vacuumOfOlder = {
    ms: Math.round(performance.now() - t0),
    deadTuplesAfter: await deadTuples(ds, names[0]),
    bytesAfter: await relationBytes(ds, names[0]),
  };
  const t1 = performance.now();
  const dropped = await dropDrainedPartitions(ds.manager, 'wallet_test', METER_EVENTS, monthStart(now));
  const dropMs = performance.now() - t1;
  const [{ present }] = (await ds.query(
    `SELECT count(*) FILTER (WHERE to_regclass('wallet_test.' || n) IS NOT NULL)::int AS present FROM unnest($1::text[]) n`,
    [names],
  )) as Array<{ present: number }>;
  result.earlyDrop = {
    dropped,
    ms: Math.round(dropMs),
    partitionsLeft: present,
    deadTuplesLeft: (await Promise.all(names.map((n) => deadTuples(ds, n)))).reduce((a, b) => a + b, 0),
    eventsKept: Number(
      (
        (await ds.query(
          `SELECT count(*)::bigint AS n FROM wallet_test.meter_events WHERE created_at >= $1 AND created_at < $2`,
          [months[0], monthStart(now)],
        )) as Array<{ n: string }>
      )[0].n,
    ),
  };
  return result;
}

async function deadTuples(ds: DataSource, like: string): Promise<number> {
  await ds.query('SELECT pg_stat_force_next_flush()').catch(() => undefined);
  const [{ dead }] = (await ds.query(
    `SELECT coalesce(sum(n_dead_tup), 0)::bigint AS dead FROM pg_stat_user_tables WHERE schemaname = 'wallet_test' AND relname LIKE $1`,
    [like],
  )) as Array<{ dead: string }>;
  return Number(dead);
}

async function main(): Promise<void> {
  const url = await createDatabase(DATABASE);
  const ds = new DataSource({ type: 'postgres', url, logging: ['error'] });
  await ds.initialize();
  try {
    const now = new Date();
    const first = monthStart(now, -3);
    const end = monthStart(now);
    await ensureMonthPartitions(ds.manager, 'wallet_test', first, monthStart(now, 1));
    const results: Record<string, unknown> = { rows: ROWS, months: 3, statements: STATEMENTS, batch: BATCH };
    console.log(`seeding ${ROWS} meter events over ${first.toISOString()} .. ${end.toISOString()}`);
    results.seedPartitionedMs = await seed(ds, 'wallet_test.meter_events', first, end);
    if (AB) {
      await ds.query(`CREATE TABLE wallet_test.meter_events_flat (
          id uuid PRIMARY KEY, application_id uuid NOT NULL, meter_id uuid NOT NULL, event_name text NOT NULL,
          customer_id uuid NOT NULL, identifier text NOT NULL, payload jsonb NOT NULL, value numeric NOT NULL,
          occurred_at timestamptz NOT NULL, provider text NOT NULL,
          delivery_status text NOT NULL DEFAULT 'pending', delivered_at timestamptz, errors jsonb NOT NULL DEFAULT '[]',
          created_at timestamptz NOT NULL, UNIQUE (application_id, identifier)) WITH (fillfactor = 45)`);
      await ds.query(
        `CREATE INDEX meter_events_flat_summary_idx ON wallet_test.meter_events_flat (application_id, meter_id, customer_id, occurred_at)`,
      );
      results.seedFlatMs = await seed(ds, 'wallet_test.meter_events_flat', first, end);
    }

    const rounds: Array<Record<string, string | number | boolean>> = [];
    const order = AB
      ? [
          'wallet_test.meter_events',
          'wallet_test.meter_events_flat',
          'wallet_test.meter_events_flat',
          'wallet_test.meter_events',
        ]
      : ['wallet_test.meter_events'];
    for (const [round, table] of order.entries()) {
      const r = await storeRound(ds, table, round);
      rounds.push({
        table: table.endsWith('_flat') ? 'unpartitioned' : 'partitioned',
        'store p50 ms': r.store.p50.toFixed(2),
        'store p99 ms': r.store.p99.toFixed(2),
        'mark p50 ms': r.mark.p50.toFixed(2),
        'mark p99 ms': r.mark.p99.toFixed(2),
        'backend CPU ms/statement pair': r.cpuPerStatementMs.toFixed(2),
      });
    }
    printTable(rounds);
    results.rounds = rounds;

    const t0 = performance.now();
    const dropped = await dropPartitionsBefore(ds.manager, 'wallet_test', monthStart(now, -2));
    const retentionMs = performance.now() - t0;
    const left = (await ds.query(`SELECT count(*)::bigint AS n FROM wallet_test.meter_events`)) as Array<{ n: string }>;
    results.retention = {
      dropped,
      ms: Math.round(retentionMs),
      rowsLeft: Number(left[0].n),
      deadTuples: await deadTuples(ds, 'meter_events_y%'),
    };
    if (AB) {
      const t1 = performance.now();
      const deleted = (await ds.query(
        `WITH gone AS (DELETE FROM wallet_test.meter_events_flat WHERE created_at < $1 RETURNING 1) SELECT count(*)::bigint AS n FROM gone`,
        [monthStart(now, -2)],
      )) as Array<{ n: string }>;
      results.rowByRow = {
        deleted: Number(deleted[0].n),
        ms: Math.round(performance.now() - t1),
        deadTuples: await deadTuples(ds, 'meter_events_flat'),
      };
    }
    results.outbox = await outboxOfDrainedMonths(ds, now);
    console.log(
      JSON.stringify({ retention: results.retention, rowByRow: results.rowByRow, outbox: results.outbox }, null, 2),
    );
    console.log(`results: ${writeResults('partitions.json', results)}`);
  } finally {
    await ds.destroy();
    if (process.env.BENCH_KEEP !== '1') await dropDatabase(DATABASE);
  }
}

await main();
