import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Request, Route } from 'playwright-core';
import { launchBrowser, sentHeaders } from '../../support/browser.js';
import { fakeOpn, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { CARDS, createCheckout, createPaymentIntent, expectLedgerInvariants } from '../../factories/checkout.js';

/**
 * Issue 15, live card entry: a live TH checkout served by Opn (COLLECTION_PROVIDERS_LIVE=TH=opn,
 * OPN_BASE_URL at the fake Opn on loopback) in Debian's Chromium. The page loads Omise.js from
 * cdn.omise.co; the test serves a local stand-in for it (page.route) whose createToken posts the
 * card to https://vault.omise.co/tokens, as Omise.js does, and the test forwards that request to
 * the fake Opn's POST /tokens. So the card number leaves the page only for Opn's origin; the
 * service gets the tokn_… . Opn answers the charge pending with authorize_uri (3-D Secure): the
 * page follows it to a stand-in authorize page, which sends the payer to return_uri, where the
 * service reads the charge back from Opn and completes the checkout.
 */
const OPN_LIVE = { secret: 'skey_5fakeopnlivesecret000', public: 'pkey_5fakeopnlivepublic000' };
const AUTHORIZE_ORIGIN = 'https://api.omise.co';

/** The stand-in for https://cdn.omise.co/omise.js: Omise.setPublicKey and Omise.createToken('card', …, cb). */
const FAKE_OMISE_JS = `
window.Omise = (() => {
  let key = null;
  return {
    setPublicKey(value) { key = value; },
    createToken(type, card, callback) {
      const body = new URLSearchParams();
      for (const [name, value] of Object.entries(card)) body.append(type + '[' + name + ']', String(value));
      fetch('https://vault.omise.co/tokens', {
        method: 'POST',
        headers: { Authorization: 'Basic ' + btoa(key + ':'), 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      }).then(async (response) => callback(response.status, await response.json()))
        .catch((error) => callback(0, { object: 'error', message: String(error) }));
    },
  };
})();
`;

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'POST',
};

