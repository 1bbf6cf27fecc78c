import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { CARDS, card, cardToken, vaultPath } from '../../factories/checkout.js';
import { createTenant, startApp, type Tenant } from '../../support/harness.js';
import { freePort, until } from '../../support/processes.js';
import { createRunDatabase, dropRunDatabase, migrate } from '../../support/test-database.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const MAIN = join(process.cwd(), 'dist/src/main.js');

interface Service {
  proc: ChildProcess;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
}

/** The compiled service as a child process on `databaseUrl`; resolves once it listens. */
async function startService(databaseUrl: string, runJobs: boolean): Promise<Service> {
  const port = await freePort();
  const proc = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      RATE_LIMIT: '0',
      RUN_JOBS: String(runJobs),
      MIGRATE_ON_BOOT: 'false',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', // the receiver is on loopback
    },
  });
  let output = '';
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => (output += chunk));
  proc.stderr.on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await until(
    'the service to listen',
    () => {
      if (proc.exitCode !== null) throw new Error(`service exited ${proc.exitCode}: ${output}`);
      return output.includes('wallet service listening');
    },
    () => output.slice(-2000),
  );
  return { proc, url: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/**
 * The outbox survives a killed process (issue 14, "Done when"): the compiled service runs as a
 * child on its own fresh database; a payment commits its events and their deliveries while the
 * process delivers nothing (RUN_JOBS=false: the delivery job is not running, as if the process died
 * the instant after the commit); the process is SIGKILLed (no shutdown hook runs); a new process
 * with its jobs on delivers every event, and the receiver gets each exactly once per succeeded
 * attempt in the attempt log.
 */
(process.env.WALLET_TEST_DATABASE === 'postgresql' ? describe : describe.skip)(
  'webhook delivery after the process is killed (PostgreSQL: the test reads the outbox in its own session)',
  () => {
    let databaseUrl: string;
    let tenant: Tenant;
    const children: ChildProcess[] = [];
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      databaseUrl = await createRunDatabase(process.env.DATABASE_URL!);
      await migrate(databaseUrl);
      const t = await startApp({ env: { DATABASE_URL: databaseUrl } });
      try {
        tenant = await createTenant(t);
      } finally {
        await t.close();
      }
      receiver = await new WebhookReceiver().start();
    }, 120_000);

    afterAll(async () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await receiver?.stop();
      if (databaseUrl) await dropRunDatabase(databaseUrl);
    });

    it('delivers the events of a change committed before SIGKILL, after restart, exactly once each', async () => {
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        const outbox = async () =>
          (
            await db.query<{ event_id: string; status: string; attempts: number }>(
              `SELECT event_id, status, attempts FROM wallet_test.webhook_deliveries WHERE application_id = $1`,
              [tenant.applicationId],
            )
          ).rows;

        // 1. A process that commits changes and their events but delivers nothing.
        const first = await startService(databaseUrl, false);
        children.push(first.proc);
        const api = request(first.url);
        const headers = tenant.as('test');
        const endpoint = await api
          .post(tenant.path('/webhook_endpoints'))
          .set(headers)
          .send({ url: receiver.url, enabled_events: ['*'] });
        expect(endpoint.status).toBe(200);
        const pi = await api
          .post(tenant.path('/payment_intents'))
          .set(headers)
          .send({ amount: 27500, currency: 'THB' });
        expect(pi.status).toBe(200);
        const checkout = await api
          .post(tenant.path('/checkouts'))
          .set(headers)
          .send({ target_type: 'payment_intent', target_id: pi.body.id });
        expect(checkout.status).toBe(200);
        const buyer = { 'X-Session-Token': checkout.body.session, 'X-Country': 'TH' };
        const token = await api
          .post(vaultPath(tenant))
          .set(buyer)
          .send({ card: card(CARDS.visa).card });
        expect(token.status).toBe(200);
        const paid = await api
          .post(tenant.path(`/checkouts/${checkout.body.id}/confirm`))
          .set(buyer)
          .send(cardToken(token.body.id));
        expect(paid.status).toBe(200);

        // 2. Killed outright: no shutdown hook, no drain.
        first.proc.kill('SIGKILL');
        expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
        const owed = await outbox();
        expect(owed.length).toBeGreaterThanOrEqual(3);
        expect(owed.every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true);
        expect(receiver.received).toHaveLength(0);

        // 3. A new process delivers what the dead one owed.
        const second = await startService(databaseUrl, true);
        children.push(second.proc);
        await until(
          'the outbox to be delivered',
          async () => (await outbox()).every((d) => d.status === 'succeeded'),
          () => `${receiver.received.length} received; ${second.output().slice(-1500)}`,
        );
        const types = receiver.received.map((r) => r.event.type).sort();
        expect(types).toEqual(
          expect.arrayContaining(['charge.succeeded', 'checkout.completed', 'payment_intent.succeeded']),
        );
        const verifier = new Webhook(endpoint.body.secret as string);
        for (const r of receiver.received) {
          expect(verifier.verify(r.body, r.headers as Record<string, string>)).toEqual(r.event);
        }

        // Exactly once per succeeded attempt: every owed event arrived once, and the attempt log
        // has one succeeded attempt (attempt 1) per event and no other.
        const attempts = (
          await db.query<{ event_id: string; outcome: string; attempt: number }>(
            `SELECT event_id, outcome, attempt FROM wallet_test.webhook_attempts WHERE application_id = $1`,
            [tenant.applicationId],
          )
        ).rows;
        const receivedIds = receiver.received.map((r) => r.headers['webhook-id']).sort();
        expect(receivedIds).toEqual(owed.map((d) => d.event_id).sort());
        expect(new Set(receivedIds).size).toBe(receivedIds.length);
        expect(attempts.map((a) => a.event_id).sort()).toEqual(receivedIds);
        expect(attempts.every((a) => a.outcome === 'succeeded' && a.attempt === 1)).toBe(true);

        second.proc.kill('SIGTERM');
        expect((await second.exited).code).toBe(0);
        // Nothing more arrived while the second process ran on and stopped.
        expect(receiver.received).toHaveLength(owed.length);
      } finally {
        await db.end();
      }
    });
  },
);
