import { execFile, fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  BUILD_ROOT,
  createDatabase,
  dropDatabase,
  meterBenchTenant,
  printTable,
  startServer,
  writeResults,
} from './support.js';

/**
 * `npm run bench:meter`: meter event ingestion on real PostgreSQL, with autocannon as the load
 * generator in its own process, 64 connections:
 *   (a) POST /meter_events, Basic auth, a unique identifier per request, through the whole service;
 *   (b) a bare node:http + pg server doing only the INSERT (bench/baseline-server.ts), same run;
 *   (c) POST /meter_events/batch with 100 events per request;
 *   (b2), for the record only: the bare server running the service's own storage statement (event
 *       and outbox row, same tables and indexes), so (a)/(b2) is the framework's share alone;
 *   (e) POST /meter_events on a meter with `enforce_credit` (one prepaid customer, so all 64
 *       connections contend for its one credit row: the worst case). Measured next to (a) in one
 *       run, alternated A B B A ((a), (e), (e), (a)) so a drift in the machine's load shows as a
 *       difference between the two runs of a case rather than between the cases; each row has the
 *       service's CPU time per request (/proc), and (e) the mean events per enforced transaction
 *       (/metrics: concurrent events of the customer share one). BENCH_METER_ENFORCE=0 leaves (e)
 *       out (then (a) runs once).
 * Targets: (a)/(b) >= 0.6 in events/s with (a) p99 <= 50 ms; (c) >= 3x (b) in events/s.
 */
const run = promisify(execFile);
const DATABASE = 'wallet_bench_meter_test';
const DURATION = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = 64;
const ENFORCE = process.env.BENCH_METER_ENFORCE !== '0';
const AUTOCANNON = join(BUILD_ROOT, '..', '..', 'node_modules', 'autocannon', 'autocannon.js');

interface Load {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(url: string, body: string, headers: Record<string, string>, seconds = DURATION): Promise<Load> {
  const args = [AUTOCANNON, '-c', String(CONNECTIONS), '-d', String(seconds), '-m', 'POST', '-I', '-j', '-b', body];
  for (const [k, v] of Object.entries({ 'content-type': 'application/json', ...headers })) args.push('-H', `${k}=${v}`);
  args.push(url);
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 });
  const result = JSON.parse(stdout.trim().split('\n').pop()!);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** The service's enforced-transaction histogram so far: events carried and transactions. */
async function enforcedTransactions(base: string): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name}\\{mode="test"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return {
    sum: value('wallet_meter_enforced_events_per_transaction_sum'),
    count: value('wallet_meter_enforced_events_per_transaction_count'),
  };
}

