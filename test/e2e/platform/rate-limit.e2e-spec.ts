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

describe('the client address', () => {
  const badKey = () => `Basic ${Buffer.from(`sk_test_${randomBytes(24).toString('base64url')}:`).toString('base64')}`;
  const badToken = () => `Bearer wat_${randomBytes(24).toString('base64url')}`;
  const forwardedFor = (i: number) => `198.51.100.${i % 250}, 203.0.113.${(i * 7) % 250}`;

  describe('with no trusted proxy (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp({ env: { RATE_LIMIT: '20', RATE_LIMIT_WINDOW_MS: '60000' } });
    });
    afterAll(async () => {
      await t.close();
    });

    it('ignores X-Forwarded-For: bad credentials from loopback with the header rotated are throttled after 5', async () => {
      const tenant = await createTenant(t);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await t.http
          .get(tenant.path('/customers'))
          .set({ 'X-Test-Mode': 'true', 'X-Country': 'TH', 'X-Forwarded-For': forwardedFor(i) })
          .set('Authorization', badToken());
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    });

    it('never refuses a valid key because of failures from its address, before or after their budget is spent', async () => {
      t.clock.advance(60_000); // a window of its own: the test above spent this address's budget
      const tenant = await createTenant(t);
      const path = tenant.path('/customers');
      const bad = () => t.http.get(path).set({ 'X-Test-Mode': 'true', 'X-Country': 'TH', Authorization: badKey() });
      const failures: number[] = [];
      for (let i = 0; i < 3; i++) failures.push((await bad()).status);
      const between = await t.http.get(path).set(tenant.as('test'));
      for (let i = 0; i < 7; i++) failures.push((await bad()).status);
      expect(between.status).toBe(200);
      expect(failures).toEqual([...Array(5).fill(401), ...Array(5).fill(429)]);
      // The address's budget is spent: every valid key from it is judged by its own rate limit (20) alone.
      const valid = await Promise.all(Array.from({ length: 10 }, () => t.http.get(path).set(tenant.as('test'))));
      expect(valid.map((r) => r.status)).toEqual(Array(10).fill(200));
      const live = await t.http.get(path).set(tenant.as('live'));
      expect(live.status).toBe(200);
      expect((await bad()).status).toBe(429);
    });
  });

  describe('with TRUSTED_PROXIES naming loopback', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp({
        env: { RATE_LIMIT: '20', RATE_LIMIT_WINDOW_MS: '60000', TRUSTED_PROXIES: '127.0.0.0/8,::1' },
      });
    });
    afterAll(async () => {
      await t.close();
    });

    it("counts failures per forwarded client address: one client's spent budget leaves another's whole", async () => {
      const tenant = await createTenant(t);
      const from = (client: string) =>
        t.http
          .get(tenant.path('/customers'))
          .set({ 'X-Test-Mode': 'true', 'X-Country': 'TH', 'X-Forwarded-For': client, Authorization: badToken() });
      const first: number[] = [];
      for (let i = 0; i < 7; i++) first.push((await from('198.51.100.7')).status);
      expect(first).toEqual([...Array(5).fill(401), 429, 429]);
      // A spoofed left-most entry does not help: the address the proxy saw is the right-most one.
      expect((await from('192.0.2.1, 198.51.100.7')).status).toBe(429);
      const second: number[] = [];
      for (let i = 0; i < 5; i++) second.push((await from('198.51.100.8')).status);
      expect(second).toEqual(Array(5).fill(401));
    });
  });
});
