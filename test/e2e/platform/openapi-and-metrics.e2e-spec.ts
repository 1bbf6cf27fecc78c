import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { validate } from '@readme/openapi-parser';
import { MetricsServer } from '../../../src/common/observability/metrics-server.js';
import { createTenant, expectErrorObject, startApp, type TestApp } from '../../support/harness.js';
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

  it('names in the Grafana dashboard only metrics the service exports (deploy/grafana/wallet-dashboard.json)', async () => {
    const exported = new Set([...(await t.http.get('/metrics')).text.matchAll(/^# TYPE (\w+) /gm)].map((m) => m[1]));
    const dashboard = JSON.parse(readFileSync('deploy/grafana/wallet-dashboard.json', 'utf8')) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    const named = dashboard.panels.flatMap((p) =>
      p.targets.flatMap((q) =>
        [...q.expr.matchAll(/\bwallet_\w+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, '')),
      ),
    );
    expect(named.length).toBeGreaterThan(10);
    expect([...new Set(named)].filter((name) => !exported.has(name))).toEqual([]);
  });
});

describe('metrics on a port of their own (METRICS_PORT)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ env: { METRICS_PORT: '0' } });
  });
  afterAll(() => t?.close());

  it('serves /metrics only on the metrics port; the API port answers it like an unknown route', async () => {
    const port = t.app.get(MetricsServer).port;
    expect(port).toEqual(expect.any(Number));
    await t.http.get('/healthz').expect(200);

    const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await scrape.text();
    expect(text).toContain('wallet_http_request_duration_seconds_bucket');
    expect(text).toContain('route="/healthz"');

    const api = await t.http.get('/metrics');
    expect(api.status).toBe(404);
    expectErrorObject(api.body, 'E4040');

    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('keeps idle connections as long as the API port does (HTTP_KEEP_ALIVE_TIMEOUT_MS), headersTimeout above it', async () => {
    const other = await startApp({ env: { METRICS_PORT: '0', HTTP_KEEP_ALIVE_TIMEOUT_MS: '90000' } });
    try {
      const metrics = other.app.get(MetricsServer).listener!;
      const api = other.app.getHttpServer() as Server;
      expect(metrics.keepAliveTimeout).toBe(90_000);
      expect(metrics.headersTimeout).toBeGreaterThan(90_000);
      expect({ keepAlive: metrics.keepAliveTimeout, headers: metrics.headersTimeout }).toEqual({
        keepAlive: api.keepAliveTimeout,
        headers: api.headersTimeout,
      });
    } finally {
      await other.close();
    }
  });

  it('closes the metrics listener with the app', async () => {
    const other = await startApp({ env: { METRICS_PORT: '0' } });
    const port = other.app.get(MetricsServer).port;
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    await other.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
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
