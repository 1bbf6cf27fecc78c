/**
 * npm run bench:lists — list endpoints at a million rows, over the running HTTP server.
 *
 * Seeds one application's test schema (in a dedicated database on BENCH_DATABASE_SERVER, default
 * postgresql://postgres@127.0.0.1:5432) with 1,000 customers and balances, 500,000 journals holding
 * 1,000,000 balance transactions, and 100,000 charges with a dispute each, all with
 * INSERT ... SELECT generate_series; then starts the real service (dist main.js, RATE_LIMIT=0,
 * LOG_LEVEL=warn) and measures p50/p99 of each query with one client and keep-alive.
 * Prints a table, writes bench/results/lists.json and drops the database.
 *
 * For query tuning: BENCH_KEEP_DATABASE=1 keeps the seeded database, BENCH_REUSE_DATABASE=1 measures
 * again on it without seeding, and BENCH_ONLY=<text> runs only the cases whose name contains the
 * text (and writes no results file).
 */
import 'reflect-metadata';
import pg from 'pg';
import {
  createDatabase,
  databaseUrl,
  dropDatabase,
  printTable,
  startServer,
  summarize,
  writeResults,
} from './support.js';
import { BASE_MS, createApplication, seedLedger, STEP_MS, uuid7 } from './ledger-seed.js';

