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
import type { Server } from 'node:http';

const MAIN = join(process.cwd(), 'dist/src/main.js');

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
        },
        stdio: 'ignore',
      });
      const base = `http://127.0.0.1:${port}`;
      await until('the traced service to answer /readyz', async () => {
        if (child?.exitCode !== null) throw new Error(`the service exited with ${child?.exitCode}`);
        return fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
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
  },
);
