/**
 * npm run bench:billing [-- --kill] — one period close at scale on real PostgreSQL (issue 35).
 *
 * Setup: the service (compiled main.js) creates the `bench` application, a meter, a licensed price,
 * a per-unit and a graduated metered price, 7% VAT and one template subscription per metered price
 * through the API; the customers and subscriptions are then cloned in SQL from those rows (what the
 * API wrote, new ids, the customer's own billing reference) up to CUSTOMERS, every period moved to
 * end a minute ago, and EVENTS meter events spread over the period are written with the ingestion's
 * own statement (store-events.sql.ts). 1% are then sent again through the API with the same
 * identifier (the API must answer the originals and store nothing).
 *
 * Measured: the period close, run by the real job code (SubscriptionsJob) in a child process
 * (bench/billing-worker.ts): wall time, invoices/s, CPU time and peak RSS of that process. With
 * `--kill` the child is killed with SIGKILL once a third of the invoices exist and a new one
 * finishes the close. Then the grace window ends (InvoicingJob: invoice.finalized), 0.5% late events
 * arrive through the API with timestamps in the closed period, the next period is cut short (its
 * end moved to now) and closed and finalized: the late events must be on the next invoices.
 *
 * Checks: one invoice per subscription and period; for every customer the billed quantity equals an
 * independent aggregation over meter_events; every event counted by exactly one line (0 lost, 0
 * twice), the late ones on `metered_earlier` lines of the next invoice; `billing:verify` over both
 * periods (the CLI) exits 0. Writes bench/results/billing.json (billing-kill.json with --kill).
 * `--close-only` stops after the first close's checks and billing:verify (no finalization, late
 * events or next period). BENCH_CUSTOMERS / BENCH_EVENTS scale it down; BENCH_DATABASE names the database
 * (default wallet_bench_billing_test, dropped at the end unless BENCH_KEEP=1).
 */
import 'reflect-metadata';
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { newId } from '../src/common/ids.js';
import { storeEventsParams, storeEventsSql, type StoreRow } from '../src/modules/meter/store-events.sql.js';
import { BUILD_ROOT, createDatabase, dropDatabase, printTable, startServer, writeResults } from './support.js';

const DB = process.env.BENCH_DATABASE ?? 'wallet_bench_billing_test';
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 10_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const KILL = process.argv.includes('--kill');
/** `--close-only`: no finalization, late events or next period (the close and its checks). */
const CLOSE_ONLY = process.argv.includes('--close-only');
const PORT = Number(process.env.BENCH_PORT ?? 3951);
const RESENT = Math.floor(EVENTS * 0.01);
const LATE = Math.floor(EVENTS * 0.005);
const DAY = 86_400_000;
const S = 'wallet_test';

/** Graduated: the first 100 units at 0.10 THB, then 0.05 THB, beyond 1,000 units 0.02 THB. */
const TIERS = [
  { up_to: 100, unit_amount: 10 },
  { up_to: 1000, unit_amount: 5 },
  { up_to: 'inf', unit_amount: 2 },
];

interface WorkerReport {
  phase: string;
  ms: number;
  cpuMs: number;
  peakRssMb: number;
  result: unknown;
}

