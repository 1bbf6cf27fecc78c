/**
 * npm run bench:webhooks — webhook delivery on real PostgreSQL, receivers on loopback.
 *
 * A dedicated database; this process records events (EventsService.record, one transaction each)
 * through the service's Nest application with its jobs off, and node:http receivers note when each
 * request arrives. BENCH_WEBHOOKS picks the scenarios (comma-separated; all by default):
 *   throughput  BACKLOG events recorded up front, then this process's WebhookDeliveryJob.deliverDue
 *               delivers them all to one receiver: deliveries/s (target >= 1,000).
 *   fairness    the compiled service in its own process delivers, as in production (RUN_JOBS=true).
 *               A fast endpoint gets RATE events/s for SECONDS alone, then again beside an endpoint
 *               of another application whose receiver answers in 9.5 s (inside the 10 s timeout)
 *               and a third whose receiver fails each event's first attempt: the fast endpoint's
 *               commit-to-delivery p50/p99 alone and beside (target: p99 within 2x), and each
 *               retry's arrival against its due time (`next_retry_at` of the failed attempt;
 *               target: within 5 s).
 *   kill        KILL_EVENTS events owed to one receiver (answering in 20 ms); the delivering
 *               process is SIGKILLed once a fifth of them arrived, and started again: time from the
 *               restart to the first delivery (target: within 30 s), every event delivered, and
 *               every request the receiver saw in the attempt log (no attempt left `sending`).
 * Prints a table, writes bench/results/webhooks.json and drops the database.
 */
import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDatabase, dropDatabase, printTable, startServer, summarize, writeResults } from './support.js';

const DB = 'wallet_bench_webhooks_test';
const SCENARIOS = (process.env.BENCH_WEBHOOKS ?? 'throughput,fairness,kill').split(',');
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 5_000);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const SLOW_MS = 9_500;
const KILL_EVENTS = Number(process.env.BENCH_KILL_EVENTS ?? 300);
/** The delivering service's port (it serves nothing the benchmark calls; /readyz says it is up). */
const SERVICE_PORT = Number(process.env.BENCH_PORT ?? 3830);

type Row = Record<string, string | number | boolean>;

/** A receiver noting each request's arrival (Date.now()) by the `seq` the bench put in the event. */
class Receiver {
  readonly arrivals = new Map<number, number[]>();
  private server: Server | undefined;
  url = '';

