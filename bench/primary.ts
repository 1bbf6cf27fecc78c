import { execFile } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { PostgresServer, postgresBinaries } from '../test/support/postgres-cluster.js';

/**
 * `npm run bench:primary`: what one PostgreSQL primary pays per operation of the service, the
 * figures docs/SCALING.md scales to a stated machine. The service (this build) runs against a
 * PostgreSQL cluster of its own, made for the run with the machine's `initdb` and `pg_ctl` (so no
 * other database's work is counted), and for each operation a fixed number of them is driven:
 *
 * - `meter_event`: single-event `POST /meter_events` (BENCH_PRIMARY_EVENTS, 12,000; 16 connections);
 * - `payment`: a PromptPay payment in test mode, from nothing to paid (`POST /payment_intents`,
 *   `POST /checkouts`, the buyer's `confirm`, `pay_promptpay`): one charge, its journals, its
 *   events (BENCH_PRIMARY_PAYMENTS, 300; 8 at once);
 * - `list`: `GET /balance_transactions?limit=10` (BENCH_PRIMARY_READS, 6,000; 16 connections).
 *
 * Per operation it reports the cluster's CPU time (user + system of the postmaster and every child:
 * backends, WAL writer, checkpointer, from /proc), the WAL it wrote (`pg_current_wal_lsn()`
 * before and after, the cluster's own), and the service's CPU. CPU time and WAL bytes per
 * operation depend little on what else runs on the machine, unlike throughput; both are printed
 * with the load average. Jobs run in the service (RUN_JOBS=true) so the outbox forwarding of meter
 * events and the events' work are counted as the primary sees them in production; what the cluster
 * and the service spend idle (the jobs' polling, measured for BENCH_PRIMARY_IDLE_MS before each) is
 * taken off each operation for the time it ran.
 */
const run = promisify(execFile);
const EVENTS = Number(process.env.BENCH_PRIMARY_EVENTS ?? 12000);
const PAYMENTS = Number(process.env.BENCH_PRIMARY_PAYMENTS ?? 300);
const READS = Number(process.env.BENCH_PRIMARY_READS ?? 6000);
const PORT = Number(process.env.BENCH_PORT ?? 3890);
const IDLE_MS = Number(process.env.BENCH_PRIMARY_IDLE_MS ?? 8_000);

/**
 * The cluster for the run: this machine's binaries, production's durability (every commit waits
 * for its WAL flush: fsync, full-page writes, synchronous_commit on), and autovacuum off so that
 * its runs do not fall into one operation's window and not another's.
 */
async function startCluster(): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL server binaries (initdb, pg_ctl) on this machine; set PG_BIN');
  return PostgresServer.alone(bin, {
    fsync: 'on',
    full_page_writes: 'on',
    max_connections: '200',
    shared_buffers: "'512MB'",
    shared_preload_libraries: "'pg_stat_statements'",
    'pg_stat_statements.track': 'all',
    autovacuum: 'off',
  });
}

