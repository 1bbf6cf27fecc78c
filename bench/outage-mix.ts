/**
 * Issue 33's outage mix (docs/BENCHMARKS.md, "Outage mix"): 16 workers send keyed refunds,
 * payouts, customers, card payments (checkout confirmations) and test-mode disputes while
 * PostgreSQL goes away under them, once by a fast restart and once by kill -9, and every key is sent
 * again with its body until it gets a final answer. Reports, per outage: the time from the database
 * being back until every key had its final answer, keys left processing, refunds and payouts still
 * pending 2 minutes after the outage, and rows per key.
 *
 * The database is a PRIVATE cluster (initdb/pg_ctl from BENCH_PG_BIN, default
 * /usr/lib/postgresql/15/bin) on its own port in a temp dir: the shared PostgreSQL is never touched.
 * The service runs in this process (RUN_JOBS=true, the jobs' own intervals) so its clock can be
 * moved past the charges' 72 h hold before the payouts.
 *
 * BENCH_WORKERS (16), BENCH_SETS (2 rounds of the five requests per worker and outage),
 * BENCH_AFTER_MS (120000: how long after the outage the pending refunds and payouts are counted).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const PG_BIN = process.env.BENCH_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 55433);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 16);
const SETS = Number(process.env.BENCH_SETS ?? 2);
const AFTER_MS = Number(process.env.BENCH_AFTER_MS ?? 120_000);
const KILL_DOWN_MS = 3_000;
const HOUR = 3600_000;
const exec = promisify(execFile);
/** PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user (BENCH_PG_USER). */
const AS_ROOT = process.getuid?.() === 0;
const PG_USER = process.env.BENCH_PG_USER ?? 'postgres';
const run = (command: string, args: string[]) =>
  AS_ROOT ? exec('runuser', ['-u', PG_USER, '--', command, ...args]) : exec(command, args);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Keyed {
  key: string;
  kind: 'refund' | 'payout' | 'customer' | 'card' | 'dispute';
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  /** What the key's row is counted by. */
  count: { table: string; where: string; value: unknown };
}