  /** `answer(seq, nth)` is the status for the nth request (1-based) of that event, after `delayMs`. */
  constructor(
    private readonly delayMs = 0,
    private readonly answer: (seq: number, nth: number) => number = () => 200,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = Date.now();
        const seq = (
          JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { object: { metadata: { seq: number } } } }
        ).data.object.metadata.seq;
        const seen = this.arrivals.get(seq) ?? [];
        seen.push(at);
        this.arrivals.set(seq, seen);
        const status = this.answer(seq, seen.length);
        setTimeout(() => res.writeHead(status).end(), this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  get requests(): number {
    return [...this.arrivals.values()].reduce((n, a) => n + a.length, 0);
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

async function main(): Promise<void> {
  const url = await createDatabase(DB);
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL = 'warn';
  process.env.RUN_JOBS = 'false';
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  const { createApp } = await import('../src/app.factory.js');
  const { ApplicationsService } = await import('../src/modules/applications/index.js');
  const { RequestContext } = await import('../src/common/context/request-context.js');
  const { EventsService, WebhookDeliveryJob } = await import('../src/modules/events/index.js');
  const { getDataSourceToken } = await import('@nestjs/typeorm');

  const app = await createApp();
  await app.listen(0, '127.0.0.1');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const receivers: Receiver[] = [];
  const results: Row[] = [];
  let service: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/api/v1`;
    const ctx = app.get(RequestContext);
    const events = app.get(EventsService);
    const ds = app.get(getDataSourceToken('wallet_test'));

    /** An application with one endpoint to `receiver`; `record(seq)` commits one event for it. */
    const tenant = async (slug: string, receiver: Receiver) => {
      receivers.push(await receiver.start());
      const created = await app.get(ApplicationsService).create({ slug, countries: ['TH'] });
      const res = await fetch(`${base}/${slug}/platform/wallet/webhook_endpoints`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${created.keys.test}:`).toString('base64')}`,
          'x-test-mode': 'true',
          'x-country': 'TH',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ url: receiver.url, enabled_events: ['*'] }),
      });
      if (!res.ok) throw new Error(`endpoint: ${res.status} ${await res.text()}`);
      const endpointId = ((await res.json()) as { id: string }).id;
      const applicationId = created.application.id;
      const record = (seq: number) =>
        ctx.runInMode('test', () =>
          ds.transaction((manager: import('typeorm').EntityManager) =>
            events.record(manager, {
              applicationId,
              type: 'account.updated',
              object: { id: applicationId, object: 'account', metadata: { seq } },
              request: null,
            }),
          ),
        );
      return { receiver, endpointId, applicationId, record };
    };
    type Tenant = Awaited<ReturnType<typeof tenant>>;

    /** Commits RATE events/s for SECONDS to each tenant; returns each `seq`'s commit time (Date.now()). */
    const commitAtRate = async (tenants: Tenant[], firstSeq: number) => {
      const committed = new Map<number, number>();
      const started = performance.now();
      for (let i = 0; i < RATE * SECONDS; i++) {
        const wait = started + (i * 1000) / RATE - performance.now();
        if (wait > 0) await sleep(wait);
        const seq = firstSeq + i;
        for (const t of tenants) await t.record(seq);
        committed.set(seq, Date.now());
      }
      return committed;
    };
    const latency = (t: Tenant, committed: Map<number, number>) =>
      [...committed].flatMap(([seq, at]) => {
        const arrived = t.receiver.arrivals.get(seq);
        return arrived ? [arrived[0] - at] : [];
      });

    if (SCENARIOS.includes('throughput')) {
      const one = await tenant('bench-throughput', new Receiver());
      console.log(`throughput: recording ${BACKLOG} events`);
      for (let i = 0; i < BACKLOG; i++) await one.record(i);
      const t0 = performance.now();
      await app.get(WebhookDeliveryJob).deliverDue(['test']);
      const perSecond = Math.round(one.receiver.arrivals.size / ((performance.now() - t0) / 1000));
      results.push({
        scenario: `backlog of ${BACKLOG}, 1 receiver`,
        delivered: one.receiver.arrivals.size,
        deliveries_per_s: perSecond,
        target: '>= 1000/s',
        meets_target: perSecond >= 1000,
      });
    }

    const startService = () =>
      startServer(url, SERVICE_PORT, { RUN_JOBS: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });

    if (SCENARIOS.includes('fairness')) {
      service = await startService();
      const fast = await tenant('bench-fast', new Receiver());
      console.log(`fairness: fast endpoint alone, ${RATE} events/s for ${SECONDS} s`);
      const alone = await commitAtRate([fast], 0);
      await waitFor(() => [...alone.keys()].every((seq) => fast.receiver.arrivals.has(seq)), 30_000);
      const a = summarize(latency(fast, alone));

      const slow = await tenant('bench-slow', new Receiver(SLOW_MS));
      const flaky = await tenant('bench-flaky', new Receiver(0, (_seq, nth) => (nth === 1 ? 503 : 200)));
      console.log(
        `fairness: beside a ${SLOW_MS} ms receiver and a failing one, ${RATE} events/s each for ${SECONDS} s`,
      );
      const beside = await commitAtRate([fast, slow, flaky], 1_000_000);
      await waitFor(() => [...beside.keys()].every((seq) => fast.receiver.arrivals.has(seq)), 30_000);
      const b = summarize(latency(fast, beside));
      // Retries fall due 24-36 s after each first failure, and first attempts held behind a failure
      // (never tried while their receiver was failing) take their own first failure at that retry.
      await waitFor(
        () => [...beside.keys()].every((seq) => (flaky.receiver.arrivals.get(seq)?.length ?? 0) >= 2),
        240_000,
      );
      const due = await db.query<{ seq: string; due: Date }>(
        `SELECT e.data->'object'->'metadata'->>'seq' AS seq, a.next_retry_at AS due
           FROM wallet_test.webhook_attempts a JOIN wallet_test.events e ON e.id = a.event_id
          WHERE a.endpoint_id = $1 AND a.attempt = 1`,
        [flaky.endpointId],
      );
      const lateness = due.rows.flatMap((r) => {
        const second = flaky.receiver.arrivals.get(Number(r.seq))?.[1];
        return second !== undefined ? [second - r.due.getTime()] : [];
      });
      const l = summarize(lateness);
      const slowDone = (
        await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM wallet_test.webhook_deliveries WHERE endpoint_id = $1 AND status = 'succeeded'`,
          [slow.endpointId],
        )
      ).rows[0].n;
      results.push(
        {
          scenario: `fast endpoint alone, ${RATE}/s for ${SECONDS} s`,
          delivered: `${a.n}/${alone.size}`,
          commit_to_delivery_p50_ms: Math.round(a.p50),
          commit_to_delivery_p99_ms: Math.round(a.p99),
        },
        {
          scenario: `fast endpoint beside a ${SLOW_MS / 1000} s receiver (${slowDone} of its ${beside.size} done) and a failing one`,
          delivered: `${b.n}/${beside.size}`,
          commit_to_delivery_p50_ms: Math.round(b.p50),
          commit_to_delivery_p99_ms: Math.round(b.p99),
          target: 'p99 within 2x of alone',
          meets_target: b.n === beside.size && b.p99 <= 2 * a.p99,
        },
        {
          scenario: 'retries (failing receiver, beside the above) vs their due time',
          retried: `${l.n}/${beside.size}`,
          lateness_p50_ms: Math.round(l.p50),
          lateness_p99_ms: Math.round(l.p99),
          lateness_max_ms: Math.round(l.max),
          target: 'within 5 s',
          meets_target: l.n === beside.size && l.max <= 5_000,
        },
      );
      await service.stop();
      service = undefined;
    }

    if (SCENARIOS.includes('kill')) {
      const owed = await tenant('bench-kill', new Receiver(20));
      console.log(`kill: ${KILL_EVENTS} events owed, SIGKILL once ${KILL_EVENTS / 5} arrived`);
      for (let i = 0; i < KILL_EVENTS; i++) await owed.record(i);
      service = await startService();
      await waitFor(() => owed.receiver.requests >= KILL_EVENTS / 5, 60_000);
      await service.kill();
      const killedAt = Date.now();
      const beforeKill = owed.receiver.requests;
      service = await startService();
      const restartedAt = Date.now();
      const delivered = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM wallet_test.webhook_deliveries WHERE endpoint_id = $1 AND status = 'succeeded'`,
              [owed.endpointId],
            )
          ).rows[0].n,
        );
      await waitFor(async () => (await delivered()) === KILL_EVENTS, 120_000);
      const after = [...owed.receiver.arrivals.values()].flat().filter((at) => at > killedAt);
      const firstAfter = Math.min(...after);
      const attempts = await db.query<{ seq: string; n: string; sending: string }>(
        `SELECT e.data->'object'->'metadata'->>'seq' AS seq, count(*) AS n,
                count(*) FILTER (WHERE a.outcome = 'sending') AS sending
           FROM wallet_test.webhook_attempts a JOIN wallet_test.events e ON e.id = a.event_id
          WHERE a.endpoint_id = $1 GROUP BY 1`,
        [owed.endpointId],
      );
      const logged = new Map(attempts.rows.map((r) => [Number(r.seq), Number(r.n)]));
      const unlogged = [...owed.receiver.arrivals].filter(([seq, at]) => at.length > (logged.get(seq) ?? 0)).length;
      const sending = attempts.rows.reduce((n, r) => n + Number(r.sending), 0);
      const done = await delivered();
      results.push({
        scenario: `kill -9 mid-batch (${beforeKill} of ${KILL_EVENTS} received before it)`,
        delivered: `${done}/${KILL_EVENTS}`,
        repeats: owed.receiver.requests - owed.receiver.arrivals.size,
        restart_to_first_delivery_ms: firstAfter - restartedAt,
        kill_to_first_delivery_ms: firstAfter - killedAt,
        requests_missing_from_log: unlogged,
        attempts_left_sending: sending,
        target: 'first within 30 s; log holds every request',
        meets_target: done === KILL_EVENTS && firstAfter - restartedAt <= 30_000 && unlogged === 0 && sending === 0,
      });
    }

    for (const row of results) printTable([row]);
    console.log(`written: ${writeResults('webhooks.json', { date: new Date().toISOString(), results })}`);
  } finally {
    await service?.stop();
    await db.end();
    await app.close();
    for (const r of receivers) await r.stop();
    await dropDatabase(DB);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
