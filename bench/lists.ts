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

const DB = 'wallet_bench_lists_test';
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const BALANCES = 1_000;
const DISPUTES = Number(process.env.BENCH_DISPUTES ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const WARMUP = 30;
const CHUNK = 100_000;
const BASE_MS = Date.parse('2026-01-01T00:00:00Z');
const STEP_MS = 100;

/** A UUIDv7-shaped id from a millisecond timestamp and a sequence number, in SQL. */
const uuid7 = (msExpr: string, seqExpr: string) =>
  `(lpad(to_hex((${msExpr})::bigint), 12, '0') || '7' || substr(md5((${seqExpr})::text), 1, 3) || '8' || substr(md5((${seqExpr})::text), 4, 15))::uuid`;

async function seed(client: pg.Client, applicationId: string): Promise<void> {
  const s = 'wallet_test';
  const t0 = Date.now();
  await client.query(
    `INSERT INTO ${s}.customers (id, application_id, name, email, created_at, updated_at)
     SELECT ${uuid7(`${BASE_MS} - 86400000 + g`, `'c' || g`)}, $1, 'Customer ' || g, 'customer' || g || '@example.com',
            to_timestamp((${BASE_MS} - 86400000 + g) / 1000.0), to_timestamp((${BASE_MS} - 86400000 + g) / 1000.0)
       FROM generate_series(1, ${BALANCES}) g`,
    [applicationId],
  );
  await client.query(
    `INSERT INTO ${s}.balances (id, application_id, customer_id, account, currency, name, available, hold, scaling_factor, created_at, updated_at)
     SELECT ${uuid7(`${BASE_MS} - 43200000 + g`, `'b' || g`)}, $1, c.id, 'customer', 'THB', 'Balance ' || g, 0, 0, 100,
            to_timestamp((${BASE_MS} - 43200000 + g) / 1000.0), to_timestamp((${BASE_MS} - 43200000 + g) / 1000.0)
       FROM generate_series(1, ${BALANCES}) g
       JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM ${s}.customers WHERE application_id = $1) c ON c.n = g`,
    [applicationId],
  );
  await client.query(`CREATE TEMP TABLE bench_balances AS
    SELECT id, customer_id, row_number() OVER (ORDER BY id) - 1 AS n FROM ${s}.balances WHERE application_id = '${applicationId}'`);
  await client.query(`CREATE INDEX ON bench_balances (n)`);
  console.log(`seeded ${BALANCES} customers and balances in ${Date.now() - t0} ms`);

  // Journal j (1-based) has two entries: +amount on balance j % B and -amount on balance (j * 7) % B.
  for (let from = 1; from <= ENTRIES / 2; from += CHUNK / 2) {
    const to = Math.min(ENTRIES / 2, from + CHUNK / 2 - 1);
    const t1 = Date.now();
    await client.query(
      `INSERT INTO ${s}.journals (id, application_id, description, event_type, event_id, created_at)
       SELECT ${uuid7(`${BASE_MS} + j * ${2 * STEP_MS}`, `'j' || j`)}, $1, 'Payment for order ' || j, 'charge.succeeded', 'ord_' || j,
              to_timestamp((${BASE_MS} + j * ${2 * STEP_MS}) / 1000.0)
         FROM generate_series(${from}, ${to}) j`,
      [applicationId],
    );
    await client.query(
      `INSERT INTO ${s}.balance_transactions (id, application_id, journal_id, balance_id, customer_id, account, currency, amount,
              running_balance, state, description, event_type, event_id, type, source, scaling_factor, fee, net, gross_amount,
              available_on, created_at, updated_at)
       SELECT ${uuid7(`${BASE_MS} + j * ${2 * STEP_MS} + side`, `'e' || j || '-' || side`)}, $1,
              ${uuid7(`${BASE_MS} + j * ${2 * STEP_MS}`, `'j' || j`)}, b.id, b.customer_id, 'customer', 'THB',
              CASE WHEN side = 0 THEN amt ELSE -amt END, 0,
              CASE WHEN side = 0 AND j % 10 = 0 THEN 'hold' ELSE 'available' END,
              'Payment for order ' || j, 'charge.succeeded', 'ord_' || j, 'charge', CASE WHEN side = 0 THEN 'payment' ELSE 'funding' END,
              100, 0, CASE WHEN side = 0 THEN amt ELSE -amt END, CASE WHEN side = 0 THEN amt ELSE -amt END, NULL,
              to_timestamp((${BASE_MS} + j * ${2 * STEP_MS} + side) / 1000.0), to_timestamp((${BASE_MS} + j * ${2 * STEP_MS} + side) / 1000.0)
         FROM generate_series(${from}, ${to}) j
        CROSS JOIN (VALUES (0), (1)) AS sides (side)
        CROSS JOIN LATERAL (SELECT ((j::bigint * 7919) % 100000) + 1 AS amt) a
         JOIN bench_balances b ON b.n = CASE WHEN side = 0 THEN j % ${BALANCES} ELSE (j * 7) % ${BALANCES} END`,
      [applicationId],
    );
    console.log(`seeded entries up to ${to * 2} (${Date.now() - t1} ms)`);
  }
  const t2 = Date.now();
  await client.query(
    `UPDATE ${s}.balances b SET available = x.available, hold = x.hold
       FROM (SELECT balance_id, coalesce(sum(amount) FILTER (WHERE state = 'available'), 0) AS available,
                    coalesce(sum(amount) FILTER (WHERE state = 'hold'), 0) AS hold
               FROM ${s}.balance_transactions WHERE application_id = $1 GROUP BY balance_id) x
      WHERE b.id = x.balance_id`,
    [applicationId],
  );
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

async function createApplication(url: string, reuse: boolean): Promise<{ slug: string; id: string; key: string }> {
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL = 'warn';
  process.env.RUN_JOBS = 'false';
  const { createApp } = await import('../src/app.factory.js');
  const { ApplicationsService } = await import('../src/modules/applications/index.js');
  const app = await createApp();
  await app.init();
  try {
    const applications = app.get(ApplicationsService);
    if (reuse) {
      const existing = await applications.bySlug('bench');
      if (!existing) throw new Error('BENCH_REUSE_DATABASE=1: no seeded benchmark database to reuse');
      return { slug: 'bench', id: existing.id, key: (await applications.createKey('bench', 'test')).key };
    }
    const created = await applications.create({ slug: 'bench', countries: ['TH'] });
    return { slug: 'bench', id: created.application.id, key: created.keys.test };
  } finally {
    await app.close();
  }
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
