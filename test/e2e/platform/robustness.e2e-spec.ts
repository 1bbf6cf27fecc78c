import net from 'node:net';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { SandboxBillingProvider } from '../../../src/modules/meter/index.js';
import { connectedAccount, KBANK } from '../../factories/payouts.js';
import { card, confirm, createCustomer, paymentIntentCheckout } from '../../factories/checkout.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { ACCOUNT_GROUPS, requirementOf, WALLET_BASE_PATH } from '../../../src/common/auth/permissions.js';
import { createUser, tokensFor } from '../../factories/auth.js';

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
const stamp = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/** Arrays nested `depth` deep: `[[[...]]]`, written out as text (no recursion to build or send it). */
const deepArrays = (depth: number) => `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`;

describe('robustness: every reproduction of issue 12 answers a 4xx error object', () => {
  let t: TestApp;
  let tenant: Tenant;
  let customerId: string;
  let own: string;
  /** An owner's bearer token: the account lists (restricted keys, the audit log) take no secret key. */
  let ownerToken: string;

  const post = (path: string, body: object | string) =>
    t.http
      .post(tenant.path(path))
      .set(tenant.as('test'))
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    customerId = (await createCustomer(t, tenant)).id;
    own = await connectedAccount(t, tenant, 'verified');
    ownerToken = (await tokensFor(t, await createUser(t, { member: tenant, role: 'owner' }))).access_token;
    const meter = await post('/meters', {
      display_name: 'Calls',
      event_name: 'robust_call',
      value_settings: { event_payload_key: 'calls' },
    });
    expect(meter.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Every list of the OpenAPI document: the GET operations that take `limit`. */
  async function listPaths(): Promise<string[]> {
    const doc = (await t.http.get('/docs-json')).body as {
      paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }>;
    };
    return Object.entries(doc.paths)
      .filter(([path, item]) => path.includes('{app}') && item.get?.parameters?.some((p) => p.name === 'limit'))
      .map(([path]) => path.replace(/^\/api\/v1\/\{app\}\/platform\/wallet/, ''));
  }

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'answers filter[%s]=x with E2004 on every list',
    async (field) => {
      const lists = await listPaths();
      expect(lists.length).toBeGreaterThanOrEqual(12);
      for (const list of lists) {
        const requirement = requirementOf('GET', WALLET_BASE_PATH + list);
        const accountList =
          typeof requirement === 'object' && (ACCOUNT_GROUPS as readonly string[]).includes(requirement.group);
        const res = await t.http
          .get(tenant.path(list.replace(/\{[a-z_]+\}/g, customerId)))
          .query({ [`filter[${field}]`]: 'x' })
          .set(
            accountList
              ? { Authorization: `Bearer ${ownerToken}`, 'X-Test-Mode': 'true', 'X-Country': 'TH' }
              : tenant.as('test'),
          );
        expect({ list, status: res.status, code: res.body.code }).toEqual({ list, status: 400, code: 'E2004' });
        expectErrorObject(res.body, 'E2004');
      }
    },
  );

  it('refuses a NUL byte in a query string with E2004, and reads an encoded lone surrogate as U+FFFD', async () => {
    for (const query of ['filter[email]=a%00b', 'q=a%00b', 'filter%00=x']) {
      const res = await t.http.get(`${tenant.path('/customers')}?${query}`).set(tenant.as('test'));
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E2004');
    }
    const surrogate = await t.http.get(`${tenant.path('/customers')}?q=a%ED%A0%80`).set(tenant.as('test'));
    expect(surrogate.status).toBe(400);
    expectErrorObject(surrogate.body, 'E2004');
  });

  it.each([
    ['meter without value_settings', '/meters', { display_name: 'M', event_name: 'm1' }],
    ['meter with value_settings []', '/meters', { display_name: 'M', event_name: 'm2', value_settings: [] }],
    [
      'meter with default_aggregation []',
      '/meters',
      { display_name: 'M', event_name: 'm3', value_settings: { event_payload_key: 'v' }, default_aggregation: [] },
    ],
    ['customer name with a NUL byte', '/customers', { name: 'a\u0000b' }],
    ['account name with a NUL byte', '/accounts', { name: 'a\u0000b' }],
    ['customer metadata value with a NUL byte', '/customers', { name: 'n', metadata: { k: 'a\u0000b' } }],
    ['customer metadata key with a NUL byte', '/customers', { name: 'n', metadata: { 'a\u0000b': 'v' } }],
    [
      'customer tax id type with a lone surrogate',
      '/customers',
      { name: 'n', tax_ids: [{ type: '\ud800', value: '1' }] },
    ],
    ['account email with a lone surrogate', '/accounts', { name: 'n', email: 'a\udc00@example.com' }],
    ['invoice with line_items [[]]', '/invoices', { customer_id: 'CUSTOMER', currency: 'THB', line_items: [[]] }],
    ['customer with metadata {constructor}', '/customers', { name: 'n', metadata: { constructor: 'x' } }],
    ['customer with metadata {__proto__}', '/customers', '{"name":"n","metadata":{"__proto__":{"x":1}}}'],
    ['body key toString', '/customers', { name: 'n', toString: 'x' }],
    ['body key valueOf', '/customers', { name: 'n', valueOf: 1 }],
    ['body key hasOwnProperty', '/customers', { name: 'n', hasOwnProperty: 'x' }],
    ['body key constructor', '/customers', { name: 'n', constructor: 'x' }],
    ['body key prototype', '/customers', { name: 'n', prototype: {} }],
    ['body key __proto__', '/customers', '{"name":"n","__proto__":{"admin":true}}'],
    ['arrays nested 1,500 deep', '/customers', deepArrays(1500)],
    ['arrays nested 100,000 deep', '/customers', deepArrays(100_000)],
    ['arrays nested 33 deep', '/customers', deepArrays(33)],
  ])('refuses a %s with E2000', async (_name, path, body) => {
    const sent = typeof body === 'string' ? body : JSON.parse(JSON.stringify(body).replace('CUSTOMER', customerId));
    const res = await post(path, sent);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'E2000' });
    expectErrorObject(res.body, 'E2000');
  });

  it('refuses null where an optional webhook endpoint field is absent or a string (found by the fuzz test)', async () => {
    const created = await post('/webhook_endpoints', { url: 'http://93.184.215.14/hooks', enabled_events: ['*'] });
    expect(created.status).toBe(200);
    for (const body of [{ url: null }, { description: null }, { enabled_events: null }]) {
      const res = await post(`/webhook_endpoints/${created.body.id}`, body);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'E2000' });
      expectErrorObject(res.body, 'E2000');
    }
  });

  it('names the offending parameter of a guarded body', async () => {
    const nul = await post('/customers', { name: 'n', metadata: { note: 'a\u0000b' } });
    expect(nul.body.message).toContain('metadata.note');
    const deep = await post('/customers', deepArrays(40));
    expect(deep.body.message).toMatch(/nested/);
    const proto = await post('/customers', { name: 'n', metadata: { toString: 'x' } });
    expect(proto.body.message).toContain('metadata.toString');
  });

  describe('meter events', () => {
    const event = (change: object) => ({
      event_name: 'robust_call',
      customer_id: customerId,
      payload: { calls: '1' },
      timestamp: stamp(t.clock.now()),
      ...change,
    });
    it.each([
      ['timestamp null', { timestamp: null }],
      ['identifier a lone surrogate', { identifier: '\ud800' }],
      ['identifier with a NUL byte', { identifier: 'a\u0000b' }],
      ['payload value with a NUL byte', { payload: { calls: '1\u0000' } }],
      ['payload null', { payload: null }],
    ])('refuses a %s with E2000', async (_name, change) => {
      const res = await post('/meter_events', event(change));
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'E2000' });
    });
  });

  describe('bank accounts', () => {
    const bookbank = (change: object) => ({
      account: own,
      type: 'bookbank',
      account_holder_name: 'Somchai Jaidee',
      target: 'THB',
      extra_fields: { ...KBANK },
      ...change,
    });
    it.each([
      ['account_holder_name null', { account_holder_name: null }],
      ['account_holder_name a lone surrogate', { account_holder_name: 'So\ud800' }],
      ['metadata {constructor}', { metadata: { constructor: 'x' } }],
      ['extra_fields []', { extra_fields: [] }],
    ])('refuses a bookbank body with %s with E2000', async (_name, change) => {
      const res = await post('/bank_accounts', bookbank(change));
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'E2000' });
    });
  });

  it('refuses a checkout confirm with card [] with E2000', async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant);
    for (const body of [
      { payment_method_type: 'card', card: [] },
      { payment_method_type: 'card', card: null },
      { payment_method_type: 'card', card: [{ exp_month: 12 }] },
    ]) {
      const res = await confirm(t, tenant, checkout, body);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'E2000' });
    }
    // A card number in the array is card data: refused as such before the shape is looked at.
    const res = await confirm(t, tenant, checkout, {
      payment_method_type: 'card',
      card: [card('4242424242424242').card],
    });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'E2009' });
  });

  describe('OAuth client ids are decoded once', () => {
    it('answers client_id=%2500 in a form body with an OAuth error, not a 500', async () => {
      const res = await t.http
        .post('/oauth/token')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('grant_type=authorization_code&code=abc&redirect_uri=https%3A%2F%2Fx.example&client_id=%2500');
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    });
    it('answers a Basic client id of %00 with 401, not a 500', async () => {
      const res = await t.http
        .post('/oauth/token')
        .set('Authorization', `Basic ${Buffer.from('%00:secret').toString('base64')}`)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('grant_type=authorization_code&code=abc&redirect_uri=https%3A%2F%2Fx.example');
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    });
    it('refuses a NUL byte in a form body with a 400', async () => {
      const res = await t.http
        .post('/oauth/token')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('grant_type=authorization_code&code=a%00b&redirect_uri=https%3A%2F%2Fx.example&client_id=c');
      expect(res.status).toBe(400);
    });
  });

  it('refuses a secret key sent with a non-empty Basic password with E1214', async () => {
    const withPassword = `Basic ${Buffer.from(`${tenant.keys.test}:anything`).toString('base64')}`;
    const res = await t.http.get(tenant.path('/customers')).set({ ...tenant.as('test'), Authorization: withPassword });
    expect(res.status).toBe(401);
    expectErrorObject(res.body, 'E1214');
  });
});

