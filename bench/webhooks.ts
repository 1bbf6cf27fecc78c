/**
 * npm run bench:webhooks — webhook delivery on real PostgreSQL, one receiver on loopback.
 *
 * Runs the service's Nest application (jobs off; the benchmark drives WebhookDeliveryJob) against a
 * dedicated database with one test-mode endpoint pointing at a node:http receiver in this process:
 *   (1) throughput: BACKLOG events recorded up front (through EventsService.record, in
 *       transactions of 100), then the job delivers them all: deliveries/s (target >= 1,000);
 *   (2) latency: events committed at RATE/s for LATENCY_SECONDS (one transaction each) while the
 *       job runs as it does in production (every POLL_MS); commit-to-receipt p50/p99 (target p99
 *       <= 1 s at 200 events/s).
 * Prints a table, writes bench/results/webhooks.json and drops the database.
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createDatabase, dropDatabase, printTable, summarize, writeResults } from './support.js';

const DB = 'wallet_bench_webhooks_test';
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 5_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const LATENCY_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function main(): Promise<void> {
  const url = await createDatabase(DB);
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL = 'warn';
  process.env.RUN_JOBS = 'false';
  const { createApp } = await import('../src/app.factory.js');
  const { ApplicationsService } = await import('../src/modules/applications/index.js');
  const { RequestContext } = await import('../src/common/context/request-context.js');
  const { EventsService, WebhookDeliveryJob, DELIVERY_POLL_MS } = await import('../src/modules/events/index.js');
  const { getDataSourceToken } = await import('@nestjs/typeorm');

  // The receiver notes when each webhook-id first arrives.
  const arrived = new Map<string, number>();
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['webhook-id'] as string;
      if (!arrived.has(id)) arrived.set(id, performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const app = await createApp();
  await app.init();
  try {
    const created = await app.get(ApplicationsService).create({ slug: 'bench-webhooks', countries: ['TH'] });
    await app.listen(0, '127.0.0.1');
    const api = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/api/v1/bench-webhooks/platform/wallet`;
    const auth = `Basic ${Buffer.from(`${created.keys.test}:`).toString('base64')}`;
    const endpoint = await fetch(`${api}/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: auth, 'x-test-mode': 'true', 'x-country': 'TH', 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl, enabled_events: ['*'] }),
    });
    if (!endpoint.ok) throw new Error(`endpoint: ${endpoint.status} ${await endpoint.text()}`);

    const ctx = app.get(RequestContext);
    const events = app.get(EventsService);
    const job = app.get(WebhookDeliveryJob);
    const ds = app.get(getDataSourceToken('wallet_test'));
    const applicationId = created.application.id;
    const object = { id: applicationId, object: 'account', kyb_status: 'verified', metadata: { bench: true } };
    const record = (n: number) =>
      ctx.runInMode('test', () =>
        ds.transaction(async (manager: import('typeorm').EntityManager) => {
          for (let i = 0; i < n; i++) {
            await events.record(manager, { applicationId, type: 'account.updated', object, request: null });
          }
        }),
      );

    // (1) Throughput from a backlog.
    console.log(`recording ${BACKLOG} events`);
    for (let i = 0; i < BACKLOG; i += 100) await record(Math.min(100, BACKLOG - i));
    arrived.clear();
    const t0 = performance.now();
    await job.deliverDue(['test']);
    const seconds = (performance.now() - t0) / 1000;
    const perSecond = Math.round(arrived.size / seconds);

    // (2) Commit-to-delivery latency at RATE events/s, the job polling as in production.
    console.log(`latency at ${RATE} events/s for ${LATENCY_SECONDS} s`);
    arrived.clear();
    const committed = new Map<string, number>();
    let polling = true;
    const poller = (async () => {
      while (polling) {
        await job.deliverDue(['test']);
        await new Promise((r) => setTimeout(r, DELIVERY_POLL_MS));
      }
    })();
    const started = performance.now();
    const total = RATE * LATENCY_SECONDS;
    const listed = async () => {
      const rows = (await ctx.runInMode('test', () =>
        ds.query(`SELECT id FROM wallet_test.events ORDER BY id DESC LIMIT 1`),
      )) as Array<{ id: string }>;
      return rows[0].id;
    };
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await record(1);
      committed.set(await listed(), performance.now());
    }
    const deadline = performance.now() + 30_000;
    while (arrived.size < committed.size && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    polling = false;
    await poller;
    const latencies = [...committed].filter(([id]) => arrived.has(id)).map(([id, at]) => arrived.get(id)! - at);
    const s = summarize(latencies);

    const results: Array<Record<string, string | number | boolean>> = [
      {
        scenario: `backlog of ${BACKLOG}, 1 receiver`,
        delivered: BACKLOG,
        deliveries_per_s: perSecond,
        target: '>= 1000/s',
        meets_target: perSecond >= 1000,
      },
      {
        scenario: `${RATE} events/s for ${LATENCY_SECONDS} s`,
        delivered: `${latencies.length}/${total}`,
        commit_to_delivery_p50_ms: Math.round(s.p50),
        commit_to_delivery_p99_ms: Math.round(s.p99),
        target: 'p99 <= 1000 ms',
        meets_target: latencies.length === total && s.p99 <= 1000,
      },
    ];
    for (const row of results) printTable([row]);
    console.log(`written: ${writeResults('webhooks.json', { date: new Date().toISOString(), results })}`);
  } finally {
    await app.close();
    receiver.close();
    await dropDatabase(DB);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
