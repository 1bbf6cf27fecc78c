import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApi } from '../../../src/app.factory.js';
import { WebhookDeliveryJob } from '../../../src/modules/events/index.js';
import {
  WalletClient,
  WalletError,
  WebhookVerificationError,
  WebhookVerifier,
  retryAfterMs,
  retryDelayMs,
  DEFAULT_RETRY,
} from '../../../sdks/typescript/src/index.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const SDK = join(process.cwd(), 'sdks/typescript');

/** A tiny local server that answers each request with the next scripted answer (the last one repeats). */
async function scriptedServer(answers: { status: number; headers?: Record<string, string>; body: unknown }[]) {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
      res
        .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        .end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/demo/platform/wallet`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const errorBody = (code: string, message: string) => ({ code, message, request_id: 'req_1', doc_url: 'x' });

describe('TypeScript SDK (sdks/typescript)', () => {
  let t: TestApp;
  let tenant: Tenant;
  let client: WalletClient;

  beforeAll(async () => {
    t = await startApp({ listen: true, rateLimit: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    tenant = await createTenant(t);
    client = new WalletClient({
      baseUrl: `${t.url}${tenant.path('')}`,
      secretKey: tenant.keys.test,
      testMode: true,
      country: 'TH',
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('has generated types that match the OpenAPI document the service builds (dist/openapi.json)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sdk-types-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(buildOpenApi(t.app), null, 2) + '\n');
      execFileSync(
        join(process.cwd(), 'node_modules/.bin/openapi-typescript'),
        [join(dir, 'openapi.json'), '--default-non-nullable', 'false', '-o', join(dir, 'wallet-api.ts')],
        { stdio: 'pipe' },
      );
      const fresh = readFileSync(join(dir, 'wallet-api.ts'), 'utf8');
      const committed = readFileSync(join(SDK, 'src/generated/wallet-api.ts'), 'utf8');
      // Stale: run `npm run openapi:write && node sdks/typescript/scripts/generate.mjs` and commit the file.
      expect(committed === fresh).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates a customer and a payment intent, reads it back, and throws WalletError with the error object', async () => {
    const customer = await client.post('/customers', {
      body: { name: 'สมชาย ใจดี', email: 'somchai@example.co.th', metadata: { crm_id: 'TH-1001' } },
    });
    expect(customer.id).toEqual(expect.any(String));
    const intent = await client.post('/payment_intents', {
      body: { amount: 125000, currency: 'THB', customer_id: customer.id },
    });
    expect(intent).toMatchObject({ amount: 125000, currency: 'THB', customer_id: customer.id });
    const read = await client.get('/payment_intents/{id}', { path: { id: intent.id } });
    expect(read.id).toBe(intent.id);

    const failure = await client.post('/payment_intents', { body: { currency: 'THB' } as never }).catch((e) => e);
    expect(failure).toBeInstanceOf(WalletError);
    expect(failure).toMatchObject({ status: 400, code: 'E2000', param: 'amount' });
    expect(failure.request_id).toEqual(expect.any(String));
    expect(failure.doc_url).toEqual(expect.any(String));
    expect(failure.error).toMatchObject({ code: 'E2000', param: 'amount' });
  });

  it('sends one Idempotency-Key per POST: the same key answers the first result again', async () => {
    const key = `sdk-${Date.now()}`;
    const first = await client.post('/customers', { body: { name: 'Once' }, idempotencyKey: key });
    const again = await client.post('/customers', { body: { name: 'Once' }, idempotencyKey: key });
    expect(again.id).toBe(first.id);
  });

  it('walks a list across pages in cursor mode (starting_after while has_more)', async () => {
    const own = await createTenant(t);
    const options = { baseUrl: `${t.url}${own.path('')}`, secretKey: own.keys.test, testMode: true, country: 'TH' };
    const scoped = new WalletClient(options);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await scoped.post('/customers', { body: { name: `Page ${i}` } })).id);
    const pages: string[] = [];
    const counting = new WalletClient({
      ...options,
      fetch: (input, init) => {
        pages.push(String(input));
        return fetch(input, init);
      },
    });
    const seen: string[] = [];
    for await (const c of counting.list('/customers', { limit: 3 })) seen.push(c.id);
    expect([...seen].sort()).toEqual([...made].sort());
    expect(new Set(seen).size).toBe(7);
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain('use-cursor=true');
    expect(pages[1]).toContain(`starting_after=${seen[2]}`);
    expect(pages[2]).toContain(`starting_after=${seen[5]}`);
  });

  it('retries 409 E2007, 429 and 503 honouring Retry-After, with the same Idempotency-Key each time', async () => {
    const server = await scriptedServer([
      { status: 409, headers: { 'retry-after': '0' }, body: errorBody('E2007', 'in progress') },
      { status: 429, headers: { 'retry-after': '0' }, body: errorBody('E2429', 'slow down') },
      { status: 503, headers: { 'retry-after': '0' }, body: errorBody('E5001', 'unavailable') },
      { status: 200, body: { id: 'cus_1', object: 'customer' } },
    ]);
    try {
      const waits: number[] = [];
      const local = new WalletClient({
        baseUrl: server.url,
        secretKey: 'sk_test_x',
        testMode: true,
        country: 'TH',
        retry: { maxAttempts: 4 },
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      const answer = await local.post('/customers', { body: { name: 'Retry' } });
      expect(answer.id).toBe('cus_1');
      expect(server.seen).toHaveLength(4);
      expect(waits).toEqual([0, 0, 0]);
      const keys = server.seen.map((s) => s.headers['idempotency-key']);
      expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(new Set(keys).size).toBe(1);
      expect(server.seen[0]).toMatchObject({ method: 'POST', url: '/api/v1/demo/platform/wallet/customers' });
      expect(server.seen[0].headers).toMatchObject({
        authorization: `Basic ${Buffer.from('sk_test_x:').toString('base64')}`,
        'x-test-mode': 'true',
        'x-country': 'TH',
      });
      expect(server.seen.every((s) => s.body === JSON.stringify({ name: 'Retry' }))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('gives up after the bounded attempts with the last error, backing off exponentially with jitter without Retry-After', async () => {
    const server = await scriptedServer([{ status: 502, body: errorBody('E5000', 'bad gateway') }]);
    try {
      const waits: number[] = [];
      const local = new WalletClient({
        baseUrl: server.url,
        secretKey: 'sk_test_x',
        retry: { maxAttempts: 3, baseDelayMs: 100 },
        random: () => 0.5,
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      const failure = await local.get('/customers').catch((e) => e);
      expect(failure).toMatchObject({ name: 'WalletError', status: 502, code: 'E5000' });
      expect(server.seen).toHaveLength(3);
      expect(waits).toEqual([75, 150]);
    } finally {
      await server.close();
    }
  });

  it('never retries another 4xx (400, or a 409 other than E2007)', async () => {
    for (const answer of [
      { status: 400, headers: { 'retry-after': '0' }, body: errorBody('E2000', 'amount is required') },
      { status: 409, body: errorBody('E2006', 'key reused with another body') },
    ]) {
      const server = await scriptedServer([answer]);
      try {
        const local = new WalletClient({ baseUrl: server.url, secretKey: 'sk_test_x', sleep: async () => {} });
        const failure = await local.post('/customers', { body: { name: 'x' } }).catch((e) => e);
        expect(failure).toMatchObject({ status: answer.status, code: answer.body.code, request_id: 'req_1' });
        expect(server.seen).toHaveLength(1);
      } finally {
        await server.close();
      }
    }
  });

  it('reads Retry-After as seconds or an HTTP date, and caps every wait', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Sat, 28 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryDelayMs(DEFAULT_RETRY, 1, 3_600_000, 0)).toBe(DEFAULT_RETRY.maxDelayMs);
    expect(retryDelayMs({ ...DEFAULT_RETRY, baseDelayMs: 100 }, 3, undefined, 0)).toBe(200);
    expect(retryDelayMs({ ...DEFAULT_RETRY, baseDelayMs: 100 }, 3, undefined, 0.999)).toBeLessThanOrEqual(400);
  });

  it('verifies a real signed delivery from the service and refuses a tampered body, a wrong secret and an old timestamp', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const endpoint = await client.post('/webhook_endpoints', {
        body: { url: receiver.url, enabled_events: ['product.created'] },
      });
      const secret = (endpoint as { secret?: string }).secret!;
      expect(secret).toMatch(/^whsec_/);
      const product = await client.post('/products', { body: { name: 'SDK webhook' } });
      await t.app.get(WebhookDeliveryJob).deliverDue(['test'], { applicationIds: [tenant.applicationId] });
      const delivery = receiver.ofType('product.created').find((r) => r.body.includes(product.id));
      expect(delivery).toBeDefined();

      const verifier = new WebhookVerifier(secret);
      const event = verifier.verify<{ type: string; data: { object: { id: string } } }>(
        delivery!.body,
        delivery!.headers as Record<string, string>,
      );
      expect(event.type).toBe('product.created');
      expect(event.data.object.id).toBe(product.id);

      const tampered = delivery!.body.replace('SDK webhook', 'SDK webhooK');
      expect(() => verifier.verify(tampered, delivery!.headers as Record<string, string>)).toThrow(
        WebhookVerificationError,
      );
      const other = new WebhookVerifier(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
      expect(() => other.verify(delivery!.body, delivery!.headers as Record<string, string>)).toThrow(
        'no matching signature',
      );
      const sentAt = Number(delivery!.headers['webhook-timestamp']) * 1000;
      const late = new WebhookVerifier(secret, { now: () => sentAt + 301_000 });
      expect(() => late.verify(delivery!.body, delivery!.headers as Record<string, string>)).toThrow('tolerance');
      const withHeaders = new Headers(delivery!.headers as Record<string, string>);
      expect(verifier.verify(delivery!.body, withHeaders)).toMatchObject({ type: 'product.created' });
    } finally {
      await receiver.stop();
    }
  });
});