/** Runs one phase in a service child process; `killWhen` (polled) decides when to SIGKILL it. */
async function runWorker(
  url: string,
  phase: 'close' | 'finalize',
  env: Record<string, string>,
  killWhen?: () => Promise<boolean>,
): Promise<{ report: WorkerReport | null; killed: boolean; peakRssMb: number }> {
  const child = spawn(process.execPath, [join(BUILD_ROOT, 'bench', 'billing-worker.js'), phase], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let peakRssMb = 0;
  let killed = false;
  let done = false;
  void exited.then(() => (done = true));
  const watch = (async () => {
    while (!done) {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
        if (hwm) peakRssMb = Math.max(peakRssMb, Math.round(Number(hwm[1]) / 1024));
      } catch {
        // exited
      }
      if (killWhen && !killed && out.includes('"started"') && (await killWhen())) {
        child.kill('SIGKILL');
        killed = true;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const code = await exited;
  await watch;
  if (!killed && code !== 0) throw new Error(`${phase} worker exited with ${code}`);
  const line = out
    .trim()
    .split('\n')
    .find((l) => l.includes('"phase"'));
  const report = line ? (JSON.parse(line) as WorkerReport) : null;
  return { report, killed, peakRssMb: Math.max(peakRssMb, report?.peakRssMb ?? 0) };
}

async function main(): Promise<void> {
  const url = await createDatabase(DB);
  const db = new pg.Pool({ connectionString: url, max: 4 });
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    (await db.query(sql, params)).rows as T[];
  const server = await startServer(url, PORT);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    mode: KILL ? 'kill' : 'close',
    close_only: CLOSE_ONLY,
    customers: CUSTOMERS,
    events: EVENTS,
    cpus: (await import('node:os')).cpus().length,
  };
  try {
    // ---- the catalog and two template subscriptions, through the API
    const cli = join(BUILD_ROOT, 'src', 'cli', 'main.js');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, 'apps:create', '--slug', 'bench', '--countries', 'TH', '--json'],
      { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'error', RUN_JOBS: 'false' } },
    );
    const key: string = JSON.parse(stdout).keys.test;
    const headers = {
      authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
      'x-test-mode': 'true',
      'x-country': 'TH',
      'content-type': 'application/json',
    };
    const api = `${server.base}/api/v1/bench/platform/wallet`;
    const post = async <T = { id: string }>(path: string, body: object): Promise<T> => {
      const res = await fetch(`${api}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const meter = await post('/meters', {
      display_name: 'API calls',
      event_name: 'api_call',
      value_settings: { event_payload_key: 'calls' },
    });
    const product = await post('/products', { name: 'Bench plan' });
    const recurring = (usage: string) => ({
      interval: 'month',
      usage_type: usage,
      ...(usage === 'metered' ? { meter_id: meter.id } : {}),
    });
    const licensed = await post('/prices', {
      product_id: product.id,
      currency: 'THB',
      unit_amount: 29_900,
      recurring: recurring('licensed'),
    });
    const perUnit = await post('/prices', {
      product_id: product.id,
      currency: 'THB',
      unit_amount: 7,
      recurring: recurring('metered'),
    });
    const graduated = await post('/prices', {
      product_id: product.id,
      currency: 'THB',
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      tiers: TIERS,
      recurring: recurring('metered'),
    });
    const vat = await post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' });
    const templates: Array<{ customer: string; subscription: string }> = [];
    for (const metered of [perUnit, graduated]) {
      const customer = await post('/customers', { name: 'Template' });
      const sub = await post('/subscriptions', {
        customer_id: customer.id,
        items: [{ price_id: licensed.id, quantity: 1 }, { price_id: metered.id }],
        collection_method: 'send_invoice',
        days_until_due: 14,
        default_tax_rates: [vat.id],
      });
      templates.push({ customer: customer.id, subscription: sub.id });
    }

    // ---- clone customers, subscriptions and items in SQL (the rows the API wrote, new ids)
    const loadStarted = performance.now();
    const template = async (table: string, where: string, id: string) =>
      (
        await q<{ row: Record<string, unknown> }>(
          `SELECT to_jsonb(t) AS row FROM ${S}.${table} t WHERE ${where} = $1`,
          [id],
        )
      ).map((r) => r.row);
    const insertRows = async (table: string, rows: Array<Record<string, unknown>>) => {
      for (let i = 0; i < rows.length; i += 2_000) {
        await q(`INSERT INTO ${S}.${table} SELECT * FROM jsonb_populate_recordset(NULL::${S}.${table}, $1::jsonb)`, [
          JSON.stringify(rows.slice(i, i + 2_000)),
        ]);
      }
    };
    const customerRows = await Promise.all(
      templates.map(async (t) => (await template('customers', 'id', t.customer))[0]),
    );
    const customers = customerRows.map((c) => ({ id: String(c.id), reference: String(c.provider_reference) }));
    const [refTemplate] = await template('billing_sandbox_customers', 'customer_id', templates[0].customer);
    const newCustomers: Array<Record<string, unknown>> = [];
    const newSubs: Array<Record<string, unknown>> = [];
    const newItems: Array<Record<string, unknown>> = [];
    const newRefs: Array<Record<string, unknown>> = [];
    for (let i = templates.length; i < CUSTOMERS; i++) {
      const customerId = newId();
      const reference = `cus_bench_${i}`;
      newCustomers.push({
        ...customerRows[i % templates.length],
        id: customerId,
        name: `Customer ${i}`,
        provider_reference: reference,
      });
      if (refTemplate) newRefs.push({ ...refTemplate, reference, customer_id: customerId });
      customers.push({ id: customerId, reference });
    }
    // The template rows, read once.
    const subRows = await Promise.all(templates.map((t) => template('subscriptions', 'id', t.subscription)));
    const itemRows = await Promise.all(
      templates.map((t) => template('subscription_items', 'subscription_id', t.subscription)),
    );
    for (let i = templates.length; i < CUSTOMERS; i++) {
      const k = i % templates.length;
      const subId = newId();
      newSubs.push({ ...subRows[k][0], id: subId, customer_id: customers[i].id, latest_invoice: null });
      for (const item of itemRows[k]) newItems.push({ ...item, id: newId(), subscription_id: subId });
    }
    await insertRows('customers', newCustomers);
    if (newRefs.length) await insertRows('billing_sandbox_customers', newRefs);
    await insertRows('subscriptions', newSubs);
    await insertRows('subscription_items', newItems);
    // Every subscription's period: the 30 days that ended a minute ago.
    const periodEnd = new Date(Math.floor((Date.now() - 60_000) / 1000) * 1000);
    const periodStart = new Date(periodEnd.getTime() - 30 * DAY);
    await q(
      `UPDATE ${S}.subscriptions SET created = $1::timestamptz - interval '1 day', billing_cycle_anchor = $1,
         current_period_start = $1, current_period_end = $2, next_event_at = $2`,
      [periodStart, periodEnd],
    );

    // ---- meter events over the period, with the ingestion's own statement
    const [app] = await q<{ application_id: string }>(`SELECT application_id FROM ${S}.subscriptions LIMIT 1`);
    const store = storeEventsSql({ events: `${S}.meter_events`, outbox: `${S}.meter_event_outbox` });
    const stored: Array<{ identifier: string; customer: number; calls: string; at: Date }> = [];
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const span = periodEnd.getTime() - periodStart.getTime();
    const CHUNK = 5_000;
    for (let n = 0; n < EVENTS; n += CHUNK) {
      const rows: StoreRow[] = [];
      for (let i = n; i < Math.min(EVENTS, n + CHUNK); i++) {
        const customer = i % CUSTOMERS;
        const calls = String(1 + Math.floor(random() * 20));
        const at = new Date(periodStart.getTime() + Math.floor((random() * span) / 1000) * 1000);
        const identifier = `ev_${i}`;
        rows.push({
          id: newId(),
          applicationId: app.application_id,
          meterId: meter.id,
          eventName: 'api_call',
          customerId: customers[customer].id,
          identifier,
          payload: { calls, customer: customers[customer].reference },
          value: calls,
          occurredAt: at,
          provider: 'sandbox',
          createdAt: at,
        });
        if (i % 100 === 0) stored.push({ identifier, customer, calls, at });
      }
      await q(store, storeEventsParams(rows));
    }
    await q(`ANALYZE`);
    const loadMs = performance.now() - loadStarted;
    const meterTime = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
    const sendBatches = async (events: object[]) => {
      const answers: Array<{ id?: string; code?: string }> = [];
      for (let i = 0; i < events.length; i += 100) {
        const res = await post<{ data: Array<{ id?: string; code?: string }> }>('/meter_events/batch', {
          events: events.slice(i, i + 100),
        });
        answers.push(...res.data);
      }
      return answers;
    };

    // 1% resent with the same identifier: the API answers the originals and stores nothing.
    const resent = stored.slice(0, RESENT);
    const resends = await sendBatches(
      resent.map((e) => ({
        event_name: 'api_call',
        customer_id: customers[e.customer].id,
        identifier: e.identifier,
        timestamp: meterTime(e.at),
        payload: { calls: e.calls },
      })),
    );
    const [{ count: storedCount }] = await q<{ count: number }>(`SELECT count(*)::int AS count FROM ${S}.meter_events`);
    results.setup = {
      load_s: Math.round(loadMs / 100) / 10,
      resent: resends.length,
      resend_errors: resends.filter((r) => !r.id).length,
      stored_events: storedCount,
    };
    if (storedCount !== EVENTS) throw new Error(`stored ${storedCount} events, expected ${EVENTS}`);
    await server.stop();

    // ---- the close, in the service's job code
    const cycleInvoices = async (periodStartAt: Date) =>
      (
        await q<{ count: number }>(
          `SELECT count(*)::int AS count FROM ${S}.invoices WHERE billing_reason = 'subscription_cycle' AND period_start = $1`,
          [periodStartAt],
        )
      )[0].count;
    const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const workerEnv = { BILLING_GRACE_PERIOD: '0' };
    const loadBefore = loadavg();
    const closeStarted = performance.now();
    const runs: Array<{ killed: boolean; ms: number | null; cpuMs: number | null; peakRssMb: number }> = [];
    const first = await runWorker(
      url,
      'close',
      workerEnv,
      KILL ? async () => (await cycleInvoices(periodStart)) >= CUSTOMERS / 3 : undefined,
    );
    runs.push({
      killed: first.killed,
      ms: first.report?.ms ?? null,
      cpuMs: first.report?.cpuMs ?? null,
      peakRssMb: first.peakRssMb,
    });
    let invoicedAtKill: number | null = null;
    if (first.killed) {
      invoicedAtKill = await cycleInvoices(periodStart);
      const second = await runWorker(url, 'close', workerEnv);
      runs.push({ killed: false, ms: second.report!.ms, cpuMs: second.report!.cpuMs, peakRssMb: second.peakRssMb });
    }
    const closeMs = performance.now() - closeStarted;
    const invoiced = await cycleInvoices(periodStart);
    const closeMsInJob = runs.reduce((s, r) => s + (r.ms ?? 0), 0);
    results.close = {
      invoices: invoiced,
      seconds: Math.round(closeMs / 100) / 10,
      job_seconds: Math.round(closeMsInJob / 100) / 10,
      invoices_per_s: Math.round(invoiced / (closeMsInJob / 1000)),
      cpu_s: Math.round(runs.reduce((s, r) => s + (r.cpuMs ?? 0), 0) / 100) / 10,
      peak_rss_mb: Math.max(...runs.map((r) => r.peakRssMb)),
      runs,
      invoiced_at_kill: invoicedAtKill,
      loadavg_before: loadBefore,
      loadavg_after: loadavg(),
    };

    console.log(`close: ${JSON.stringify(results.close)}`);
    // ---- checks after the close
    const [dupes] = await q<{ count: number }>(
      `SELECT count(*)::int AS count FROM (SELECT subscription_id, period_start FROM ${S}.invoices
         WHERE billing_reason = 'subscription_cycle' GROUP BY 1, 2 HAVING count(*) > 1) d`,
    );
    const quantityDifferences = async () =>
      (
        await q<{ count: number }>(
          `WITH expected AS (
             SELECT s.id AS subscription_id, coalesce(sum(e.value), 0) AS quantity
               FROM ${S}.subscriptions s
               LEFT JOIN ${S}.meter_events e ON e.customer_id = s.customer_id AND e.meter_id = $1
                    AND e.occurred_at >= $2 AND e.occurred_at < $3
              GROUP BY s.id
           ), billed AS (
             SELECT l.subscription_id, sum(l.usage_quantity) AS quantity
               FROM ${S}.invoice_lines l
              WHERE l.type IN ('metered', 'metered_earlier') AND l.period_start = $2
              GROUP BY l.subscription_id
           )
           SELECT count(*)::int AS count FROM expected x LEFT JOIN billed b USING (subscription_id)
            WHERE b.quantity IS DISTINCT FROM x.quantity`,
          [meter.id, periodStart, periodEnd],
        )
      )[0].count;
    results.check_after_close = {
      one_invoice_per_subscription: invoiced === CUSTOMERS && dupes.count === 0,
      quantity_differences: await quantityDifferences(),
    };

    // ---- grace window ends; late events arrive; the next period is closed and finalized
    const late = CLOSE_ONLY ? null : await lateEventsOnNextInvoice();
    async function lateEventsOnNextInvoice() {
      const finalized1 = await runWorker(url, 'finalize', workerEnv);
      const server2 = await startServer(url, PORT);
      const lateEvents = Array.from({ length: LATE }, (_, i) => {
        const customer = (i * 7) % CUSTOMERS;
        const at = new Date(periodStart.getTime() + ((i * 3_600_000) % (span - 3_600_000)));
        return {
          event_name: 'api_call',
          customer_id: customers[customer].id,
          identifier: `late_${i}`,
          timestamp: meterTime(at),
          payload: { calls: '3' },
        };
      });
      const lateAnswers = await sendBatches(lateEvents);
      await server2.stop();
      const nextEnd = new Date(Math.floor((Date.now() - 1_000) / 1000) * 1000);
      await q(`UPDATE ${S}.subscriptions SET current_period_end = $1, next_event_at = $1`, [nextEnd]);
      const close2 = await runWorker(url, 'close', workerEnv);
      const finalized2 = await runWorker(url, 'finalize', workerEnv);
      const [counts] = await q<{ billed: number; on_next: number }>(
        `SELECT count(*)::int AS billed,
                count(*) FILTER (WHERE l.type = 'metered_earlier' AND l.period_start = $1 AND i.period_start = $2)::int AS on_next
           FROM ${S}.meter_events e
           JOIN ${S}.meter_event_billings b ON b.event_id = e.id
           JOIN ${S}.invoice_lines l ON l.id = b.line_id
           JOIN ${S}.invoices i ON i.id = l.invoice_id
          WHERE e.identifier LIKE 'late\\_%'`,
        [periodStart, periodEnd],
      );
      return {
        ...counts,
        accepted: lateAnswers.filter((a) => a.id).length,
        seconds: {
          first_finalize: Math.round(finalized1.report!.ms / 100) / 10,
          next_close: Math.round(close2.report!.ms / 100) / 10,
          next_finalize: Math.round(finalized2.report!.ms / 100) / 10,
        },
      };
    }
    const [lost] = await q<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${S}.meter_events e
        WHERE NOT EXISTS (SELECT 1 FROM ${S}.meter_event_billings b WHERE b.event_id = e.id)`,
    );
    const [counted] = await q<{ events: number; lines: number }>(
      `SELECT (SELECT count(*)::int FROM ${S}.meter_events) AS events,
              (SELECT coalesce(sum(usage_event_count), 0)::int FROM ${S}.invoice_lines) AS lines`,
    );
    const verifyStarted = performance.now();
    const verify = await promisify(execFile)(
      process.execPath,
      [
        cli,
        'billing:verify',
        '--from',
        new Date(periodStart.getTime() - 1000).toISOString(),
        '--to',
        new Date(Date.now() + DAY).toISOString(),
        '--mode',
        'test',
        '--json',
      ],
      { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'error', RUN_JOBS: 'false' }, maxBuffer: 64 << 20 },
    ).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );
    const verified = JSON.parse(verify.out || '{}') as {
      invoices?: number;
      lines?: number;
      events?: number;
      differences?: unknown[];
    };
    const [twice] = await q<{ count: number }>(
      `SELECT count(*)::int AS count FROM (SELECT event_id FROM ${S}.meter_event_billings GROUP BY 1 HAVING count(*) > 1) d`,
    );
    results.late = late;
    results.check = {
      one_invoice_per_subscription: invoiced === CUSTOMERS && dupes.count === 0,
      quantity_differences: await quantityDifferences(),
      late_sent: CLOSE_ONLY ? 0 : LATE,
      late_accepted: late?.accepted ?? 0,
      late_on_next_invoice: late?.on_next ?? 0,
      events_lost: lost.count,
      events_twice: twice.count + (counted.lines - counted.events),
      verify_exit: verify.code,
      verify: {
        invoices: verified.invoices,
        lines: verified.lines,
        events: verified.events,
        differences: verified.differences?.length,
      },
      verify_seconds: Math.round((performance.now() - verifyStarted) / 100) / 10,
    };
    const close = results.close as {
      invoices: number;
      job_seconds: number;
      invoices_per_s: number;
      cpu_s: number;
      peak_rss_mb: number;
    };
    const check = results.check as Record<string, unknown>;
    printTable([
      {
        mode: KILL ? 'kill -9' : 'close',
        invoices: close.invoices,
        'close s': close.job_seconds,
        'invoices/s': close.invoices_per_s,
        'cpu s': close.cpu_s,
        'peak RSS MB': close.peak_rss_mb,
        'qty diffs': Number(check.quantity_differences),
        'late on next': CLOSE_ONLY ? '-' : `${String(check.late_on_next_invoice)}/${LATE}`,
        lost: Number(check.events_lost),
        twice: Number(check.events_twice),
        verify: verify.code === 0 ? 'pass' : 'FAIL',
      },
    ]);
    const ok =
      check.one_invoice_per_subscription === true &&
      check.quantity_differences === 0 &&
      check.late_on_next_invoice === check.late_sent &&
      check.events_lost === 0 &&
      check.events_twice === 0 &&
      verify.code === 0;
    results.ok = ok;
    console.log(`results: ${writeResults(KILL ? 'billing-kill.json' : 'billing.json', results)}`);
    if (!ok) process.exitCode = 1;
  } finally {
    await server.stop();
    await db.end();
    if (process.env.BENCH_KEEP !== '1') await dropDatabase(DB);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
