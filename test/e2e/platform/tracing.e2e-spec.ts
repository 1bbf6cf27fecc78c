import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRunDatabase, dropRunDatabase, migrate } from '../../support/test-database.js';
import { createTenant, startApp, type Tenant } from '../../support/harness.js';
import { closeNow, freePort, listenOnLoopback, until } from '../../support/processes.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { asSession } from '../../factories/checkout.js';
import { fakeOpn, opnFixture, type FakeProvider } from '../../support/fake-provider.js';
import type { Server } from 'node:http';

const MAIN = join(process.cwd(), 'dist/src/main.js');
const OPN_LIVE = { secret: 'skey_5fakeopnlivesecret000', public: 'pkey_5fakeopnlivepublic000' };
const newTraceparent = (traceId: string) => `00-${traceId}-${randomBytes(8).toString('hex')}-01`;

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  links?: Array<{ traceId: string; spanId: string }>;
  attributes?: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
}

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue;
};

/**
 * Traces as an operator's collector receives them (docs/OBSERVABILITY.md, "Traces"): the compiled
 * service runs as a child with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver in this
 * test, on its own database with its jobs running. A partner's calls carry one `traceparent`, so the
 * checkout paid by PromptPay is one trace: the HTTP server spans, the statements, the provider calls;
 * the webhook deliveries the job makes later are their own traces, linked to it through the event.
 */
