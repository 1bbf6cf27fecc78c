import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BUILD_ROOT, printTable, processCpuMs, summarize, writeResults } from './support.js';

/**
 * `node dist/bench-build/bench/meter-cpu.js [ROOT_A ROOT_B ...]`: the service's CPU time per
 * single-event `POST /meter_events`, A/B across builds, counted from /proc (user + system time of the
 * service process) over a fixed number of requests. CPU per request is what a busy, shared machine
 * changes least, so builds compare fairly in one run even under other load; throughput and
 * autocannon's p99 latency per round (ms, the closed loop of BENCH_CONNECTIONS) are printed beside it.
 *
 * Each ROOT is a `dist/bench-build` directory (default: this build only). Each gets its own database,
 * migrated by its own code, its own service process, and the `bench` tenant made with its own CLI.
 * Rounds alternate A B B A ... so drift in the machine's load hits every build alike.
 *
 * The ROOT `bare` is the bare reference server (bench/baseline-server.ts of this build: node:http and
 * pg, one INSERT per request) measured as one more build: its own database on the same PostgreSQL,
 * the same request body and headers, the same rounds. Each other build's CPU is then also printed as
 * a ratio to it (per round, and the median of the per-round ratios).
 *
 * The service runs as the API pod runs in Kubernetes (deploy/kubernetes/base): LOG_LEVEL=info (one
 * access line per request), RUN_JOBS=false (jobs in the worker), NODE_ENV=production, DB_POOL_SIZE
 * (10 there) from the environment or 10.
 * Knobs: BENCH_REQUESTS (per round, 4000), BENCH_ROUNDS (6), BENCH_CONNECTIONS (16), BENCH_WARMUP,
 * BENCH_TAG and BENCH_PORT (two runs at once), BENCH_CALLGRIND, BENCH_LOG_LEVEL (info), BENCH_RUN_JOBS
 * (false), BENCH_SERVER_NODE_ARGS, BENCH_SAVE=1 (write bench/results/meter-cpu.json), BENCH_IDEMPOTENCY=1
 * (every meter event carries its own `Idempotency-Key`: the key's claim and answer are measured too).
 */
const run = promisify(execFile);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const AUTOCANNON = join(BUILD_ROOT, '..', '..', 'node_modules', 'autocannon', 'autocannon.js');
const CALLGRIND = process.env.BENCH_CALLGRIND === '1';
const TAG = (process.env.BENCH_TAG ?? '').replace(/[^a-z]/g, '');
const PORT = Number(process.env.BENCH_PORT ?? 3830);
/** BENCH_GET=<path>: measure `GET <wallet base><path>` (e.g. `/customers?use-cursor=true`) instead of single meter events. */
const GET = process.env.BENCH_GET;
/** BENCH_CUSTOMERS: customers created before measuring (list pages to read with BENCH_GET). */
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1);
/** The service's configuration: the API pod's (deploy/kubernetes/base) unless overridden. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const RUN_JOBS = process.env.BENCH_RUN_JOBS ?? 'false';
const BARE = 'bare';
/** BENCH_IDEMPOTENCY=1: each meter event with a new `Idempotency-Key` (a first request: claimed, then answered). */
const IDEMPOTENCY = process.env.BENCH_IDEMPOTENCY === '1';

/**
 * `callgrind_control <args> <pid>`, probing the service at `origin` meanwhile: a served service idles
 * in epoll_wait, where valgrind does not hear the command until something wakes the process.
 */
async function callgrindControl(pid: number, args: string[], origin: string): Promise<{ stdout: string }> {
  let done = false;
  // vgdb (which callgrind_control speaks through) finds the process by files named after $HOST: the
  // service's HOST (its listen address) must be the one vgdb sees, or every command answers "OK" and
  // is never delivered.
  const env = { ...process.env, HOST: vgdbHost.get(pid) ?? '' };
  const asked = run('callgrind_control', [...args, String(pid)], { env }).finally(() => (done = true));
  while (!done) {
    await fetch(`${origin}/healthz`).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
  }
  return asked;
}

