import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { migrationDataSource } from '../ormconfig.js';

/** The compiled tree (dist/bench-build), and the source tree's bench/results. */
export const BUILD_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS_DIR = join(BUILD_ROOT, '..', '..', 'bench', 'results');

export const BENCH_SERVER = process.env.BENCH_DATABASE_SERVER ?? 'postgresql://postgres@127.0.0.1:5432';

export function databaseUrl(name: string): string {
  return `${BENCH_SERVER}/${name}`;
}

async function admin(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database whose name says it is for tests and benchmarks. */
export async function createDatabase(name: string): Promise<string> {
  if (!/^wallet_bench_[a-z_]+_test$/.test(name)) throw new Error(`refusing benchmark database name ${name}`);
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  });
  const source = migrationDataSource(databaseUrl(name));
  await source.initialize();
  try {
    await source.runMigrations({ transaction: 'each' });
  } finally {
    await source.destroy();
  }
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

export function summarize(samples: number[]): { n: number; p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]),
  };
}

export function printTable(rows: Array<Record<string, string | number | boolean>>): void {
  const columns = Object.keys(rows[0]);
  const width = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(width[i])).join(' | ');
  console.log(line(columns));
  console.log(width.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) console.log(line(columns.map((c) => String(row[c]))));
}

export function writeResults(file: string, data: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, file);
  writeFileSync(path, JSON.stringify(data, null, 2) + '\n');
  return path;
}

/** The real service (compiled main.js) in its own process: the load generator never shares its event loop. */
const TICKS_PER_MS = 100 / 1000; // Linux USER_HZ

/**
 * A process's CPU time so far (user + system, from /proc), ms, in 10 ms ticks; with `reaped`, also
 * that of its children that have exited and been waited for (cutime + cstime).
 */
export function processCpuMs(pid: number, { reaped = false } = {}): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
  return ticks / TICKS_PER_MS;
}

export async function startServer(
  url: string,
  port: number,
  env: Record<string, string> = {},
): Promise<{ base: string; cpuMs(): number; stop(): Promise<void>; kill(): Promise<void> }> {
  // BENCH_SERVER_NODE_ARGS: extra node flags for the service only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, join(BUILD_ROOT, 'src', 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      RUN_JOBS: 'false',
      NODE_ENV: 'production',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited with ${child.exitCode ?? child.signalCode}`);
    }
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    /** The service process's CPU time so far (user + system), ms. */
    cpuMs: () => processCpuMs(child.pid!),
    /** SIGKILL: no shutdown hook runs, nothing in flight is finished or recorded. */
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        // Already gone (exited, or killed by a signal: then exitCode stays null and 'exit' will not come again).
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** What a metering benchmark sends to: the app's API base, a test key's headers, a customer and a meter. */
export interface MeterBenchTenant {
  api: string;
  headers: Record<string, string>;
  customerId: string;
  meterId: string;
  /** A single event's body for the `api_call` meter; `identifier` may be autocannon's `[<id>]`. */
  event(identifier: string): {
    event_name: string;
    customer_id: string;
    payload: { calls: string };
    identifier: string;
  };
  /** Sets up credit enforcement for the customer; the body of an event of the enforced meter. */
  prepaid(): Promise<(identifier: string) => object>;
}

/**
 * Creates the `bench` application (through the CLI, as an operator would), a customer and the
 * `api_call` meter on a started service.
 */
export async function meterBenchTenant(url: string, base: string): Promise<MeterBenchTenant> {
  const env = { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'error', RUN_JOBS: 'false' };
  const cli = join(BUILD_ROOT, 'src', 'cli', 'main.js');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [cli, 'apps:create', '--slug', 'bench', '--countries', 'TH', '--json'],
    { env },
  );
  const key: string = JSON.parse(stdout).keys.test;
  const headers = {
    authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
    'x-test-mode': 'true',
    'x-country': 'TH',
  };
  const api = `${base}/api/v1/bench/platform/wallet`;
  const post = async (path: string, body: object) => {
    const res = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const customer = await post('/customers', { name: 'Bench' });
  const meter = await post('/meters', {
    display_name: 'API calls',
    event_name: 'api_call',
    value_settings: { event_payload_key: 'calls' },
  });
  return {
    api,
    headers,
    customerId: customer.id,
    meterId: meter.id,
    event: (identifier) => ({ event_name: 'api_call', customer_id: customer.id, payload: { calls: '1' }, identifier }),
    prepaid: async () => {
      // A meter with enforce_credit, a metered price of 0.01 THB a call on it, a subscription and
      // credit that never runs out during the run: every event takes the whole enforcement path.
      const enforced = await post('/meters', {
        display_name: 'Prepaid API calls',
        event_name: 'api_call_prepaid',
        value_settings: { event_payload_key: 'calls' },
        enforce_credit: true,
      });
      const product = await post('/products', { name: 'Prepaid plan' });
      const price = await post('/prices', {
        product_id: product.id,
        currency: 'THB',
        unit_amount: 1,
        recurring: { interval: 'month', usage_type: 'metered', meter_id: enforced.id },
      });
      await post('/subscriptions', {
        customer_id: customer.id,
        items: [{ price_id: price.id }],
        collection_method: 'send_invoice',
      });
      await post(`/customers/${customer.id}/credit_grants`, { amount: 99_999_999_999, currency: 'THB' });
      return (identifier: string) => ({
        event_name: 'api_call_prepaid',
        customer_id: customer.id,
        payload: { calls: '1' },
        identifier,
      });
    },
  };
}