async function main(): Promise<void> {
  const url = await createDatabase(DATABASE);
  const server = await startServer(url, 3810);
  const baseline = fork(join(BUILD_ROOT, 'bench', 'baseline-server.js'), [url, '3811'], { stdio: 'inherit' });
  await new Promise<void>((resolve) => baseline.once('message', () => resolve()));
  try {
    const { api, headers, customerId, meterId, event, prepaid } = await meterBenchTenant(url, server.base);
    const single = JSON.stringify(event('[<id>]'));
    const enforcedSingle = ENFORCE ? JSON.stringify((await prepaid())('[<id>]')) : null;
    /** A load on the service with the service's CPU time per request (ms). */
    const measured = async (body: string) => {
      const before = server.cpuMs();
      const result = await load(`${api}/meter_events`, body, headers);
      const requests = result.requestsPerSecond * DURATION;
      return { ...result, cpuMsPerRequest: requests > 0 ? (server.cpuMs() - before) / requests : 0 };
    };
    /** (e) with the mean events per enforced transaction during its load, from the service's /metrics. */
    const measuredEnforced = async (body: string) => {
      const before = await enforcedTransactions(server.base);
      const result = await measured(body);
      const after = await enforcedTransactions(server.base);
      const transactions = after.count - before.count;
      return { ...result, eventsPerTransaction: transactions > 0 ? (after.sum - before.sum) / transactions : 0 };
    };
    const batch = JSON.stringify({ events: Array.from({ length: 100 }, (_, i) => event(`[<id>]-${i}`)) });

    // Warm both servers (JIT, caches, pools) before measuring.
    await load(`${api}/meter_events`, single, headers, 3);
    if (enforcedSingle) await load(`${api}/meter_events`, enforcedSingle, headers, 3);
    await load('http://127.0.0.1:3811/', single, {}, 3);

    // A B B A: without, with, with, without enforcement.
    const a = [await measured(single)];
    const e: Array<Awaited<ReturnType<typeof measuredEnforced>>> = [];
    if (enforcedSingle) {
      e.push(await measuredEnforced(enforcedSingle), await measuredEnforced(enforcedSingle));
      a.push(await measured(single));
    }
    const b = await load('http://127.0.0.1:3811/', single, {});
    const c = await load(`${api}/meter_events/batch`, batch, headers);

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const appId = (await db.query(`SELECT id FROM platform.applications WHERE slug = 'bench'`)).rows[0].id as string;
    await db.end();
    const serviceInsert = fork(
      join(BUILD_ROOT, 'bench', 'baseline-server.js'),
      [url, '3812', appId, meterId, customerId],
      { stdio: 'inherit' },
    );
    await new Promise<void>((resolve) => serviceInsert.once('message', () => resolve()));
    let b2: Load;
    try {
      await load('http://127.0.0.1:3812/', single, {}, 3);
      b2 = await load('http://127.0.0.1:3812/', single, {});
    } finally {
      serviceInsert.kill('SIGTERM');
    }
    const serviceRow = (run: string, r: (typeof a)[number], perTransaction?: number) => ({
      run,
      events_per_s: Math.round(r.requestsPerSecond),
      p50_ms: r.p50,
      p99_ms: r.p99,
      non_2xx: r.non2xx,
      cpu_ms_per_request: Number(r.cpuMsPerRequest.toFixed(3)),
      events_per_transaction: perTransaction === undefined ? '-' : Number(perTransaction.toFixed(1)),
    });
    const bareRow = (run: string, r: Load, events = 1) => ({
      run,
      events_per_s: Math.round(r.requestsPerSecond * events),
      p50_ms: r.p50,
      p99_ms: r.p99,
      non_2xx: r.non2xx,
      cpu_ms_per_request: '-',
      events_per_transaction: '-',
    });
    const rows: Array<Record<string, string | number | boolean>> = [
      serviceRow(e.length ? '(a) POST /meter_events [A1]' : '(a) POST /meter_events', a[0]),
      ...e.map((r, i) => serviceRow(`(e) POST /meter_events, enforce_credit [B${i + 1}]`, r, r.eventsPerTransaction)),
      ...(a[1] ? [serviceRow('(a) POST /meter_events [A2]', a[1])] : []),
      bareRow('(b) bare node:http + pg', b),
      bareRow('(b2) bare node:http + pg, the service INSERT', b2),
      bareRow('(c) batches of 100', c, 100),
    ];
    printTable(rows);
    const mean = (runs: Array<{ requestsPerSecond: number }>) =>
      runs.reduce((sum, r) => sum + r.requestsPerSecond, 0) / runs.length;
    const ratio = mean(a) / b.requestsPerSecond;
    const batchRatio = (c.requestsPerSecond * 100) / b.requestsPerSecond;
    const frameworkRatio = mean(a) / b2.requestsPerSecond;
    const aP99 = Math.max(...a.map((r) => r.p99));
    console.log(
      `(a)/(b) = ${ratio.toFixed(2)} (target >= 0.6), (a) p99 = ${aP99} ms (target <= 50), (c)/(b) = ${batchRatio.toFixed(2)} (target >= 3); (a)/(b2) = ${frameworkRatio.toFixed(2)} (for the record)`,
    );
    const enforcement = e.length
      ? {
          events_per_s: {
            without: Math.round(mean(a)),
            with: Math.round(mean(e)),
            ratio: Number((mean(e) / mean(a)).toFixed(3)),
          },
          p99_ms: { without: a.map((r) => r.p99), with: e.map((r) => r.p99) },
          cpu_ms_per_request: {
            without: a.map((r) => Number(r.cpuMsPerRequest.toFixed(3))),
            with: e.map((r) => Number(r.cpuMsPerRequest.toFixed(3))),
          },
        }
      : null;
    const path = writeResults('meter.json', {
      measured_at: new Date().toISOString(),
      load_average: loadavg().map((l) => Number(l.toFixed(2))),
      connections: CONNECTIONS,
      seconds: DURATION,
      order: e.length ? 'A B B A: (a), (e), (e), (a)' : '(a)',
      results: rows,
      enforcement,
      ratio_a_b: Number(ratio.toFixed(3)),
      ratio_c_b: Number(batchRatio.toFixed(3)),
      ratio_a_b2: Number(frameworkRatio.toFixed(3)),
      targets: { ratio_a_b: 0.6, a_p99_ms: 50, ratio_c_b: 3 },
      met: { ratio_a_b: ratio >= 0.6, a_p99: aP99 <= 50, ratio_c_b: batchRatio >= 3 },
    });
    if (enforcement) {
      console.log(
        `enforce_credit, A B B A: ${enforcement.events_per_s.with} events/s with against ${enforcement.events_per_s.without} without; p99 ${enforcement.p99_ms.with.join('/')} ms with against ${enforcement.p99_ms.without.join('/')} ms without; CPU ${enforcement.cpu_ms_per_request.with.join('/')} ms/request with against ${enforcement.cpu_ms_per_request.without.join('/')} without`,
      );
    }
    console.log(
      `load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(`written to ${path}`);
  } finally {
    baseline.kill('SIGTERM');
    await server.stop();
    await dropDatabase(DATABASE);
  }
}

await main();
