import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { connectedAccount, expectMasked, KBANK, ownAccount, storedRow } from '../../factories/payouts.js';

const MINUTE = 60_000;
const RETURN_URL = 'https://partner.example/payouts/done?x=1';
const REFRESH_URL = 'https://partner.example/payouts/new-link';

describe('bank account intents: hosted links with a one-time session', () => {
  let t: TestApp;
  let tenant: Tenant;
  let own: string;

  const createIntent = (body: object, headers = tenant.as('test')) =>
    t.http.post(tenant.path('/bank_account_intents')).set(headers).send(body);
  const withSession = (session: string, extra: Record<string, string> = {}) => ({
    'X-Session-Token': session,
    'X-Country': 'TH',
    'X-Test-Mode': 'true',
    ...extra,
  });
  const bookbank = (account: string) => ({
    account,
    type: 'bookbank',
    account_holder_name: 'Somchai Jaidee',
    target: 'THB',
    extra_fields: KBANK,
  });
  /** The link's path and query, as a browser on this server would request them. */
  const pagePath = (link: string) => {
    const url = new URL(link);
    return url.pathname + url.search;
  };

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    own = await ownAccount(t, tenant);
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await t.close();
  });

  it('answers session and link; the link carries the session in its fragment only', async () => {
    const res = await createIntent({
      account: own,
      return_url: RETURN_URL,
      refresh_url: REFRESH_URL,
      metadata: { a: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      session: expect.stringMatching(/^wss_/),
      link: expect.any(String),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'bank_account_intent',
      livemode: false,
      expires_at: expect.any(String),
    });
    const link = new URL(res.body.link);
    expect(link.pathname).toBe(`/connect/${tenant.slug}/bank_account_intents/${res.body.id}`);
    expect(link.search).toBe('?test_mode=true');
    expect(link.hash).toBe(`#session=${res.body.session}`);
    expect(new Date(res.body.expires_at).getTime() - t.clock.nowMs()).toBeGreaterThan(29 * MINUTE);

    const got = await t.http.get(tenant.path(`/bank_account_intents/${res.body.id}`)).set(tenant.as('test'));
    expect(got.body).toMatchObject({
      id: res.body.id,
      object: 'bank_account_intent',
      account: own,
      country: 'TH',
      status: 'open',
      bank_account: null,
      return_url: RETURN_URL,
      refresh_url: REFRESH_URL,
      metadata: { a: 1 },
    });
    expect(JSON.stringify(got.body)).not.toContain(res.body.session);
  });

  it('validates its fields: account, return_url and refresh_url required; absolute http(s) URLs', async () => {
    for (const [body, code, field] of [
      [{ return_url: RETURN_URL, refresh_url: REFRESH_URL }, 'E2000', 'account'],
      [{ account: own, refresh_url: REFRESH_URL }, 'E2000', 'return_url'],
      [{ account: own, return_url: RETURN_URL }, 'E2000', 'refresh_url'],
      [{ account: own, return_url: RETURN_URL, refresh_url: REFRESH_URL, metadata: 'x' }, 'E2000', 'metadata'],
      [{ account: own, return_url: '/relative', refresh_url: REFRESH_URL }, 'E6201', 'return_url'],
      [{ account: own, return_url: RETURN_URL, refresh_url: 'javascript:alert(1)' }, 'E6201', 'refresh_url'],
      [{ account: own, return_url: 'https://u:p@partner.example/', refresh_url: REFRESH_URL }, 'E6201', 'return_url'],
      [
        { account: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', return_url: RETURN_URL, refresh_url: REFRESH_URL },
        'E6101',
        'account',
      ],
    ] as const) {
      const res = await createIntent(body);
      expect([res.status, res.body.code]).toEqual([400, code]);
      expectErrorObject(res.body, code);
      expect(res.body.message).toContain(`"${field}"`);
    }
  });

  it('refuses a connected account whose KYB is not verified (E1304), accepts a verified one', async () => {
    const pending = await connectedAccount(t, tenant, 'pending');
    const refused = await createIntent({ account: pending, return_url: RETURN_URL, refresh_url: REFRESH_URL });
    expect(refused.status).toBe(403);
    expectErrorObject(refused.body, 'E1304');
    const verified = await connectedAccount(t, tenant, 'verified');
    const ok = await createIntent({ account: verified, return_url: RETURN_URL, refresh_url: REFRESH_URL });
    expect(ok.status).toBe(200);
    const created = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(withSession(ok.body.session))
      .send(bookbank(verified));
    expect(created.status).toBe(200);
    const got = await t.http.get(tenant.path(`/bank_accounts/${created.body.id}`)).set(tenant.as('test'));
    expect(got.body).toMatchObject({ account: verified, provider_status: 'not_applicable', intent: ok.body.id });
  });

  it('lets its session create exactly one bank account for its account, then completes the intent', async () => {
    const intent = (await createIntent({ account: own, return_url: RETURN_URL, refresh_url: REFRESH_URL })).body;
    const other = await connectedAccount(t, tenant, 'verified');
    const wrongAccount = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(withSession(intent.session))
      .send(bookbank(other));
    expect(wrongAccount.status).toBe(403);
    expectErrorObject(wrongAccount.body, 'E1300');

    const created = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(withSession(intent.session))
      .send(bookbank(own));
    expect(created.status).toBe(200);
    expectMasked(created.body, KBANK.accountNumber);
    expect(await storedRow(t, created.body.id)).toMatchObject({ intent_id: intent.id, provider_status: 'created' });

    const again = await t.http.post(tenant.path('/bank_accounts')).set(withSession(intent.session)).send(bookbank(own));
    expect(again.status).toBe(401);
    expectErrorObject(again.body, 'E1212');
    const got = await t.http.get(tenant.path(`/bank_account_intents/${intent.id}`)).set(tenant.as('test'));
    expect(got.body).toMatchObject({ status: 'completed', bank_account: created.body.id });
    expect(got.body.completed_at).toEqual(expect.any(String));
  });

  it('is valid for nothing else: other endpoints, other modes, other applications', async () => {
    const intent = (await createIntent({ account: own, return_url: RETURN_URL, refresh_url: REFRESH_URL })).body;
    const list = await t.http.get(tenant.path('/bank_accounts')).set(withSession(intent.session));
    expectErrorObject(list.body, 'E1200');
    const live = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(withSession(intent.session, { 'X-Test-Mode': 'false' }))
      .send(bookbank(own));
    expectErrorObject(live.body, 'E1300');
    const other = await createTenant(t);
    const elsewhere = await t.http
      .post(other.path('/bank_accounts'))
      .set(withSession(intent.session))
      .send(bookbank(await ownAccount(t, other)));
    expectErrorObject(elsewhere.body, 'E1300');
    const anotherIntent = await t.http
      .post(tenant.path('/bank_account_intents'))
      .set(withSession(intent.session))
      .send({});
    expectErrorObject(anotherIntent.body, 'E1200');
  });

  it('expires with its session after 30 minutes on the service clock', async () => {
    const intent = (await createIntent({ account: own, return_url: RETURN_URL, refresh_url: REFRESH_URL })).body;
    t.clock.advance(30 * MINUTE + 1000);
    const res = await t.http.post(tenant.path('/bank_accounts')).set(withSession(intent.session)).send(bookbank(own));
    expect(res.status).toBe(401);
    expectErrorObject(res.body, 'E1212');
    const got = await t.http.get(tenant.path(`/bank_account_intents/${intent.id}`)).set(tenant.as('test'));
    expect(got.body.status).toBe('expired');
  });

  it('serves the hosted page while open, and sends used or expired links to refresh_url', async () => {
    const intent = (await createIntent({ account: own, return_url: RETURN_URL, refresh_url: REFRESH_URL })).body;
    const page = await t.http.get(pagePath(intent.link));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'nonce-/);
    expect(page.headers['cache-control']).toBe('no-store');
    for (const label of ['>Bank<', '>Account number<', '>Account holder name<', 'Save bank account']) {
      expect(page.text).toContain(label);
    }
    expect(page.text).not.toContain(intent.session);

    t.clock.advance(31 * MINUTE);
    const expired = await t.http.get(pagePath(intent.link));
    expect(expired.status).toBe(200);
    expect(expired.text).toContain(`location.replace(${JSON.stringify(REFRESH_URL)})`);
    expect(expired.text).not.toContain('Save bank account');
    t.clock.reset();

    const used = (await createIntent({ account: own, return_url: RETURN_URL, refresh_url: REFRESH_URL })).body;
    await t.http.post(tenant.path('/bank_accounts')).set(withSession(used.session)).send(bookbank(own));
    const again = await t.http.get(pagePath(used.link));
    expect(again.text).toContain(`location.replace(${JSON.stringify(REFRESH_URL)})`);

    for (const path of [
      `/connect/${tenant.slug}/bank_account_intents/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b?test_mode=true`,
      `/connect/${tenant.slug}/bank_account_intents/${intent.id}`,
      `/connect/no-such-app/bank_account_intents/${intent.id}?test_mode=true`,
      `/connect/${tenant.slug}/bank_account_intents/${intent.id}?test_mode=maybe`,
    ]) {
      const res = await t.http.get(path);
      expect(res.status).toBe(404);
    }
  });
});
