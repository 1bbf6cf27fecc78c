import { validate } from '@readme/openapi-parser';
import { createTenant, startApp, type TestApp } from '../../support/harness.js';
import { OpenApiContract } from '../../support/openapi.js';

describe('OpenAPI document and metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('publishes a valid OpenAPI document where every wallet operation declares security and error responses', async () => {
    const res = await t.http.get('/docs-json');
    expect(res.status).toBe(200);
    const document = structuredClone(res.body);
    const result = await validate(document);
    expect(result.valid ? [] : result.errors).toEqual([]);
    const problems: string[] = [];
    for (const [path, item] of Object.entries<
      Record<string, { security?: unknown[]; responses: Record<string, unknown>; parameters?: Array<{ name: string }> }>
    >(res.body.paths)) {
      if (!path.startsWith('/api/v1/{app}/platform/wallet')) continue;
      for (const [method, op] of Object.entries(item)) {
        // OAuth token requests authenticate the client in the request itself (RFC 6749).
        if (!op.security?.length && !path.includes('/oauth/token')) problems.push(`${method} ${path}: no security`);
        if (!Object.keys(op.responses).some((s) => s.startsWith('4')))
          problems.push(`${method} ${path}: no error responses`);
        if (method === 'post' && !op.parameters?.some((p) => p.name === 'Idempotency-Key'))
          problems.push(`${method} ${path}: no Idempotency-Key`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('serves the Swagger UI', async () => {
    const res = await t.http.get('/docs/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger');
  });

  it('exposes Prometheus metrics with route templates, not ids', async () => {
    const tenant = await createTenant(t);
    await t.http.get(tenant.path('/customers/01a2041e-68fc-7139-ac11-b69fc7432ae3')).set(tenant.as('test'));
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toContain('wallet_http_request_duration_seconds_bucket');
    expect(res.text).toContain('route="/api/v1/:app/platform/wallet/customers/:id"');
    expect(res.text).toContain('wallet_http_errors_total{status="404",code="E4004"}');
    expect(res.text).not.toContain('01a2041e-68fc');
  });
});

describe('responses match the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('for customers, lists, the catalog and errors', async () => {
    const contract = await OpenApiContract.load(t);
    const tenant = await createTenant(t);
    const base = '/api/v1/{app}/platform/wallet';
    const created = await t.http
      .post(tenant.path('/customers'))
      .set(tenant.as('test'))
      .send({ name: 'Doc', email: 'doc@example.com', address: { city: 'Bangkok', country: 'TH' }, labels: ['vip'] });
    contract.assert('POST', `${base}/customers`, created);
    contract.assert(
      'GET',
      `${base}/customers/{id}`,
      await t.http.get(tenant.path(`/customers/${created.body.id}`)).set(tenant.as('test')),
    );
    contract.assert('GET', `${base}/customers`, await t.http.get(tenant.path('/customers')).set(tenant.as('test')));
    contract.assert(
      'GET',
      `${base}/errors/catalog`,
      await t.http.get(tenant.path('/errors/catalog')).set(tenant.as('test')),
    );
    contract.assert(
      'GET',
      `${base}/customers/{id}`,
      await t.http.get(tenant.path('/customers/nope')).set(tenant.as('test')),
    );
    contract.assert('GET', `${base}/customers`, await t.http.get(tenant.path('/customers')));
  });
});