/** The HOST each process under valgrind was started with (vgdb's file names carry it). */
const vgdbHost = new Map<number, string>();

/** Instructions the service ran since the counters were last zeroed (callgrind), then zeroed again. */
async function instructions(pid: number, origin: string): Promise<number> {
  const pattern = `/tmp/meter-cpu-callgrind.*.${pid}.*`;
  const newest = async () =>
    (await run('sh', ['-c', `ls -v ${pattern} 2>/dev/null | tail -1`]).catch(() => ({ stdout: '' }))).stdout.trim();
  const previous = await newest();
  let output = '';
  // The dump request waits for the service to reach valgrind's scheduler; retry until a new dump file appears.
  for (let attempt = 0; attempt < 180; attempt++) {
    output = (await callgrindControl(pid, ['-d'], origin).catch((err: { stdout?: string }) => err)).stdout ?? '';
    const file = await newest();
    if (file && file !== previous) {
      const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'));
      await callgrindControl(pid, ['-z'], origin);
      return Number(totals?.[1] ?? NaN);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`callgrind_control -d ${pid} wrote no dump: ${output}`);
}

interface Target {
  label: string;
  root: string;
  database: string;
  child: ChildProcess;
  api: string;
  headers: Record<string, string>;
  body: string;
  stop(): Promise<void>;
}

const cpuMs = processCpuMs;

async function start(label: string, root: string, index: number): Promise<Target> {
  const support = (await import(
    join(root === BARE ? BUILD_ROOT : root, 'bench', 'support.js')
  )) as typeof import('./support.js');
  // BENCH_TAG (lower-case letters) and BENCH_PORT keep two runs at once apart (databases and ports).
  const database = `wallet_bench_cpu${TAG}${'abcdefgh'[index]}_test`;
  const url = await support.createDatabase(database);
  const port = PORT + index;
  // BENCH_SERVER_NODE_ARGS: extra node flags for the services, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // BENCH_CALLGRIND=1: the service runs under `valgrind --tool=callgrind` and a round counts the
  // instructions it executed (callgrind_control zeroes and dumps the counters), which no other load
  // on the machine changes.
  const command = CALLGRIND ? 'valgrind' : process.execPath;
  const prefix = CALLGRIND
    ? [
        '--tool=callgrind',
        // Boot uninstrumented (several times faster under valgrind); counting starts once it serves.
        '--instr-atstart=no',
        `--callgrind-out-file=/tmp/meter-cpu-callgrind.${label}.%p`,
        process.execPath,
      ]
    : [];
  const instrument = async (child: ChildProcess, host: string) => {
    vgdbHost.set(child.pid!, host);
    if (CALLGRIND) await callgrindControl(child.pid!, ['-i', 'on'], base);
  };
  const base = `http://127.0.0.1:${port}`;
  const waitUntilServing = async (child: ChildProcess, ready: (res: Response) => boolean) => {
    for (let i = 0; i < (CALLGRIND ? 12_000 : 600); i++) {
      if (child.exitCode !== null) throw new Error(`${label}: server exited with ${child.exitCode}`);
      try {
        if (ready(await fetch(`${base}/readyz`))) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${label}: not serving on ${base}`);
  };
  const stopChild = async (child: ChildProcess) => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    await support.dropDatabase(database);
  };
  const headers = {
    authorization: `Basic ${Buffer.from('sk_test_bench:').toString('base64')}`,
    'x-test-mode': 'true',
    'x-country': 'TH',
  };
  if (root === BARE) {
    // The bare server of this build; it answers any path, and anything but a JSON body with a 400.
    const bareArgs = [url, String(port)];
    const child = spawn(command, [...prefix, join(BUILD_ROOT, 'bench', 'baseline-server.js'), ...bareArgs], {
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitUntilServing(child, () => true);
    await instrument(child, process.env.HOST ?? '');
    const api = `${base}/api/v1/bench/platform/wallet`;
    return {
      label,
      root,
      database,
      child,
      api,
      headers,
      body: JSON.stringify({
        event_name: 'api_call',
        customer_id: '00000000-0000-7000-8000-000000000000',
        payload: { calls: '1' },
        identifier: `${label}-[<id>]`,
      }),
      stop: () => stopChild(child),
    };
  }
  const child = spawn(command, [...prefix, ...nodeArgs, join(root, 'src', 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT: '0',
      LOG_LEVEL,
      RUN_JOBS,
      DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '10',
      NODE_ENV: 'production',
    },
    // The access log (LOG_LEVEL info) is written as in production, to a pipe nobody reads but /dev/null.
    stdio: ['ignore', ['info', 'debug', 'trace'].includes(LOG_LEVEL) ? 'ignore' : 'inherit', 'inherit'],
  });
  await waitUntilServing(child, (res) => res.ok);
  await instrument(child, '127.0.0.1');
  const env = { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'error', RUN_JOBS: 'false' };
  const { stdout } = await run(
    process.execPath,
    [join(root, 'src', 'cli', 'main.js'), 'apps:create', '--slug', 'bench', '--countries', 'TH', '--json'],
    { env },
  );
  const key: string = JSON.parse(stdout).keys.test;
  headers.authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  const api = `${base}/api/v1/bench/platform/wallet`;
  const post = async (path: string, body: object) => {
    const res = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${label} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const customer = await post('/customers', { name: 'Bench' });
  for (let i = 1; i < CUSTOMERS; i++) await post('/customers', { name: `Bench ${i}`, email: `bench${i}@example.com` });
  await post('/meters', {
    display_name: 'API calls',
    event_name: 'api_call',
    value_settings: { event_payload_key: 'calls' },
  });
  const body = JSON.stringify({
    event_name: 'api_call',
    customer_id: customer.id,
    payload: { calls: '1' },
    identifier: `${label}-[<id>]`,
  });
  return {
    label,
    root,
    database,
    child,
    api,
    headers,
    body,
    stop: () => stopChild(child),
  };
}

async function round(t: Target, requests: number): Promise<{ cpuPerRequest: number; rps: number; p99: number }> {
  // Under callgrind a request takes seconds: autocannon's 10 s timeout would count it as an error.
  const args = [
    AUTOCANNON,
    '-c',
    String(CONNECTIONS),
    '-a',
    String(requests),
    '-I',
    '-j',
    '-t',
    CALLGRIND ? '600' : '10',
  ];
  if (GET === undefined) {
    args.push('-m', 'POST', '-b', t.body);
    // autocannon's argument parser takes a value ending in `]` for the end of a sub-argument list.
    const keyed = IDEMPOTENCY ? { 'idempotency-key': `bench-[<id>]-k` } : {};
    for (const [k, v] of Object.entries({ 'content-type': 'application/json', ...t.headers, ...keyed }))
      args.push('-H', `${k}=${v}`);
    args.push(`${t.api}/meter_events`);
  } else {
    for (const [k, v] of Object.entries(t.headers)) args.push('-H', `${k}=${v}`);
    args.push(`${t.api}${GET}`);
  }
  const origin = new URL(t.api).origin;
  if (CALLGRIND) await callgrindControl(t.child.pid!, ['-z'], origin);
  const before = cpuMs(t.child.pid!);
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 });
  const after = CALLGRIND ? before + (await instructions(t.child.pid!, origin)) / 1000 : cpuMs(t.child.pid!);
  const result = JSON.parse(stdout.trim().split('\n').pop()!);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${t.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { cpuPerRequest: (after - before) / requests, rps: result.requests.average, p99: result.latency.p99 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

async function main(): Promise<void> {
  const roots = process.argv.length > 2 ? process.argv.slice(2) : [BUILD_ROOT];
  if (GET !== undefined && roots.includes(BARE)) throw new Error('the bare server answers POST /meter_events only');
  const targets: Target[] = [];
  try {
    const started = await Promise.allSettled(roots.map((root, i) => start('ABCDEFGH'[i], root, i)));
    for (const s of started) if (s.status === 'fulfilled') targets.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    // Warm-up (JIT, pools, caches), all builds at once.
    await Promise.all(targets.map((t) => round(t, Number(process.env.BENCH_WARMUP ?? Math.max(2000, REQUESTS)))));
    const cpu = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    const rps = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    const p99 = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? targets : [...targets].reverse();
      // Under callgrind the counts do not depend on what else runs, so all builds run at once.
      const measured = CALLGRIND
        ? await Promise.all(order.map((t) => round(t, REQUESTS)))
        : await order.reduce<Promise<Array<{ cpuPerRequest: number; rps: number; p99: number }>>>(
            async (done, t) => [...(await done), await round(t, REQUESTS)],
            Promise.resolve([]),
          );
      for (const [i, t] of order.entries()) {
        const m = measured[i];
        cpu.get(t.label)!.push(m.cpuPerRequest * 1000);
        rps.get(t.label)!.push(m.rps);
        p99.get(t.label)!.push(m.p99);
      }
    }
    const rows = targets.map((t) => {
      const c = summarize(cpu.get(t.label)!);
      const sorted = [...cpu.get(t.label)!].sort((a, b) => a - b);
      return {
        build: `${t.label} ${t.root}`,
        per_request_median: Math.round(median(sorted)),
        min: Math.round(sorted[0]),
        max: Math.round(c.max),
        rps_median: Math.round([...rps.get(t.label)!].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]),
        // Latency under the closed loop of BENCH_CONNECTIONS (autocannon's p99 per round, ms).
        p99_ms_median: median(p99.get(t.label)!),
        p99_ms_rounds: p99.get(t.label)!.join(' '),
      };
    });
    printTable(rows);
    console.log(
      `${CALLGRIND ? 'instructions' : 'CPU µs'} per request (${GET ? `GET ${GET}` : 'single meter events'}); ${ROUNDS} rounds x ${REQUESTS} requests, ${CONNECTIONS} connections, alternating ABBA`,
    );
    for (const t of targets)
      console.log(
        t.label,
        cpu
          .get(t.label)!
          .map((x) => Math.round(x))
          .join(' '),
      );
    const bare = targets.find((t) => t.root === BARE);
    const ratios: Record<string, { median: number; rounds: number[] }> = {};
    if (bare) {
      const bareCpu = cpu.get(bare.label)!;
      for (const t of targets) {
        if (t === bare) continue;
        const perRound = cpu.get(t.label)!.map((x, r) => x / bareCpu[r]);
        ratios[t.label] = { median: round2(median(perRound)), rounds: perRound.map(round2) };
        console.log(
          `${t.label}/bare: median ${ratios[t.label].median.toFixed(2)} (per round ${ratios[t.label].rounds.map((x) => x.toFixed(2)).join(' ')})`,
        );
      }
    }
    if (process.env.BENCH_SAVE === '1') {
      const path = writeResults('meter-cpu.json', {
        date: new Date().toISOString(),
        unit: CALLGRIND ? 'instructions per request' : 'CPU µs per request (user + system, /proc)',
        what: GET ? `GET ${GET}` : 'single-event POST /meter_events',
        service_config: { LOG_LEVEL, RUN_JOBS, NODE_ENV: 'production', DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '10' },
        rounds: ROUNDS,
        requests_per_round: REQUESTS,
        connections: CONNECTIONS,
        load_average_at_end: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
        builds: targets.map((t) => ({
          label: t.label,
          build: t.root === BARE ? 'bare (bench/baseline-server.ts: node:http + pg, one INSERT)' : t.root,
          median: round2(median(cpu.get(t.label)!)),
          per_round: cpu.get(t.label)!.map(round2),
          rps_per_round: rps.get(t.label)!.map(Math.round),
          ...(ratios[t.label] ? { ratio_to_bare: ratios[t.label] } : {}),
        })),
      });
      console.log(`results: ${path}`);
    }
  } finally {
    for (const t of targets) await t.stop();
  }
}

await main();