async function main(): Promise<void> {
  const cluster = await startCluster();
  process.env.BENCH_DATABASE_SERVER = cluster.url('').replace(/\/$/, '');
  // Imported once the cluster is known: support.ts reads BENCH_DATABASE_SERVER when it loads.
  const support = await import('./support.js');
  /** The cluster's CPU so far: the postmaster's own, its exited children's (a closed connection's backend), the living children's. */
  const clusterCpuMs = () => {
    let ms = support.processCpuMs(cluster.pid, { reaped: true });
    for (const pid of cluster.children()) {
      try {
        ms += support.processCpuMs(pid);
      } catch {
        // Exited meanwhile: its time is the postmaster's reaped children's from now on.
      }
    }
    return ms;
  };
  const admin = new pg.Client({ connectionString: cluster.url() });
  let server: Awaited<ReturnType<typeof support.startServer>> | undefined;
  try {
    await admin.connect();
    const url = await support.createDatabase('wallet_bench_primary_test');
    server = await support.startServer(url, PORT, { RUN_JOBS: 'true', LOG_LEVEL: 'warn', DB_POOL_SIZE: '10' });
    const tenant = await support.meterBenchTenant(url, server.base);
    const autocannon = join(support.BUILD_ROOT, '..', '..', 'node_modules', 'autocannon', 'autocannon.js');
    const headers = { ...tenant.headers, 'content-type': 'application/json' };
    const walLsn = async () =>
      BigInt(
        (await admin.query<{ b: string }>(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS b`)).rows[0].b,
      );

    // What the cluster and the service spend doing nothing but the jobs' polling, per second, measured
    // right before each operation: taken off its figures for the time it ran (so a slow machine,
    // which stretches that time, does not inflate them).
    const idle = { pg: 0, service: 0 };
    const measureIdle = async () => {
      await admin.query('CHECKPOINT');
      const pg0 = clusterCpuMs();
      const svc0 = server!.cpuMs();
      const t0 = performance.now();
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const seconds = (performance.now() - t0) / 1000;
      idle.pg = (clusterCpuMs() - pg0) / seconds;
      idle.service = (server!.cpuMs() - svc0) / seconds;
    };
    // The statements that cost the cluster most per operation (pg_stat_statements, this database's).
    const statements = new pg.Client({ connectionString: url });
    await statements.connect();
    await statements.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const topStatements = async (count: number) =>
      (
        await statements.query<{ query: string; calls: string; ms: string; wal: string }>(
          `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query, calls::text,
                  round((total_exec_time / $1)::numeric, 3)::text AS ms, round((wal_bytes / $1)::numeric)::text AS wal
             FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
            ORDER BY total_exec_time DESC LIMIT 8`,
          [count],
        )
      ).rows.map((r) => ({
        exec_ms_per_op: Number(r.ms),
        wal_bytes_per_op: Number(r.wal),
        calls: Number(r.calls),
        query: r.query,
      }));
    const measure = async (name: string, count: number, drive: () => Promise<void>) => {
      await measureIdle();
      await statements.query('SELECT pg_stat_statements_reset()');
      await admin.query('CHECKPOINT'); // a checkpoint's full-page images count against the next writes alike
      const wal0 = await walLsn();
      const pg0 = clusterCpuMs();
      const svc0 = server!.cpuMs();
      const t0 = performance.now();
      await drive();
      const seconds = (performance.now() - t0) / 1000;
      const wal = Number((await walLsn()) - wal0);
      idleRates.push({ postgres: Math.round(idle.pg), service: Math.round(idle.service) });
      const pgMs = Math.max(0, clusterCpuMs() - pg0 - idle.pg * seconds);
      const serviceMs = Math.max(0, server!.cpuMs() - svc0 - idle.service * seconds);
      return {
        operation: name,
        count,
        postgres_cpu_us_per_op: Math.round((pgMs * 1000) / count),
        wal_bytes_per_op: Math.round(wal / count),
        service_cpu_us_per_op: Math.round((serviceMs * 1000) / count),
        seconds: Math.round(seconds * 10) / 10,
        top_statements: await topStatements(count),
      };
    };
    const cannon = async (count: number, connections: number, args: string[]) => {
      const { stdout } = await run(
        process.execPath,
        [autocannon, '-c', String(connections), '-a', String(count), '-j', ...args],
        { maxBuffer: 64 * 1024 * 1024 },
      );
      const result = JSON.parse(stdout.trim().split('\n').pop()!);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
    };
    const headerArgs = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
    const meterEvents = (count: number, tag: string) =>
      cannon(count, 16, [
        '-I',
        '-m',
        'POST',
        '-b',
        JSON.stringify(tenant.event(`${tag}-[<id>]`)),
        ...headerArgs,
        `${tenant.api}/meter_events`,
      ]);
    const call = async (method: string, path: string, body?: object, as: Record<string, string> = headers) => {
      const res = await fetch(`${tenant.api}${path}`, {
        method,
        headers: as,
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string; session: string };
    };
    const payment = async () => {
      const intent = await call('POST', '/payment_intents', { amount: 125000, currency: 'THB' });
      const checkout = await call('POST', '/checkouts', { target_type: 'payment_intent', target_id: intent.id });
      await call(
        'POST',
        `/checkouts/${checkout.id}/confirm`,
        { payment_method_type: 'promptpay' },
        { 'content-type': 'application/json', 'x-session-token': checkout.session, 'x-country': 'TH' },
      );
      await call('POST', `/test_helpers/checkouts/${checkout.id}/pay_promptpay`);
    };
    const payments = async (count: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < count) {
            next += 1;
            await payment();
          }
        }),
      );
    };

    // Warm-up: JIT, pools, caches and the tables' first pages.
    await meterEvents(2000, 'warm');
    await payments(50);
    const idleRates: Array<{ postgres: number; service: number }> = [];
    const results = [
      await measure('meter_event', EVENTS, () => meterEvents(EVENTS, 'run')),
      await measure('payment', PAYMENTS, () => payments(PAYMENTS)),
      await measure('list', READS, () =>
        cannon(READS, 16, [...headerArgs, `${tenant.api}/balance_transactions?limit=10`]),
      ),
    ];
    // What a meter event keeps on disk (heap, TOAST and indexes of the table and of its monthly
    // partitions; the outbox rows are gone once forwarded).
    const [stored] = (
      await statements.query<{ bytes: string; n: string }>(
        `SELECT (pg_total_relation_size('wallet_test.meter_events') + COALESCE((SELECT sum(pg_total_relation_size(inhrelid))
                   FROM pg_inherits WHERE inhparent = 'wallet_test.meter_events'::regclass), 0))::text AS bytes,
                (SELECT count(*) FROM wallet_test.meter_events)::text AS n`,
      )
    ).rows;
    const meterEventBytes = Math.round(Number(stored.bytes) / Number(stored.n));
    console.log(`meter events on disk: ${meterEventBytes} bytes each (${stored.n} events, with indexes)`);
    support.printTable(results.map(({ top_statements: _, ...row }) => row));
    for (const r of results) {
      console.log(`\n${r.operation}: top statements (execution time and WAL per operation)`);
      support.printTable(r.top_statements);
    }
    const report = {
      benchmark: 'primary',
      measured_at: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model,
        load_average: loadavg()
          .map((l) => l.toFixed(2))
          .join(' '),
      },
      postgres: (await admin.query<{ v: string }>('SHOW server_version')).rows[0].v,
      idle_cpu_ms_per_s_before_each: idleRates,
      meter_event_bytes_on_disk: meterEventBytes,
      note: 'a PostgreSQL cluster of its own for the run; CPU of the postmaster and all its children; WAL from pg_current_wal_lsn(); the service with RUN_JOBS=true, LOG_LEVEL=warn; idle CPU (job polling) taken off per second of each operation',
      results,
    };
    if (process.env.BENCH_SAVE === '1') console.log(`written ${support.writeResults('primary.json', report)}`);
    else console.log(JSON.stringify(report));
    await statements.end();
  } finally {
    await server?.stop();
    await admin.end().catch(() => undefined);
    cluster.destroy();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
