import { createTenant, expectErrorObject, startApp, type TestApp } from '../../support/harness.js';

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ env: { RATE_LIMIT: '5', RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 429 with Retry-After once a credential exceeds its limit, per credential, until the window passes', async () => {
    const tenant = await createTenant(t);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await t.http.get(tenant.path('/customers')).set(tenant.as('test'))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await t.http.get(tenant.path('/customers')).set(tenant.as('test'));
    expect(limited.status).toBe(429);
    expectErrorObject(limited.body, 'E2429');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    const liveKey = await t.http.get(tenant.path('/customers')).set(tenant.as('live'));
    expect(liveKey.status).toBe(200);
    expect((await t.http.get('/healthz')).status).toBe(200);

    t.clock.advance(60_000);
    expect((await t.http.get(tenant.path('/customers')).set(tenant.as('test'))).status).toBe(200);
  });
});
