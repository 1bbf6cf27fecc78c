/**
 * The ledger rows the benchmarks start from, bulk-inserted as the posting service writes them
 * (bench:lists, bench:reports): `balances` customers with a THB balance each, and `entries`
 * balance transactions in journals of two (one credit, one debit), one journal every
 * 2 * STEP_MS from BASE_MS; every tenth credit is held. The balances' amounts are the sums of
 * their entries, and each entry has its running balance and its place and hash in its balance's
 * hash chain, as the posting service writes them.
 */
import type pg from 'pg';

export const BASE_MS = Date.parse('2026-01-01T00:00:00Z');
export const STEP_MS = 100;
const CHUNK = 100_000;

export /** A UUIDv7-shaped id from a millisecond timestamp and a sequence number, in SQL. */
const uuid7 = (msExpr: string, seqExpr: string) =>
  `(lpad(to_hex((${msExpr})::bigint), 12, '0') || '7' || substr(md5((${seqExpr})::text), 1, 3) || '8' || substr(md5((${seqExpr})::text), 4, 15))::uuid`;

/**
 * Seeds the ledger of `applicationId` (test mode). Leaves the session's temporary table
 * `bench_balances` (id, customer_id, n: 0-based) for seeding more rows against the balances.
 */
export async function seedLedger(
  client: pg.Client,
  applicationId: string,
  entries: number,
  balances: number,
): Promise<void> {
  const [ENTRIES, BALANCES] = [entries, balances];
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

  // The entries are staged without the table's indexes and written once with their running
  // balances and hash chains (an UPDATE of a million indexed rows afterwards would take minutes).
  await client.query(`CREATE TEMP TABLE bench_entries (LIKE ${s}.balance_transactions INCLUDING DEFAULTS)`);
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
      `INSERT INTO bench_entries (id, application_id, journal_id, balance_id, customer_id, account, currency, amount,
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
    console.log(`staged entries up to ${to * 2} (${Date.now() - t1} ms)`);
  }
  // Each balance's entries in (created_at, id) order: their places and running balances, then their
  // hashes (docs/LEDGER.md, "Statements"), one place of every balance per step of the recursion.
  const t2 = Date.now();
  await client.query(`CREATE TEMP TABLE bench_chain AS
    SELECT e.*, row_number() OVER w AS place, sum(e.amount) OVER w AS running
      FROM bench_entries e WINDOW w AS (PARTITION BY e.balance_id ORDER BY e.created_at, e.id)`);
  await client.query(`DROP TABLE bench_entries`);
  await client.query(`CREATE INDEX ON bench_chain (balance_id, place)`);
  await client.query(`ANALYZE bench_chain`);
  const hash = (prev: string) =>
    `${s}.ledger_entry_hash(${prev}, k.place, k.id, k.balance_id, k.journal_id, k.amount, k.currency, k.state, k.running::bigint, k.created_at)`;
  const columns = `k.id, k.application_id, k.journal_id, k.balance_id, k.customer_id, k.account, k.currency, k.amount,
    k.running, k.state, k.description, k.event_type, k.event_id, k.type, k.source, k.scaling_factor, k.fee, k.net,
    k.gross_amount, k.available_on, k.created_at, k.updated_at, k.place`;
  // Each step looks up the next place of every balance by the index: a hash join would hash the
  // whole table again at every step.
  await client.query('BEGIN');
  await client.query('SET LOCAL enable_hashjoin = off');
  await client.query('SET LOCAL enable_mergejoin = off');
  await client.query(
    `INSERT INTO ${s}.balance_transactions (id, application_id, journal_id, balance_id, customer_id, account, currency, amount,
            running_balance, state, description, event_type, event_id, type, source, scaling_factor, fee, net, gross_amount,
            available_on, created_at, updated_at, chain_seq, entry_hash)
     WITH RECURSIVE c AS (
       SELECT ${columns}, ${hash(`repeat('0', 64)`)} AS hash FROM bench_chain k WHERE k.place = 1
       UNION ALL
       SELECT ${columns}, ${hash('c.hash')}
         FROM c JOIN bench_chain k ON k.balance_id = c.balance_id AND k.place = c.place + 1
     )
     SELECT * FROM c`,
  );
  await client.query('COMMIT');
  await client.query(`DROP TABLE bench_chain`);
  console.log(`seeded ${ENTRIES} entries with their running balances and hash chains (${Date.now() - t2} ms)`);
  const t3 = Date.now();
  await client.query(
    `UPDATE ${s}.balances b SET available = x.available, hold = x.hold, chain_count = x.n, chain_head = x.head
       FROM (SELECT balance_id, coalesce(sum(amount) FILTER (WHERE state = 'available'), 0) AS available,
                    coalesce(sum(amount) FILTER (WHERE state = 'hold'), 0) AS hold, count(*) AS n,
                    (array_agg(entry_hash ORDER BY chain_seq DESC))[1] AS head
               FROM ${s}.balance_transactions WHERE application_id = $1 GROUP BY balance_id) x
      WHERE b.id = x.balance_id`,
    [applicationId],
  );
  console.log(`seeded the balances' amounts and chain heads (${Date.now() - t3} ms)`);
}

/** The benchmark's application (`bench`) in the service's platform schema, with a test key. */
export async function createApplication(
  url: string,
  reuse: boolean,
): Promise<{ slug: string; id: string; key: string }> {
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
