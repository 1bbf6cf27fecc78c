import { execFile, fork } from 'node:child_process';
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
 *       connections contend for its one credit row: the worst case), measured right after (a) for
 *       ingestion p99 with enforcement next to without, with the service's CPU time per request of
 *       both (/proc). BENCH_METER_ENFORCE=0 leaves (e) out.
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
    const batch = JSON.stringify({ events: Array.from({ length: 100 }, (_, i) => event(`[<id>]-${i}`)) });

    // Warm both servers (JIT, caches, pools) before measuring.
    await load(`${api}/meter_events`, single, headers, 3);
    if (enforcedSingle) await load(`${api}/meter_events`, enforcedSingle, headers, 3);
    await load('http://127.0.0.1:3811/', single, {}, 3);

    const a = await measured(single);
    const e = enforcedSingle ? await measured(enforcedSingle) : null;
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
    const rows: Array<Record<string, string | number | boolean>> = [
      {
        run: '(a) POST /meter_events',
        events_per_s: Math.round(a.requestsPerSecond),
        p50_ms: a.p50,
        p99_ms: a.p99,
        non_2xx: a.non2xx,
        cpu_ms_per_request: Number(a.cpuMsPerRequest.toFixed(3)),
      },
      ...(e
        ? [
            {
              run: '(e) POST /meter_events, enforce_credit',
              events_per_s: Math.round(e.requestsPerSecond),
              p50_ms: e.p50,
              p99_ms: e.p99,
              non_2xx: e.non2xx,
              cpu_ms_per_request: Number(e.cpuMsPerRequest.toFixed(3)),
            },
          ]
        : []),
      {
        run: '(b) bare node:http + pg',
        events_per_s: Math.round(b.requestsPerSecond),
        p50_ms: b.p50,
        p99_ms: b.p99,
        non_2xx: b.non2xx,
        cpu_ms_per_request: '-',
      },
      {
        run: '(b2) bare node:http + pg, the service INSERT',
        events_per_s: Math.round(b2.requestsPerSecond),
        p50_ms: b2.p50,
        p99_ms: b2.p99,
        non_2xx: b2.non2xx,
        cpu_ms_per_request: '-',
      },
      {
        run: '(c) batches of 100',
        events_per_s: Math.round(c.requestsPerSecond * 100),
        p50_ms: c.p50,
        p99_ms: c.p99,
        non_2xx: c.non2xx,
        cpu_ms_per_request: '-',
      },
    ];
    printTable(rows);
    const ratio = a.requestsPerSecond / b.requestsPerSecond;
    const batchRatio = (c.requestsPerSecond * 100) / b.requestsPerSecond;
    const frameworkRatio = a.requestsPerSecond / b2.requestsPerSecond;
    console.log(
      `(a)/(b) = ${ratio.toFixed(2)} (target >= 0.6), (a) p99 = ${a.p99} ms (target <= 50), (c)/(b) = ${batchRatio.toFixed(2)} (target >= 3); (a)/(b2) = ${frameworkRatio.toFixed(2)} (for the record)`,
    );
    const path = writeResults('meter.json', {
      measured_at: new Date().toISOString(),
      connections: CONNECTIONS,
      seconds: DURATION,
      results: rows,
      ratio_a_b: Number(ratio.toFixed(3)),
      ratio_c_b: Number(batchRatio.toFixed(3)),
      ratio_a_b2: Number(frameworkRatio.toFixed(3)),
      targets: { ratio_a_b: 0.6, a_p99_ms: 50, ratio_c_b: 3 },
      met: { ratio_a_b: ratio >= 0.6, a_p99: a.p99 <= 50, ratio_c_b: batchRatio >= 3 },
    });
    if (e)
      console.log(
        `(e) enforce_credit: p99 ${e.p99} ms against ${a.p99} ms without; CPU ${e.cpuMsPerRequest.toFixed(3)} ms/request against ${a.cpuMsPerRequest.toFixed(3)}`,
      );
    console.log(`written to ${path}`);
  } finally {
    baseline.kill('SIGTERM');
    await server.stop();
    await dropDatabase(DATABASE);
  }
}

await main();