/** A private cluster in a temp dir: the only PostgreSQL this benchmark ever restarts or kills. */
class PrivateCluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'wallet-outage-mix-'));
  private readonly data = join(this.dir, 'data');
  readonly server = `postgresql://postgres@127.0.0.1:${PG_PORT}`;

  async init(): Promise<void> {
    if (AS_ROOT) execFileSync('chown', [PG_USER, this.dir]);
    await run(join(PG_BIN, 'initdb'), ['-D', this.data, '-U', 'postgres', '-A', 'trust']);
    await this.start();
  }

  async start(): Promise<void> {
    const options = `-p ${PG_PORT} -c listen_addresses=127.0.0.1 -k ${this.dir} -c max_connections=200`;
    await run(join(PG_BIN, 'pg_ctl'), ['-D', this.data, '-o', options, '-l', join(this.dir, 'log'), '-w', 'start']);
  }

  /** pg_ctl restart -m fast: every connection dropped, the server back as soon as it can. */
  async restart(): Promise<void> {
    await run(join(PG_BIN, 'pg_ctl'), ['-D', this.data, '-m', 'fast', '-w', 'stop']);
    await this.start();
  }

  /** kill -9 of the postmaster (its children follow), KILL_DOWN_MS down, then crash recovery on start. */
  async kill9(): Promise<void> {
    const pid = Number(readFileSync(join(this.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    await sleep(KILL_DOWN_MS);
    // The killed postmaster's children exit when they notice; start refuses while they hold the shared memory.
    for (let i = 0; i < 50; i++) {
      try {
        await this.start();
        return;
      } catch {
        await sleep(200);
      }
    }
    throw new Error('the private cluster did not come back after kill -9');
  }

  stop(): void {
    try {
      const stop = [join(PG_BIN, 'pg_ctl'), '-D', this.data, '-m', 'immediate', '-w', 'stop'];
      if (AS_ROOT) execFileSync('runuser', ['-u', PG_USER, '--', ...stop], { stdio: 'ignore' });
      else execFileSync(stop[0], stop.slice(1), { stdio: 'ignore' });
    } catch {
      // already down
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const cluster = new PrivateCluster();
  try {
    await cluster.init();
    process.env.BENCH_DATABASE_SERVER = cluster.server;
    const { createDatabase, printTable, summarize, writeResults } = await import('./support.js');
    const url = await createDatabase('wallet_bench_outage_mix_test');
    Object.assign(process.env, { DATABASE_URL: url, LOG_LEVEL: 'error', RUN_JOBS: 'true', RATE_LIMIT: '0' });
    const { createApp } = await import('../src/app.factory.js');
    const { Clock } = await import('../src/common/clock.js');
    const { ApplicationsService } = await import('../src/modules/applications/index.js');
    const { HoldReleaseJob } = await import('../src/modules/ledger/index.js');
    const app = await createApp();
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as AddressInfo).port;
    const created = await app.get(ApplicationsService).create({ slug: 'outage-mix', countries: ['TH'] });
    const applicationId = created.application.id;
    const api = `http://127.0.0.1:${port}/api/v1/outage-mix/platform/wallet`;
    const keyHeaders = {
      authorization: `Basic ${Buffer.from(`${created.keys.test}:`).toString('base64')}`,
      'x-test-mode': 'true',
      'x-country': 'TH',
    };
    const post = async (path: string, body: object, headers: Record<string, string> = keyHeaders) => {
      const res = await fetch(path.startsWith('http') ? path : `${api}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { id: string; session?: string; charge?: { id: string } };
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    /** A checkout of a new payment intent and a vault token for it (sessions and tokens live minutes). */
    const cardPayment = async (amount: number) => {
      const pi = await post('/payment_intents', { amount, currency: 'THB' });
      const checkout = await post('/checkouts', { target_type: 'payment_intent', target_id: pi.id });
      const session = { 'X-Session-Token': checkout.session!, 'X-Country': 'TH' };
      const card = { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' };
      const token = await post(`http://127.0.0.1:${port}/api/v1/outage-mix/vault/tokens`, { card }, session);
      return { pi, checkout, session, body: { payment_method_type: 'card', token: token.id } };
    };
    const paidCharge = async () => {
      const payment = await cardPayment(10_000);
      const paid = await post(`/checkouts/${payment.checkout.id}/confirm`, payment.body, payment.session);
      return paid.charge!.id;
    };

    const accounts = (await (await fetch(`${api}/accounts?filter[type]=own`, { headers: keyHeaders })).json()) as {
      data: Array<{ id: string }>;
    };
    const own = accounts.data[0].id;
    const bank = await post('/bank_accounts', {
      account: own,
      type: 'bookbank',
      account_holder_name: 'Somchai Jaidee',
      target: 'THB',
      extra_fields: { bankCode: '004', accountNumber: '1234567890' },
    });
    const outages = (['restart', 'kill -9'] as const).filter((o) =>
      (process.env.BENCH_OUTAGES ?? 'restart,kill -9').split(',').includes(o),
    );
    const perOutage = WORKERS * SETS;
    console.log(`setup: ${2 * perOutage * outages.length} paid charges`);
    const charges: string[] = [];
    for (let i = 0; i < 2 * perOutage * outages.length; i++) charges.push(await paidCharge());
    app.get(Clock).advance(72 * HOUR);
    await app
      .get(HoldReleaseJob)
      .releaseDue(app.get(Clock).now(), { applicationIds: [applicationId], modes: ['test'] });

    // The benchmark's own reads: a pool that forgets connections the outage broke, retried until back.
    const db = new pg.Pool({ connectionString: url, max: 2 });
    db.on('error', () => undefined);
    const query = async (sql: string, params: unknown[]) => {
      for (;;) {
        try {
          return (await db.query(sql, params)).rows as Array<Record<string, unknown>>;
        } catch {
          await sleep(200);
        }
      }
    };
    const results: Array<Record<string, string | number | boolean>> = [];
    let round = 0;
    for (const outage of outages) {
      // The work of this outage, made just before it (checkout sessions and vault tokens live minutes).
      const work: Keyed[][] = [];
      for (let w = 0; w < WORKERS; w++) {
        const requests: Keyed[] = [];
        for (let s = 0; s < SETS; s++) {
          const n = `${round}-${w}-${s}`;
          const amount = 1_000 + round * 1_000 + w * 10 + s;
          const payment = await cardPayment(3_000 + round * 1_000 + w * 10 + s);
          const refundOf = charges.shift()!;
          const disputed = charges.shift()!;
          requests.push(
            {
              key: `refund-${n}`,
              kind: 'refund',
              path: '/refunds',
              body: { charge_id: refundOf, amount },
              headers: keyHeaders,
              count: { table: 'refunds', where: 'charge_id', value: refundOf },
            },
            {
              key: `payout-${n}`,
              kind: 'payout',
              path: '/payouts',
              body: { amount: 100 + round * 1_000 + w * 10 + s, currency: 'THB', destination: bank.id },
              headers: keyHeaders,
              count: { table: 'payouts', where: 'amount', value: 100 + round * 1_000 + w * 10 + s },
            },
            {
              key: `customer-${n}`,
              kind: 'customer',
              path: '/customers',
              body: { name: `outage-${n}` },
              headers: keyHeaders,
              count: { table: 'customers', where: 'name', value: `outage-${n}` },
            },
            {
              key: `card-${n}`,
              kind: 'card',
              path: `/checkouts/${payment.checkout.id}/confirm`,
              body: payment.body,
              headers: payment.session,
              count: { table: 'charges', where: 'payment_intent', value: payment.pi.id },
            },
            {
              key: `dispute-${n}`,
              kind: 'dispute',
              path: '/test_helpers/disputes',
              body: { charge_id: disputed, amount: 500 },
              headers: keyHeaders,
              count: { table: 'disputes', where: 'charge_id', value: disputed },
            },
          );
        }
        work.push(requests);
      }
      round += 1;
      const send = async (req: Keyed): Promise<{ status: number; code?: string }> => {
        try {
          const res = await fetch(`${api}${req.path}`, {
            method: 'POST',
            headers: { ...req.headers, 'Idempotency-Key': req.key, 'content-type': 'application/json' },
            body: JSON.stringify(req.body),
          });
          const json = (await res.json().catch(() => ({}))) as { code?: string };
          return { status: res.status, code: json.code };
        } catch {
          return { status: 0 };
        }
      };
      const retryable = (a: { status: number; code?: string }) =>
        a.status === 0 || a.status === 503 || (a.status === 409 && a.code === 'E2007');

      // The outage starts with the first answer, the workers' requests under way.
      let outageDone: Promise<number> | undefined;
      const startOutage = async () => {
        const down = performance.now();
        await (outage === 'restart' ? cluster.restart() : cluster.kill9());
        console.log(`${outage}: the database was away ${Math.round(performance.now() - down)} ms`);
        return performance.now();
      };
      const finals = new Map<string, { status: number; code?: string }>();
      /** Per kind: the latest final answer (ms after the database was back) and what the resends were answered. */
      const slowest = new Map<string, number>();
      const retried = new Map<string, number>();
      /** For each key answered retryably: from its first send after that answer to its final answer. */
      const resendWaits: number[] = [];
      const passEnds: number[] = [];
      const duringOutage: number[] = [];
      let lastFinal = 0;
      await Promise.all(
        work.map(async (requests) => {
          const firstAnswers = new Map<string, boolean>();
          for (const req of requests) {
            const answer = await send(req);
            duringOutage.push(answer.status);
            firstAnswers.set(req.key, retryable(answer));
            outageDone ??= startOutage();
          }
          passEnds.push(performance.now());
          for (const req of requests) {
            let firstResend: number | undefined;
            for (;;) {
              const sentAt = performance.now();
              if (firstAnswers.get(req.key)) firstResend ??= sentAt;
              const answer = await send(req);
              if (!retryable(answer)) {
                finals.set(req.key, answer);
                lastFinal = performance.now();
                // A resend: the key was answered retryably before (in the outage, or 409 since).
                if (firstResend !== undefined) resendWaits.push(lastFinal - firstResend);
                const after = Math.round(lastFinal - ((await outageDone) ?? lastFinal));
                slowest.set(req.kind, Math.max(slowest.get(req.kind) ?? 0, after));
                break;
              }
              firstResend ??= sentAt;
              const seen = `${req.kind} ${answer.status}${answer.code ? ` ${answer.code}` : ''}`;
              retried.set(seen, (retried.get(seen) ?? 0) + 1);
              await sleep(100);
            }
          }
        }),
      );
      const backAt = await outageDone!;
      const all = work.flat();
      const processing = await query(
        `SELECT count(*)::int AS n FROM platform.idempotency_keys WHERE application_id = $1 AND status = 'processing' AND key = ANY($2)`,
        [applicationId, all.map((r) => r.key)],
      );
      let maxRows = 0;
      for (const req of all) {
        const rows = await query(
          `SELECT count(*)::int AS n FROM wallet_test.${req.count.table} WHERE application_id = $1 AND ${req.count.where} = $2`,
          [applicationId, req.count.value],
        );
        maxRows = Math.max(maxRows, Number(rows[0].n));
      }
      const byStatus = (kind: string) => {
        const counts = new Map<number, number>();
        for (const [key, a] of finals) if (key.startsWith(kind)) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
        return [...counts].map(([status, n]) => `${n}x${status}`).join(' ');
      };
      // Pending refunds and payouts of this outage's work, AFTER_MS after the database was back.
      await sleep(Math.max(0, backAt + AFTER_MS - performance.now()));
      const pending = await query(
        `SELECT (SELECT count(*)::int FROM wallet_test.refunds WHERE application_id = $1 AND status = 'pending' AND charge_id = ANY($2)) AS refunds,
                (SELECT count(*)::int FROM wallet_test.payouts WHERE application_id = $1 AND status = 'pending') AS payouts,
                (SELECT count(*)::int FROM wallet_test.charges WHERE application_id = $1 AND status = 'pending') AS charges`,
        [applicationId, all.filter((r) => r.kind === 'refund').map((r) => r.count.value)],
      );
      results.push({
        outage,
        keys: all.length,
        answers_during: `${duringOutage.filter((s) => s === 200).length}x200 ${duringOutage.filter((s) => s === 503).length}x503 ${duringOutage.filter((s) => s !== 200 && s !== 503).length} other`,
        first_pass_end_s_after_back: Math.round((Math.max(...passEnds) - backAt) / 100) / 10,
        all_final_s_after_back: Math.round((Math.max(lastFinal, backAt) - backAt) / 100) / 10,
        resends: resendWaits.length,
        resend_final_p50_s: Math.round(summarize(resendWaits).p50 / 100) / 10,
        resend_final_max_s: Math.round(summarize(resendWaits).max / 100) / 10,
        non_200_finals: all.length - [...finals.values()].filter((a) => a.status === 200).length,
        keys_processing: Number(processing[0].n),
        max_rows_per_key: maxRows,
        [`refunds_pending_${AFTER_MS / 1000}s`]: Number(pending[0].refunds),
        [`payouts_pending_${AFTER_MS / 1000}s`]: Number(pending[0].payouts),
        [`charges_pending_${AFTER_MS / 1000}s`]: Number(pending[0].charges),
      });
      console.log(outage, {
        final_statuses: Object.fromEntries(
          ['refund', 'payout', 'customer', 'card', 'dispute'].map((k) => [k, byStatus(k)]),
        ),
        slowest_final_ms_after_back: Object.fromEntries(slowest),
        resend_answers: Object.fromEntries(retried),
      });
    }
    await db.end().catch(() => undefined);
    await app.close();
    printTable(results);
    console.log(
      `results: ${writeResults('outage-mix.json', { workers: WORKERS, sets: SETS, after_ms: AFTER_MS, results })}`,
    );
  } finally {
    cluster.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
