import type { ApplicationConfig } from '@nestjs/core';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

describe('foundation pipeline', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t, { countries: ['TH', 'SG'] });
  });
  afterAll(() => t.close());

  it('answers the error catalog with a test key on test data', async () => {
    const res = await t.http.get(tenant.path('/errors/catalog')).set(tenant.as('test'));
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('error_catalog');
    expect(res.body.count).toBe(res.body.entries.length);
    expect(res.body.entries[0]).toEqual({
      code: expect.any(Number),
      key: expect.any(String),
      i18n_key: expect.any(String),
      message: expect.any(String),
      http_status: expect.any(Number),
      severity: expect.any(String),
    });
  });

  it('runs no global interceptor, and the idempotency guard after every other guard', () => {
    // Any global interceptor, even one that only calls next.handle(), puts every request of every
    // route through Nest's rxjs pipeline (docs/ARCHITECTURE.md, "Request pipeline").
    const config = (t.app as unknown as { config: ApplicationConfig }).config;
    expect(config.getGlobalInterceptors()).toEqual([]);
    expect(config.getGlobalRequestInterceptors()).toEqual([]);
    expect(config.getGlobalGuards().map((guard) => guard.constructor.name)).toEqual([
      'TenancyGuard',
      'AuthGuard',
      'RateLimitGuard',
      'IdempotencyGuard',
    ]);
  });

  it('tags the answer to a GET with an ETag (304 for If-None-Match) and the answer to a POST with none', async () => {
    const first = await t.http.get(tenant.path('/errors/catalog')).set(tenant.as('test'));
    expect(first.headers.etag).toMatch(/^W\/"/);
    const again = await t.http
      .get(tenant.path('/errors/catalog'))
      .set({ ...tenant.as('test'), 'If-None-Match': first.headers.etag });
    expect(again.status).toBe(304);
    // A tenant of its own: the shared one's customer list is checked whole below.
    const own = await createTenant(t);
    const created = await t.http.post(own.path('/customers')).set(own.as('test')).send({ name: 'ETag' });
    expect(created.status).toBe(200);
    expect(created.headers.etag).toBeUndefined();
  });

  it('refuses a request without credentials with E1213 and WWW-Authenticate', async () => {
    const res = await t.http.get(tenant.path('/errors/catalog'));
    expect(res.status).toBe(401);
    expectErrorObject(res.body, 'E1213');
    expect(res.headers['www-authenticate']).toContain('Basic');
    expect(res.headers['x-request-id']).toBe(res.body.request_id);
  });

  it('refuses a well-formed but unknown key with E1211', async () => {
    const other = await createTenant(t);
    await t.app
      .get((await import('../../../src/modules/applications/index.js')).ApplicationsService)
      .revokeKey(other.keys.test);
    const res = await t.http
      .get(tenant.path('/errors/catalog'))
      .set({ Authorization: other.basic('test'), 'X-Test-Mode': 'true' });
    expect(res.status).toBe(401);
    expectErrorObject(res.body, 'E1211');
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it('refuses garbage in the Basic header with E1211', async () => {
    for (const auth of [
      'Basic !!!',
      'Basic ' + Buffer.from('sk_test_nope:').toString('base64'),
      'Basic ' + Buffer.from(':').toString('base64'),
    ]) {
      const res = await t.http.get(tenant.path('/errors/catalog')).set({ Authorization: auth, 'X-Test-Mode': 'true' });
      expect(res.status).toBe(401);
      expectErrorObject(res.body, 'E1211');
    }
  });

  it('refuses a key of another application with E1300', async () => {
    const other = await createTenant(t);
    const res = await t.http
      .get(tenant.path('/errors/catalog'))
      .set({ Authorization: other.basic('test'), 'X-Test-Mode': 'true' });
    expect(res.status).toBe(403);
    expectErrorObject(res.body, 'E1300');
  });

  it('refuses a test key on live data and a live key on test data with E1300', async () => {
    const testOnLive = await t.http.get(tenant.path('/errors/catalog')).set({ Authorization: tenant.basic('test') });
    expect(testOnLive.status).toBe(403);
    expectErrorObject(testOnLive.body, 'E1300');
    const liveOnTest = await t.http
      .get(tenant.path('/errors/catalog'))
      .set({ Authorization: tenant.basic('live'), 'X-Test-Mode': 'true' });
    expect(liveOnTest.status).toBe(403);
    expectErrorObject(liveOnTest.body, 'E1300');
  });

  it('refuses an unsupported Authorization scheme with E1200', async () => {
    const res = await t.http.get(tenant.path('/errors/catalog')).set({ Authorization: 'Digest abc' });
    expect(res.status).toBe(401);
    expectErrorObject(res.body, 'E1200');
  });

  it('answers an unknown application with a 404 error object', async () => {
    const res = await t.http.get('/api/v1/no-such-app/platform/wallet/errors/catalog').set(tenant.as('test'));
    expect(res.status).toBe(404);
    expectErrorObject(res.body, 'E3001');
  });

  it('parses X-Test-Mode strictly', async () => {
    for (const value of ['TRUE', '1', 'yes', '']) {
      const res = await t.http
        .get(tenant.path('/errors/catalog'))
        .set({ Authorization: tenant.basic('test'), 'X-Test-Mode': value });
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E3004');
    }
  });

  it('checks X-Country where the endpoint needs it', async () => {
    const missing = await t.http
      .get(tenant.path('/customers'))
      .set({ Authorization: tenant.basic('test'), 'X-Test-Mode': 'true' });
    expect(missing.status).toBe(400);
    expectErrorObject(missing.body, 'E3002');
    const disabled = await t.http.get(tenant.path('/customers')).set(tenant.as('test', { 'X-Country': 'JP' }));
    expect(disabled.status).toBe(400);
    expectErrorObject(disabled.body, 'E3003');
    const lower = await t.http.get(tenant.path('/customers')).set(tenant.as('test', { 'X-Country': 'sg' }));
    expect(lower.status).toBe(200);
  });

  it('keeps test and live data apart and stamps livemode', async () => {
    const created = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Test buyer' });
    expect(created.status).toBe(200);
    expect(created.body.livemode).toBe(false);
    const live = await t.http.post(tenant.path('/customers')).set(tenant.as('live')).send({ name: 'Live buyer' });
    expect(live.body.livemode).toBe(true);

    const testList = await t.http.get(tenant.path('/customers')).set(tenant.as('test'));
    expect(testList.body.data.map((c: { name: string }) => c.name)).toEqual(['Test buyer']);
    expect(testList.body.data.every((c: { livemode: boolean }) => c.livemode === false)).toBe(true);
    const liveList = await t.http.get(tenant.path('/customers')).set(tenant.as('live'));
    expect(liveList.body.data.map((c: { name: string }) => c.name)).toEqual(['Live buyer']);
    expect(liveList.body.data[0].livemode).toBe(true);

    const crossMode = await t.http.get(tenant.path(`/customers/${created.body.id}`)).set(tenant.as('live'));
    expect(crossMode.status).toBe(404);
    expectErrorObject(crossMode.body, 'E4004');
    const sameMode = await t.http.get(tenant.path(`/customers/${created.body.id}`)).set(tenant.as('test'));
    expect(sameMode.body).toMatchObject({ id: created.body.id, livemode: false });
  });

  it('never shows one application the records of another', async () => {
    const other = await createTenant(t);
    const mine = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Mine' });
    const res = await t.http.get(other.path(`/customers/${mine.body.id}`)).set(other.as('test'));
    expect(res.status).toBe(404);
  });

  it('answers malformed JSON, a 2 MiB body, a wrong content type and an unknown route with error objects', async () => {
    const malformed = await t.http
      .post(tenant.path('/customers'))
      .set(tenant.as('test', { 'Content-Type': 'application/json' }))
      .send('{"name": ');
    expect(malformed.status).toBe(400);
    expectErrorObject(malformed.body, 'E2001');

    const huge = await t.http
      .post(tenant.path('/customers'))
      .set(tenant.as('test', { 'Content-Type': 'application/json' }))
      .send(JSON.stringify({ name: 'x', metadata: { blob: 'a'.repeat(2 * 1024 * 1024) } }));
    expect(huge.status).toBe(413);
    expectErrorObject(huge.body, 'E2003');

    const text = await t.http
      .post(tenant.path('/customers'))
      .set(tenant.as('test', { 'Content-Type': 'text/plain' }))
      .send('name=x');
    expect(text.status).toBe(415);
    expectErrorObject(text.body, 'E2002');

    const unknown = await t.http.get('/api/v1/whatever/nothing/here');
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4040');
    expect(unknown.headers['content-type']).toMatch(/application\/json/);
  });

  it('names the offending parameter on validation failures', async () => {
    const res = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ email: 'not-an-email' });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E2000');
    expect(res.body.message).toContain('email');
    const extra = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ colour: 'red' });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toContain('colour');
  });

  it('echoes a sane X-Request-Id and replaces an insane one', async () => {
    const sane = await t.http.get(tenant.path('/errors/catalog')).set({ 'X-Request-Id': 'client-req-12345' });
    expect(sane.body.request_id).toBe('client-req-12345');
    const insane = await t.http.get(tenant.path('/errors/catalog')).set({ 'X-Request-Id': '<script>' });
    expect(insane.body.request_id).not.toBe('<script>');
  });

  it('serves health probes outside the base path', async () => {
    expect((await t.http.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await t.http.get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it('serves the OpenAPI document with the three security schemes', async () => {
    const res = await t.http.get('/docs-json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(['bearer', 'secret_key', 'session']);
    expect(res.body.paths['/api/v1/{app}/platform/wallet/errors/catalog']).toBeDefined();
  });
});
