import { randomBytes } from 'node:crypto';
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

describe('failed authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ env: { RATE_LIMIT: '20', RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const randomKey = () => `sk_test_${randomBytes(24).toString('base64url')}`;

  it('is throttled per client address: 60 unauthenticated requests with RATE_LIMIT=20 see 429 E2429 with Retry-After', async () => {
    const tenant = await createTenant(t);
    const path = tenant.path('/customers');
    const requests = Array.from({ length: 60 }, (_, i) => {
      const req = t.http.get(path).set({ 'X-Test-Mode': 'true', 'X-Country': 'TH' });
      if (i % 3 === 1) req.set('Authorization', `Basic ${Buffer.from(`${randomKey()}:`).toString('base64')}`);
      if (i % 3 === 2) req.set('Authorization', `Bearer wat_${randomBytes(24).toString('base64url')}`);
      return req;
    });
    const responses = await Promise.all(requests);
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // A stricter budget than the authenticated limit of 20: a quarter of it, exact although all 60 race
    // (requests already being checked when the budget runs out are answered 429, not 401).
    expect(statuses.filter((s) => s === 401).length).toBe(5);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(30);
    for (const res of limited) {
      expectErrorObject(res.body, 'E2429');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }

    t.clock.advance(60_000);
    expect((await t.http.get(path).set(tenant.as('test'))).status).toBe(200);
  });

  it('is throttled per key prefix too, and authenticated traffic keeps its own budget', async () => {
    const tenant = await createTenant(t);
    const path = tenant.path('/customers');
    const wrong = `${tenant.keys.test.slice(0, 20)}${'x'.repeat(tenant.keys.test.length - 20)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await t.http
        .get(path)
        .set({ ...tenant.as('test'), Authorization: `Basic ${Buffer.from(`${wrong}:`).toString('base64')}` });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    t.clock.advance(60_000);
    const ok = await Promise.all(Array.from({ length: 10 }, () => t.http.get(path).set(tenant.as('test'))));
    expect(ok.map((r) => r.status)).toEqual(Array(10).fill(200));
  });
});