(process.env.WALLET_TEST_DATABASE === 'postgresql' ? describe : describe.skip)(
  'OpenTelemetry traces (PostgreSQL only: the traced service is a child process on a database of its own)',
  () => {
    let databaseUrl: string;
    let tenant: Tenant;
    let child: ChildProcess | undefined;
    let collector: Server;
    let collectorPort: number;
    const spans: OtlpSpan[] = [];
    const receiver = new WebhookReceiver();
    let opn: FakeProvider;
    let base: string;
    const logDir = mkdtempSync(join(tmpdir(), 'tracing-'));

    beforeAll(async () => {
      ({ server: collector, port: collectorPort } = await listenOnLoopback((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          if (req.url === '/v1/traces' && req.headers['content-type']?.startsWith('application/json')) {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
              resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
            };
            for (const r of body.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
      }));
      await receiver.start();
      opn = await fakeOpn(OPN_LIVE.secret).start();
      databaseUrl = await createRunDatabase(process.env.DATABASE_URL!);
      await migrate(databaseUrl);
      const t = await startApp({ env: { DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
      try {
        tenant = await createTenant(t);
        const endpoint = await t.http
          .post(tenant.path('/webhook_endpoints'))
          .set(tenant.as('test'))
          .send({ url: receiver.url, enabled_events: ['charge.succeeded'] });
        expect(endpoint.status).toBe(200);
      } finally {
        await t.close();
      }
    }, 120_000);

    afterAll(async () => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      await receiver.stop();
      await opn?.stop();
      await closeNow(collector);
      if (databaseUrl) await dropRunDatabase(databaseUrl);
      rmSync(logDir, { recursive: true, force: true });
    });

    it('shows a PromptPay checkout as one trace with HTTP, database and provider spans, and its webhook delivery linked to it', async () => {
      const port = await freePort();
      const logFile = join(logDir, 'service.log');
      child = spawn(process.execPath, [MAIN], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          LOG_LEVEL: 'info',
          LOG_FILE: logFile,
          RATE_LIMIT: '0',
          RUN_JOBS: 'true',
          MIGRATE_ON_BOOT: 'false',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
          OTEL_SERVICE_NAME: 'wallet-tracing-test',
          // The batch processor sends every 100 ms instead of every 5 s.
          OTEL_BSP_SCHEDULE_DELAY: '100',
          // Live PromptPay at the fake Opn, whose webhook the service receives.
          COLLECTION_PROVIDERS_LIVE: 'TH=opn',
          OPN_SECRET_KEY_LIVE: OPN_LIVE.secret,
          OPN_PUBLIC_KEY_LIVE: OPN_LIVE.public,
          OPN_BASE_URL: opn.baseUrl,
        },
        stdio: 'ignore',
      });
      base = `http://127.0.0.1:${port}`;
      // Ready when this child says it listens on the port (its log) and answers /readyz: the port was
      // free when chosen, but another process of the run may take it first, and then its /readyz
      // would answer for a service that is not this one.
      const listening = () => {
        try {
          return readFileSync(logFile, 'utf8').includes(`listening on ${base} `);
        } catch {
          return false;
        }
      };
      await until('the traced service to answer /readyz', async () => {
        if (child?.exitCode !== null) throw new Error(`the service exited with ${child?.exitCode}`);
        return (
          listening() &&
          fetch(`${base}/readyz`).then(
            (r) => r.ok,
            () => false,
          )
        );
      });

      // The partner's own trace: every call of the flow carries it (a span of theirs per call).
      const traceId = randomBytes(16).toString('hex');
      const call = async (
        method: string,
        path: string,
        body?: object,
        headers: Record<string, string> = tenant.as('test'),
      ) => {
        const res = await fetch(`${base}${tenant.path(path)}`, {
          method,
          headers: {
            ...headers,
            'content-type': 'application/json',
            traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
          },
          body: body ? JSON.stringify(body) : undefined,
        });
        const json = (await res.json()) as Record<string, unknown>;
        if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
        return json as { id: string; session: string };
      };
      const intent = await call('POST', '/payment_intents', { amount: 125000, currency: 'THB' });
      const checkout = await call('POST', '/checkouts', { target_type: 'payment_intent', target_id: intent.id });
      await call(
        'POST',
        `/checkouts/${checkout.id}/confirm`,
        { payment_method_type: 'promptpay' },
        asSession(checkout.session),
      );
      await call('POST', `/test_helpers/checkouts/${checkout.id}/pay_promptpay`);

      await until('the charge.succeeded webhook', () => receiver.ofType('charge.succeeded').length > 0);
      const delivered = receiver.ofType('charge.succeeded')[0].event.id;
      const linked = () =>
        spans.filter((s) => s.name === 'webhook.deliver' && s.links?.some((l) => l.traceId === traceId));
      await until(
        'the webhook delivery span',
        () => linked().length > 0,
        () => `${spans.length} spans`,
      );

      const mine = spans.filter((s) => s.traceId === traceId);
      // HTTP: a server span per call, each a child of the partner's span.
      const servers = mine.filter((s) => s.kind === 2);
      expect(servers.map((s) => s.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^POST/)]));
      expect(servers.length).toBeGreaterThanOrEqual(4);
      // Database: statements of PostgreSQL, with their text and never their parameters.
      const statements = mine.filter(
        (s) => attr(s, 'db.system') === 'postgresql' || attr(s, 'db.system.name') === 'postgresql',
      );
      expect(statements.length).toBeGreaterThan(0);
      expect(
        statements.some((s) => /INSERT INTO/i.test(String(attr(s, 'db.statement') ?? attr(s, 'db.query.text')))),
      ).toBe(true);
      // The provider: the PromptPay charge made and paid through the collection provider (the sandbox in test mode).
      const provider = mine.filter((s) => s.name.startsWith('provider collection.sandbox '));
      expect(provider.length).toBeGreaterThan(0);
      // The delivery is a trace of its own, linked to the request that recorded the event, with its HTTP call inside.
      const delivery = linked().find((s) => attr(s, 'wallet.event.id') === delivered)!;
      expect(delivery).toBeDefined();
      expect(delivery.traceId).not.toBe(traceId);
      const [link] = delivery.links!;
      expect(mine.map((s) => s.spanId)).toContain(link.spanId);
      const post = spans.find(
        (s) => s.traceId === delivery.traceId && s.parentSpanId === delivery.spanId && s.kind === 3,
      );
      expect(post).toBeDefined();

      // Logs: a line of the pay request names its trace.
      const lines = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.some((l) => l.trace_id === traceId)).toBe(true);
      const paid = lines.find((l) =>
        String((l.req as { url?: string } | undefined)?.url ?? '').includes('pay_promptpay'),
      );
      expect(paid).toMatchObject({ trace_id: traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    });

    it("links the forwarder's provider call to the meter event's request, and a provider's webhook to the request that made its charge", async () => {
      expect(base).toBeDefined(); // the service of the test above
      const call = async (
        traceId: string,
        method: string,
        path: string,
        body?: object,
        headers: Record<string, string> = tenant.as('test'),
      ) => {
        const res = await fetch(`${base}${tenant.path(path)}`, {
          method,
          headers: { ...headers, 'content-type': 'application/json', traceparent: newTraceparent(traceId) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const json = (await res.json()) as Record<string, unknown>;
        if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
        return json as { id: string; session: string };
      };
      const linkedTo = (traceId: string) => (s: OtlpSpan) => s.links?.some((l) => l.traceId === traceId) === true;

      // A meter event: stored by the request, forwarded later by the outbox job in a span linked to it.
      const meterTrace = randomBytes(16).toString('hex');
      const customer = await call(meterTrace, 'POST', '/customers', { name: 'Traced' });
      await call(meterTrace, 'POST', '/meters', {
        display_name: 'Traced calls',
        event_name: 'traced_call',
        value_settings: { event_payload_key: 'calls' },
      });
      const eventTrace = randomBytes(16).toString('hex');
      await call(eventTrace, 'POST', '/meter_events', {
        event_name: 'traced_call',
        customer_id: customer.id,
        payload: { calls: '2' },
      });
      await until(
        'the forwarder span linked to the meter event',
        () => spans.some((s) => s.name === 'meter_events.forward' && linkedTo(eventTrace)(s)),
        () => `${spans.length} spans`,
      );
      const forward = spans.find((s) => s.name === 'meter_events.forward' && linkedTo(eventTrace)(s))!;
      expect(forward.traceId).not.toBe(eventTrace);
      const eventSpans = spans.filter((s) => s.traceId === eventTrace).map((s) => s.spanId);
      expect(eventSpans).toContain(forward.links!.find((l) => l.traceId === eventTrace)!.spanId);
      expect(attr(forward, 'wallet.meter_events.count')).toBeDefined();

      // A live PromptPay charge made at (fake) Opn by the partner's confirm, paid by Opn's webhook later.
      const payTrace = randomBytes(16).toString('hex');
      const reference = `chrg_5trace${randomBytes(4).toString('hex')}`;
      opn.on('POST /charges', {
        status: 200,
        fixture: 'charge_promptpay_pending',
        patch: { id: reference, livemode: true },
      });
      const intent = await call(
        payTrace,
        'POST',
        '/payment_intents',
        { amount: 125000, currency: 'THB' },
        tenant.as('live'),
      );
      const checkout = await call(
        payTrace,
        'POST',
        '/checkouts',
        { target_type: 'payment_intent', target_id: intent.id },
        tenant.as('live'),
      );
      await call(
        payTrace,
        'POST',
        `/checkouts/${checkout.id}/confirm`,
        { payment_method_type: 'promptpay' },
        asSession(checkout.session),
      );
      const event = `evnt_5trace${randomBytes(4).toString('hex')}`;
      opn.on(`GET /events/${event}`, {
        status: 200,
        json: {
          ...opnFixture('event_charge_complete'),
          id: event,
          livemode: true,
          data: { ...opnFixture('charge_promptpay_paid'), id: reference, livemode: true },
        },
      });
      const hook = await fetch(`${base}/provider_webhooks/opn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ object: 'event', id: event, key: 'charge.complete' }),
      });
      expect({ status: hook.status, body: await hook.json() }).toMatchObject({
        status: 200,
        body: { result: 'applied' },
      });
      // The webhook's request is a trace of Opn's making (no traceparent here), linked to the partner's confirm.
      const webhookTrace = () =>
        spans.find(
          (s) => s.kind === 2 && s.traceId !== payTrace && JSON.stringify(s.attributes).includes('provider_webhooks'),
        )?.traceId;
      const linkedSpan = () => spans.find((s) => s.traceId === webhookTrace() && linkedTo(payTrace)(s));
      await until(
        'the provider webhook span linked to the charge',
        () => linkedSpan() !== undefined,
        () =>
          `${spans.length} spans; webhook trace ${webhookTrace()}; linked: ${JSON.stringify(spans.filter((s) => s.links?.length).map((s) => [s.name, s.traceId, s.links]))}`,
      );
      const paySpans = spans.filter((s) => s.traceId === payTrace).map((s) => s.spanId);
      expect(paySpans).toContain(linkedSpan()!.links!.find((l) => l.traceId === payTrace)!.spanId);
    });
  },
);