describe('meter event delivery to the billing provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is idempotent on the event identifier at the sandbox provider: a second delivery is counted, not stored twice', async () => {
    const tenant = await createTenant(t);
    const sandbox = t.app.get(SandboxBillingProvider);
    const inTest = <T>(fn: () => Promise<T>) => t.app.get(RequestContext).runInMode('test', fn);
    const event = {
      applicationId: tenant.applicationId,
      identifier: 'evt-dup-1',
      eventName: 'call',
      payload: { calls: '2', customer: 'cus_sbx_1' },
      occurredAt: t.clock.now(),
    };
    await inTest(() => sandbox.sendMeterEvents([event]));
    await inTest(() => sandbox.sendMeterEvents([{ ...event, payload: { calls: '2', customer: 'cus_sbx_1' } }]));
    const received = await inTest(() => sandbox.received(tenant.applicationId));
    expect(received).toEqual([expect.objectContaining({ identifier: 'evt-dup-1', received_count: 2 })]);
  });
});

describe('oversized request heads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ listen: true, rateLimit: false });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Sends `head` raw and answers the status line and the body. */
  function rawRequest(head: string): Promise<{ status: number; body: string }> {
    const { port } = new URL(t.url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(head));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('utf8')));
      socket.on('error', reject);
      socket.on('close', () => {
        const [statusLine] = data.split('\r\n');
        resolve({ status: Number(statusLine.split(' ')[1]), body: data.slice(data.indexOf('\r\n\r\n') + 4) });
      });
    });
  }

  it.each([
    ['a header over 16 KB', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['a URL over 16 KB', `GET /healthz?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('answers %s with 431 E2008 as the error object', async (_name, head) => {
    const res = await rawRequest(head);
    expect(res.status).toBe(431);
    expectErrorObject(JSON.parse(res.body), 'E2008');
  });

  it('answers a request line it cannot parse with 400 E2000 as the error object', async () => {
    const res = await rawRequest('NOT HTTP AT ALL\r\n\r\n');
    expect(res.status).toBe(400);
    expectErrorObject(JSON.parse(res.body), 'E2000');
  });

  it('keeps idle keep-alive connections 65 s (HTTP_KEEP_ALIVE_TIMEOUT_MS), above a load balancer idle timeout, and says so', async () => {
    const res = await fetch(`${t.url}/healthz`);
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
    const server = t.app.getHttpServer() as import('node:http').Server;
    expect(server.keepAliveTimeout).toBe(65_000);
    expect(server.headersTimeout).toBeGreaterThan(65_000);
  });
});
