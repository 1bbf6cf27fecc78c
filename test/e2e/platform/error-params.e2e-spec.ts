import { createUser, tokensFor } from '../../factories/auth.js';
import { createCustomer, paymentIntentCheckout } from '../../factories/checkout.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

type Schema = Record<string, unknown>;
interface Doc {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
}

/** One required field of one body, and the body that omits it (everything else as the document's example). */
interface Omission {
  operation: string;
  param: string;
  body: Record<string, unknown>;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function resolve(doc: Doc, schema: Schema | undefined): Schema | undefined {
  const ref = schema?.$ref as string | undefined;
  return ref ? doc.components.schemas[ref.split('/').pop()!] : schema;
}

/** A body holding every required field of `schema`, each from its own example (or its nested object's). */
function minimalBody(doc: Doc, schema: Schema): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const body: Record<string, unknown> = {};
  for (const name of (schema.required ?? []) as string[]) {
    const prop = resolve(doc, props[name]) ?? {};
    if (prop.example !== undefined) body[name] = prop.example;
    else if (prop.properties) body[name] = minimalBody(doc, prop);
    else if (prop.type === 'array' && resolve(doc, prop.items as Schema)?.properties)
      body[name] = [minimalBody(doc, resolve(doc, prop.items as Schema)!)];
  }
  return body;
}

/**
 * Every required field of `schema` (and of the objects it nests, array members as `[0]`) present in
 * `body`, each with `body` minus that field: the parameter names the error must give, Stripe style.
 */
function omissions(doc: Doc, schema: Schema, body: Record<string, unknown>, operation: string, at = ''): Omission[] {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const out: Omission[] = [];
  for (const name of (schema.required ?? []) as string[]) {
    if (!(name in body)) continue;
    const without = clone(body);
    delete without[name];
    out.push({ operation, param: `${at}${name}`, body: without });
  }
  for (const [name, value] of Object.entries(body)) {
    const prop = resolve(doc, props[name]);
    if (!prop) continue;
    const nested = (
      child: Schema | undefined,
      member: unknown,
      path: string,
      put: (b: Record<string, unknown>, v: unknown) => void,
    ) => {
      if (!child?.properties || !member || typeof member !== 'object' || Array.isArray(member)) return;
      for (const inner of omissions(doc, child, member as Record<string, unknown>, operation, path)) {
        const whole = clone(body);
        put(whole, inner.body);
        out.push({ operation, param: inner.param, body: whole });
      }
    };
    if (prop.type === 'array' && Array.isArray(value) && value.length > 0)
      nested(
        resolve(doc, prop.items as Schema),
        value[0],
        `${at}${name}[0].`,
        (b, v) => ((b[name] as unknown[])[0] = v),
      );
    else nested(prop, value, `${at}${name}.`, (b, v) => (b[name] = v));
  }
  return out;
}

/**
 * Operations whose refusal comes before, or instead of, the field check, with the reason. Anything
 * else must answer 400 naming the field (or, for a batch, 200 with that member's error naming it).
 */
const ANSWERED_OTHERWISE: Record<string, string> = {
  'POST /oauth/token':
    'RFC 6749 token endpoint: the client is authenticated (401 invalid_client) and the grant read by the OAuth server, answering RFC 6749 errors',
  'POST /oauth/token/refresh': 'as POST /oauth/token',
  'POST /api/v1/{app}/platform/wallet/oauth/token': 'as POST /oauth/token',
  'POST /api/v1/{app}/platform/wallet/oauth/token/refresh': 'as POST /oauth/token',
  'POST /provider_webhooks/opn':
    "the provider's own event: verified with the provider first (E5203 without its keys), its shape is the provider's (E5201)",
  'POST /provider_webhooks/stripe': 'as POST /provider_webhooks/opn (the signature is checked before the body)',
};