const DB = 'wallet_bench_lists_test';
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const BALANCES = 1_000;
const DISPUTES = Number(process.env.BENCH_DISPUTES ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const WARMUP = 30;

async function seed(client: pg.Client, applicationId: string): Promise<void> {
  const s = 'wallet_test';
  const t0 = Date.now();
  await seedLedger(client, applicationId, ENTRIES, BALANCES);
  const t2 = Date.now();
  await client.query(
    `INSERT INTO ${s}.charges (id, application_id, country, status, customer_id, balance_id, currency, amount, amount_captured,
            paid, captured, disputed, provider, reference_id, created_at, updated_at)
     SELECT ${uuid7(`${BASE_MS} + g * 1000`, `'ch' || g`)}, $1, 'TH', 'succeeded', b.customer_id, b.id, 'THB', 1000 + g % 5000,
            1000 + g % 5000, true, true, true, 'sandbox', 'ch_ref_' || g,
            to_timestamp((${BASE_MS} + g * 1000) / 1000.0), to_timestamp((${BASE_MS} + g * 1000) / 1000.0)
       FROM generate_series(1, ${DISPUTES}) g JOIN bench_balances b ON b.n = g % ${BALANCES}`,
    [applicationId],
  );
  await client.query(
    `INSERT INTO ${s}.disputes (id, application_id, country, number, charge_id, currency, status, reason, network_reason_code,
            provider, provider_id, reference_id, amount, amount_from_merchant, evidence_due_by, opened_at, created_at, updated_at)
     SELECT ${uuid7(`${BASE_MS} + g * 1000 + 500`, `'dp' || g`)}, $1, 'TH', 'DP-' || lpad(g::text, 8, '0'),
            ${uuid7(`${BASE_MS} + g * 1000`, `'ch' || g`)}, 'THB',
            (ARRAY['needs_response', 'under_review', 'won', 'lost'])[1 + g % 4],
            (ARRAY['fraudulent', 'duplicate', 'product_not_received', 'general'])[1 + g % 4], '10.4', 'sandbox', 'dp_sbx_' || g,
            'ch_ref_' || g, 1000 + g % 5000, 1000 + g % 5000,
            to_timestamp((${BASE_MS} + g * 1000 + 500) / 1000.0 + 604800), to_timestamp((${BASE_MS} + g * 1000 + 500) / 1000.0),
            to_timestamp((${BASE_MS} + g * 1000 + 500) / 1000.0), to_timestamp((${BASE_MS} + g * 1000 + 500) / 1000.0)
       FROM generate_series(1, ${DISPUTES}) g`,
    [applicationId],
  );
  console.log(`seeded balances' amounts, ${DISPUTES} charges and disputes (${Date.now() - t2} ms)`);
  const t3 = Date.now();
  await client.query('VACUUM ANALYZE');
  // The bulk load leaves gigabytes of dirty pages; flush them now, or the checkpointer writes them
  // out during the first measured queries and their p99 measures the disk, not the queries.
  await client.query('CHECKPOINT');
  console.log(
    `VACUUM ANALYZE, CHECKPOINT (${Date.now() - t3} ms); seeding took ${Math.round((Date.now() - t0) / 1000)} s`,
  );
}

interface Case {
  name: string;
  target: number;
  query: (i: number) => string;
}

async function measure(base: string, headers: Record<string, string>, c: Case) {
  const samples: number[] = [];
  let lastBody: { total_items?: number; data?: unknown[] } = {};
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const started = performance.now();
    const res = await fetch(`${base}${c.query(i)}`, { headers });
    const body = (await res.json()) as { total_items?: number; data?: unknown[] };
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body)}`);
    if (i >= WARMUP) samples.push(ms);
    lastBody = body;
  }
  return { ...summarize(samples), rows: lastBody.data?.length ?? 0, total_items: lastBody.total_items ?? 0 };
}

async function main(): Promise<void> {
  // BENCH_REUSE_DATABASE=1 measures again on the database a BENCH_KEEP_DATABASE=1 run left seeded.
  const reuse = process.env.BENCH_REUSE_DATABASE === '1';
  const url = reuse ? databaseUrl(DB) : await createDatabase(DB);
  const server: { stop?: () => Promise<void> } = {};
  try {
    const app = await createApplication(url, reuse);
    const client = new pg.Client({ connectionString: url });
    client.on('error', (error) => console.error('seed connection:', error.message));
    await client.connect();
    if (!reuse) await seed(client, app.id);
    const anchor = (
      await client.query(
        `SELECT id FROM wallet_test.balance_transactions WHERE application_id = $1 ORDER BY created_at DESC, id DESC OFFSET 9989 LIMIT 1`,
        [app.id],
      )
    ).rows[0].id as string;
    const balanceIds = (await client.query(`SELECT id FROM wallet_test.balances ORDER BY id`)).rows.map((r) => r.id);
    const anchors = (
      await client.query(
        `SELECT id FROM wallet_test.balance_transactions WHERE application_id = $1 ORDER BY created_at DESC, id DESC OFFSET 9000 LIMIT 2000`,
        [app.id],
      )
    ).rows.map((r) => r.id as string);
    await client.end();

    const port = 20000 + Math.floor(Math.random() * 20000);
    const started = await startServer(url, port);
    server.stop = started.stop;
    const base = `${started.base}/api/v1/${app.slug}/platform/wallet`;
    const headers = {
      Authorization: `Basic ${Buffer.from(`${app.key}:`).toString('base64')}`,
      'X-Test-Mode': 'true',
      'X-Country': 'TH',
    };
    const since = new Date(BASE_MS + 0.9 * ENTRIES * STEP_MS).toISOString();
    const order = (i: number) => 1 + ((i * 104729) % (ENTRIES / 2));
    // A moment anywhere in the seeded history (entries are STEP_MS apart from BASE_MS).
    const asOf = (i: number) => encodeURIComponent(new Date(BASE_MS + ((i * 7919) % ENTRIES) * STEP_MS).toISOString());
    const cases: Case[] = [
      { name: 'cursor: first page', target: 20, query: () => '/balance_transactions?use-cursor=true' },
      {
        name: 'cursor: 1,000th page (starting_after)',
        target: 20,
        query: (i) =>
          `/balance_transactions?use-cursor=true&starting_after=${i === 0 ? anchor : anchors[i % anchors.length]}`,
      },
      {
        name: 'cursor: balance_id',
        target: 20,
        query: (i) => `/balance_transactions?use-cursor=true&balance_id=${balanceIds[(i * 37) % balanceIds.length]}`,
      },
      {
        name: 'cursor: filter[balance_id]',
        target: 20,
        query: (i) =>
          `/balance_transactions?use-cursor=true&filter[balance_id]=${balanceIds[(i * 53) % balanceIds.length]}`,
      },
      {
        name: 'cursor: created_at gte + sort=amount:desc',
        target: 20,
        query: () => `/balance_transactions?use-cursor=true&filter[created_at][gte]=${since}&sort=amount:desc`,
      },
      { name: 'page mode: page=500', target: 100, query: () => '/balance_transactions?page=500' },
      {
        name: 'cursor: q=<order number>',
        target: 20,
        query: (i) => `/balance_transactions?use-cursor=true&q=${order(i)}`,
      },
      {
        name: 'cursor: q=order <number> (common word)',
        target: 20,
        query: (i) => `/balance_transactions?use-cursor=true&q=${encodeURIComponent(`order ${order(i)}`)}`,
      },
      {
        name: 'balance as_of (random balance and moment)',
        target: 50,
        query: (i) => `/balances/${balanceIds[(i * 61) % balanceIds.length]}?as_of=${asOf(i)}`,
      },
      {
        name: 'balances list as_of (10 balances)',
        target: 50,
        query: (i) => `/balances?as_of=${asOf(i)}`,
      },
      { name: 'disputes cursor: first page', target: 20, query: () => '/disputes?use-cursor=true' },
      {
        name: 'disputes cursor: status + sort=amount:desc',
        target: 20,
        query: () => '/disputes?use-cursor=true&filter[status]=won&sort=amount:desc',
      },
      { name: 'disputes page mode: page=500', target: 100, query: () => '/disputes?page=500' },
    ];
    const results = [];
    const only = process.env.BENCH_ONLY;
    for (const c of only ? cases.filter((k) => k.name.includes(only)) : cases) {
      const r = await measure(base, headers, c);
      results.push({
        query: c.name,
        p50_ms: r.p50,
        p99_ms: r.p99,
        max_ms: r.max,
        target_p99_ms: c.target,
        meets_target: r.p99 <= c.target,
        rows: r.rows,
        total_items: r.total_items,
      });
    }
    printTable(results);
    if (only) return;
    const path = writeResults('lists.json', {
      benchmark: 'lists',
      measured_at: new Date().toISOString(),
      database: 'PostgreSQL at ' + url.replace(/\/[^/]*$/, ''),
      seeded: { balance_transactions: ENTRIES, balances: BALANCES, disputes: DISPUTES },
      iterations: ITERATIONS,
      note: 'latency measured by one sequential keep-alive client on the same machine (includes HTTP and JSON)',
      results,
    });
    console.log(`wrote ${path}`);
  } finally {
    if (server.stop) await server.stop();
    // BENCH_KEEP_DATABASE=1 leaves the seeded database for EXPLAIN ANALYZE sessions.
    if (process.env.BENCH_KEEP_DATABASE !== '1' && !reuse) await dropDatabase(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