describe('live card entry with Omise.js and the 3-D Secure return (fake Opn on loopback)', () => {
  let opn: FakeProvider;
  let t: TestApp;
  let test: TestApp;
  let browser: Browser;
  let tenant: Tenant;
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n += 1)}`.replace(/[^0-9a-z]/g, '');

  beforeAll(async () => {
    opn = await fakeOpn(OPN_LIVE.secret, OPN_LIVE.public).start();
    t = await startApp({
      listen: true,
      rateLimit: false,
      env: {
        COLLECTION_PROVIDERS_LIVE: 'TH=opn',
        OPN_SECRET_KEY_LIVE: OPN_LIVE.secret,
        OPN_PUBLIC_KEY_LIVE: OPN_LIVE.public,
        OPN_BASE_URL: opn.baseUrl,
      },
    });
    browser = await launchBrowser();
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await browser?.close();
    await t?.close();
    await test?.close();
    await opn?.stop();
  });

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('live'));
  const onTestServer = (url: string) => {
    const u = new URL(url);
    return `${t.url}${u.pathname}${u.search}${u.hash}`;
  };
  const successUrl = () => `${t.url}/healthz?checkout={CHECKOUT_ID}`;

  /** A page whose Omise.js and vault.omise.co are the stand-ins, and whose every request is kept. */
  async function livePage(): Promise<{ page: Page; requests: Request[] }> {
    const page = await browser.newPage();
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.route('https://cdn.omise.co/omise.js', (route) =>
      route.fulfill({ status: 200, contentType: 'application/javascript', body: FAKE_OMISE_JS }),
    );
    await page.route('https://vault.omise.co/**', async (route: Route) => {
      const request = route.request();
      if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: CORS });
      const answer = await fetch(`${opn.baseUrl}${new URL(request.url()).pathname}`, {
        method: request.method(),
        headers: {
          authorization: (await request.allHeaders()).authorization ?? '',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: request.postData() ?? undefined,
      });
      await route.fulfill({
        status: answer.status,
        headers: { ...CORS, 'content-type': 'application/json' },
        body: await answer.text(),
      });
    });
    // The issuer's 3-D Secure page: one button that sends the payer to the charge's return_uri
    // (on PUBLIC_URL, which the test server stands for).
    await page.route(`${AUTHORIZE_ORIGIN}/payments/**`, async (route) => {
      const back = onTestServer(opn.last('POST /charges').form.return_uri);
      await route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: `<!doctype html><title>3-D Secure</title><a id="authenticate" href="${back}">Authenticate</a>`,
      });
    });
    return { page, requests };
  }

  async function fillCard(page: Page, number: string) {
    await page.getByLabel('Name on card').fill('Somchai Prasert');
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry').fill('12/34');
    await page.getByLabel('CVC').fill('123');
  }

  /** Opn's answers for one charge: the token, the charge pending 3-D Secure, then `after` when read back. */
  function opnAnswers(after: 'charge_successful' | 'charge_declined') {
    const token = `tokn_5live${unique()}`;
    const reference = `chrg_5live${unique()}`;
    const authorize = `${AUTHORIZE_ORIGIN}/payments/paym_5live${unique()}/authorize`;
    opn.on('POST /tokens', { status: 200, fixture: 'token', patch: { id: token, livemode: true } });
    opn.on('POST /charges', {
      status: 200,
      fixture: 'charge_3ds_pending',
      patch: { id: reference, livemode: true, authorize_uri: authorize },
    });
    opn.on(`GET /charges/${reference}`, { status: 200, fixture: after, patch: { id: reference, livemode: true } });
    return { token, reference, authorize };
  }

  async function liveCheckout() {
    const pi = await createPaymentIntent(t, tenant, {}, 'live');
    const checkout = await createCheckout(
      t,
      tenant,
      {
        target_type: 'payment_intent',
        target_id: pi.id,
        success_url: successUrl(),
        cancel_url: `${t.url}/healthz?canceled=1`,
      },
      'live',
    );
    return { pi, checkout };
  }

  it('tokenizes with Omise.js: the card number goes only to vault.omise.co; 3-D Secure returns and completes the checkout', async () => {
    const pan = CARDS.visa.replace(/\D/g, '');
    const carriesPan = (text: string | null | undefined) =>
      typeof text === 'string' && text.replace(/[\s-]|%20|\+/g, '').includes(pan);
    const { token, reference, authorize } = opnAnswers('charge_successful');
    const { pi, checkout } = await liveCheckout();
    const { page, requests } = await livePage();

    const opened = await page.goto(onTestServer(checkout.url));
    // The page's CSP allows Opn's origins and nothing else beyond its own.
    const csp = (await opened!.allHeaders())['content-security-policy'];
    expect(csp).toMatch(/script-src 'nonce-[^']+' https:\/\/cdn\.omise\.co;/);
    expect(csp).toContain("connect-src 'self' https://vault.omise.co;");
    expect(csp).toContain('frame-src https://cdn.omise.co https://vault.omise.co;');
    expect(csp).not.toContain('stripe');
    expect(await page.getByText('4242 4242 4242 4242').count()).toBe(0);

    await fillCard(page, CARDS.visa);
    await Promise.all([page.waitForURL(authorize), page.getByRole('button', { name: 'Pay', exact: true }).click()]);
    await Promise.all([
      page.waitForURL(`${t.url}/healthz?checkout=${checkout.id}`),
      page.locator('#authenticate').click(),
    ]);

    const seen = await Promise.all(
      requests.map(async (request) => ({
        method: request.method(),
        url: request.url(),
        headers: JSON.stringify(await sentHeaders(request)),
        body: request.postData(),
      })),
    );
    await page.close();

    // The card went to Opn's vault, with the public key, and nowhere else.
    const carrying = seen.filter((r) => [r.url, r.headers, r.body].some(carriesPan));
    expect(carrying.map((r) => `${r.method} ${r.url}`)).toEqual(['POST https://vault.omise.co/tokens']);
    const tokens = opn.last('POST /tokens');
    expect(tokens.form).toEqual({
      'card[name]': 'Somchai Prasert',
      'card[number]': pan,
      'card[expiration_month]': '12',
      'card[expiration_year]': '2034',
      'card[security_code]': '123',
    });
    expect(tokens.headers.authorization).toBe(`Basic ${Buffer.from(`${OPN_LIVE.public}:`).toString('base64')}`);
    // The service got the token only: one confirm, then the return route.
    const api = `${t.url}${tenant.path('')}`;
    const toApi = seen.filter((r) => r.url.startsWith(api));
    expect(toApi.map((r) => `${r.method} ${r.url.slice(api.length)}`)).toEqual([
      `POST /checkouts/${checkout.id}/confirm`,
    ]);
    expect(JSON.parse(toApi[0].body ?? '{}')).toEqual({ payment_method_type: 'card', token });
    const charged = opn.last('POST /charges');
    expect(charged.form).toMatchObject({ card: token, amount: expect.any(String), currency: 'thb' });
    const chargeId = charged.form['metadata[charge_id]'];
    expect(charged.form.return_uri).toMatch(new RegExp(`/provider_returns/opn/${chargeId}$`));
    expect(seen.some((r) => r.url === `${t.url}/provider_returns/opn/${chargeId}`)).toBe(true);
    expect(opn.requests.filter((r) => r.method === 'GET' && r.path === `/charges/${reference}`)).toHaveLength(1);

    const after = (await get(`/checkouts/${checkout.id}`)).body;
    expect(after).toMatchObject({ status: 'complete', payment_status: 'paid', charge_id: chargeId });
    expect((await get(`/charges/${chargeId}`)).body).toMatchObject({
      status: 'succeeded',
      provider: 'opn',
      reference_id: reference,
      livemode: true,
    });
    expect((await get(`/payment_intents/${pi.id}`)).body.status).toBe('succeeded');

    // Reloading the return URL applies nothing twice and does not ask Opn again.
    const again = await t.http.get(`/provider_returns/opn/${chargeId}`).set('Accept', 'text/html');
    expect({ status: again.status, location: again.headers.location }).toEqual({
      status: 303,
      location: `${t.url}/healthz?checkout=${checkout.id}`,
    });
    expect(opn.requests.filter((r) => r.method === 'GET' && r.path === `/charges/${reference}`)).toHaveLength(1);
    const succeeded = (await get(`/events?filter[type]=charge.succeeded&limit=100`)).body.data.filter(
      (e: { data: { object: { id: string } } }) => e.data.object.id === chargeId,
    );
    expect(succeeded).toHaveLength(1);

    // No log line of the service carries the card number.
    const dir = process.env.WALLET_TEST_LOG_DIR!;
    const text = readdirSync(dir)
      .filter((name) => name.startsWith('app-'))
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('\n');
    expect(carriesPan(text)).toBe(false);
  });

  it('a 3-D Secure that ends declined shows the hosted page again with the decline; the checkout stays open', async () => {
    const { authorize } = opnAnswers('charge_declined');
    const { checkout } = await liveCheckout();
    const { page } = await livePage();
    await page.goto(onTestServer(checkout.url));
    await fillCard(page, CARDS.visa);
    await Promise.all([page.waitForURL(authorize), page.getByRole('button', { name: 'Pay', exact: true }).click()]);
    const chargeId = opn.last('POST /charges').form['metadata[charge_id]'];
    await Promise.all([
      page.waitForURL(`${t.url}/provider_returns/opn/${chargeId}`),
      page.locator('#authenticate').click(),
    ]);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Your card was declined');
    // The page can be paid again: the form is there, with the session kept by the tab.
    expect(await page.getByRole('button', { name: 'Pay', exact: true }).isEnabled()).toBe(true);
    await page.close();
    expect((await get(`/charges/${chargeId}`)).body).toMatchObject({
      status: 'failed',
      failure_code: 'card_declined',
    });
    expect((await get(`/checkouts/${checkout.id}`)).body).toMatchObject({ status: 'open', payment_status: 'unpaid' });
  });

  it('test mode keeps the vault: no provider script and no provider origin in the page CSP', async () => {
    test = await startApp({ listen: true });
    const testTenant = await createTenant(test);
    const pi = await createPaymentIntent(test, testTenant);
    const checkout = await createCheckout(test, testTenant, { target_type: 'payment_intent', target_id: pi.id });
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const u = new URL(checkout.url);
    const opened = await page.goto(`${test.url}${u.pathname}${u.hash}`);
    const csp = (await opened!.allHeaders())['content-security-policy'];
    expect(csp).not.toMatch(/omise|stripe|frame-src/);
    expect(csp).toContain("connect-src 'self';");
    expect(await page.getByLabel('Name on card').count()).toBe(0);
    await page.close();
    expect(requests.filter((url) => !url.startsWith(test.url))).toEqual([]);
  });
});