describe('errors that name the field', () => {
  let t: TestApp;
  let tenant: Tenant;
  let bearer: string;
  let session: string;
  let ids: Record<string, string>;

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    const user = await createUser(t, { member: tenant, role: 'owner' });
    bearer = (await tokensFor(t, user)).access_token;
    const { pi, checkout } = await paymentIntentCheckout(t, tenant);
    session = checkout.session;
    ids = { payment_intent: pi.id, checkout: checkout.id, customer: (await createCustomer(t, tenant)).id };
  }, 300_000); // a hang limit, not a speed check
  afterAll(() => t.close());

  it('answers POST /payment_intents {"currency":"THB"} with 400 E2000, param amount and "is required"', async () => {
    const res = await t.http.post(tenant.path('/payment_intents')).set(tenant.as('test')).send({ currency: 'THB' });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E2000');
    expect(res.body).toMatchObject({ param: 'amount', message: '"amount" is required.' });
    expect(res.body.doc_url).toMatch(/^https?:\/\/[^/]+\/errors\/E2000$/);
  });

  it('names a nested parameter Stripe style, and reports a type error before a range error', async () => {
    const nested = await t.http
      .post(tenant.path('/checkouts'))
      .set(tenant.as('test'))
      .send({ target_type: 'payment_intent', target_id: ids.payment_intent, line_items: [{ quantity: 1 }] });
    expect(nested.status).toBe(400);
    expect(nested.body).toMatchObject({ param: 'line_items[0].price', message: '"line_items[0].price" is required.' });

    const range = await t.http
      .post(tenant.path('/checkouts'))
      .set(tenant.as('test'))
      .send({
        target_type: 'payment_intent',
        target_id: ids.payment_intent,
        line_items: [{ price: 'p', quantity: 0 }],
      });
    expect(range.body).toMatchObject({
      param: 'line_items[0].quantity',
      message: expect.stringMatching(/not be less than 1/),
    });

    const wrongType = await t.http
      .post(tenant.path('/payment_intents'))
      .set(tenant.as('test'))
      .send({ currency: 'THB', amount: 'a lot' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.param).toBe('amount');
    expect(wrongType.body.message).toMatch(/integer/);
  });

  it('names the parameter of an error a service raises: an unknown customer_id, a query parameter, X-Country', async () => {
    const customer = await t.http
      .post(tenant.path('/payment_intents'))
      .set(tenant.as('test'))
      .send({ amount: 1000, currency: 'THB', customer_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' });
    expect(customer.status).toBe(404);
    expect(customer.body.param).toBe('customer_id');

    const query = await t.http.get(tenant.path('/customers?limit=1000')).set(tenant.as('test'));
    expect(query.status).toBe(400);
    expect(query.body.param).toBe('limit');

    const { 'X-Country': _country, ...noCountry } = tenant.as('test');
    const country = await t.http.get(tenant.path('/customers')).set(noCountry);
    expect(country.body).toMatchObject({ code: 'E3002', param: 'X-Country' });

    const unknownRoute = await t.http.get(tenant.path('/nowhere')).set(tenant.as('test'));
    expectErrorObject(unknownRoute.body, 'E4040');
    expect(unknownRoute.body).not.toHaveProperty('param');
  });

  it('serves the page doc_url points at, without credentials, for every code of the catalog', async () => {
    const catalog = await t.http.get(tenant.path('/errors/catalog')).set(tenant.as('test'));
    for (const entry of catalog.body.entries as Array<{ code: number; key: string; http_status: number }>) {
      const code = `E${entry.code}`;
      const page = await t.http.get(`/errors/${code}`);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ object: 'error_code', code, key: entry.key, http_status: entry.http_status });
    }
    const unknown = await t.http.get('/errors/E0000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'E4004', param: 'code' });
  });

  it('answers every required body field of every documented operation, left out, with 400 naming it', async () => {
    const doc = (await t.http.get('/docs-json')).body as Doc;
    const cases: Omission[] = [];
    const requests = new Map<string, { method: string; path: string; security: string[]; form: boolean }>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of ['post', 'put', 'patch'] as const) {
        const op = item[method];
        const content = ((op?.requestBody as Schema | undefined)?.content ?? {}) as Record<string, Schema>;
        const [type, media] = Object.entries(content)[0] ?? [];
        const schema = resolve(doc, media?.schema as Schema | undefined);
        if (!op || !schema?.required) continue;
        const operation = `${method.toUpperCase()} ${path}`;
        const named = media.examples
          ? Object.values(media.examples as Record<string, { value: unknown }>)[0]?.value
          : undefined;
        const example = (media.example ?? named ?? minimalBody(doc, schema)) as Record<string, unknown>;
        const security = ((op.security ?? []) as Array<Record<string, unknown>>).flatMap((s) => Object.keys(s));
        requests.set(operation, { method, path, security, form: type === 'application/x-www-form-urlencoded' });
        cases.push(...omissions(doc, schema, { ...minimalBody(doc, schema), ...clone(example) }, operation));
      }
    }
    expect(requests.size).toBeGreaterThanOrEqual(20);

    const pathId = (name: string) =>
      name.includes('checkout') ? ids.checkout : name.includes('customer') ? ids.customer : ids.payment_intent;
    const failures: string[] = [];
    const answeredOtherwise = new Set<string>();
    let named = 0;
    for (const c of cases) {
      const op = requests.get(c.operation)!;
      const url = op.path.replace('{app}', tenant.slug).replace(/\{([^}]+)\}/g, (_, name: string) => pathId(name));
      const headers: Record<string, string> = { 'X-Test-Mode': 'true', 'X-Country': 'TH' };
      if (op.security.includes('secret_key') || op.security.length === 0) Object.assign(headers, tenant.as('test'));
      else if (op.security.includes('bearer')) headers.Authorization = `Bearer ${bearer}`;
      else headers['X-Session-Token'] = session;
      const req = t.http[op.method as 'post'](url).set(headers);
      const res = op.form ? await req.type('form').send(c.body as Record<string, string>) : await req.send(c.body);
      // A batch answers 200 with one outcome per member: the member's error names the field.
      const error =
        res.status === 200 && res.body.object === 'list' ? res.body.data[0] : res.status === 400 ? res.body : undefined;
      if (error?.object === 'error' && error.param === c.param && /is required/.test(error.message)) {
        named += 1;
        continue;
      }
      if (c.operation in ANSWERED_OTHERWISE) {
        answeredOtherwise.add(c.operation);
        continue;
      }
      failures.push(`${c.operation} without ${c.param}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
    expect(named).toBeGreaterThanOrEqual(30);
    // Every exemption is still needed: an operation that now names its fields loses its entry.
    expect([...answeredOtherwise].sort()).toEqual(Object.keys(ANSWERED_OTHERWISE).sort());
  });
});
