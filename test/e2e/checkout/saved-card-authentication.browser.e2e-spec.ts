import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../support/browser.js';
import { fakeOpn, opnFixture, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { asSession, createCheckout, createCustomer, expectLedgerInvariants } from '../../factories/checkout.js';

/**
 * Issue 34: the saved card on the hosted page (docs/COLLECTION.md, "Saved payment methods"). A live
 * customer's Visa •••• 3155 (4000 0025 0000 3155, saved through a setup checkout at the fake Opn)
 * is charged off-session; Opn answers with 3-D Secure, so the intent is `requires_action` with a
 * hosted checkout link. In Debian's Chromium: the link's page offers "Pay with Visa •••• 3155",
 * which confirms with that saved card; Opn asks for 3-D Secure again (on-session), the page follows
 * authorize_uri to a stand-in issuer page, the customer authenticates, the return route reads the
 * charge back from Opn and the intent succeeds.
 */
const OPN_LIVE = { secret: 'skey_5fakeopnlivesecret000', public: 'pkey_5fakeopnlivepublic000' };
const AUTHORIZE = 'https://api.omise.co/payments/paym_5savedcard3155/authorize';
const ON_SESSION = 'chrg_5savedcardonsession00001';

describe('the saved card on the hosted page of an off-session payment that needs authentication', () => {
  let opn: FakeProvider;
  let t: TestApp;
  let browser: Browser;
  let tenant: Tenant;

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
    await opn?.stop();
  });

  const live = (method: 'get' | 'post', path: string) => t.http[method](tenant.path(path)).set(tenant.as('live'));
  const onTestServer = (url: string) => {
    const u = new URL(url);
    return `${t.url}${u.pathname}${u.search}${u.hash}`;
  };

  /** A live customer whose 4000 0025 0000 3155 Opn saved (Visa •••• 3155). */
  async function customerWith3155() {
    const customer = await createCustomer(t, tenant, 'live', { email: 'somchai@example.com' });
    const setup = await createCheckout(
      t,
      tenant,
      { mode: 'setup', target_type: 'customer', target_id: customer.id },
      'live',
    );
    const body = opnFixture<{ cards: { data: Array<Record<string, unknown>> } }>('customer_with_card');
    body.cards.data[0] = { ...body.cards.data[0], last_digits: '3155', livemode: true };
    opn.on('POST /customers', { status: 200, json: { ...body, livemode: true } });
    const saved = await t.http
      .post(tenant.path(`/checkouts/${setup.id}/confirm`))
      .set(asSession(setup.session))
      .send({ payment_method_type: 'card', token: 'tokn_5fzlivetoken3155000001' });
    expect({ status: saved.status, last4: saved.body.payment_method?.last4 }).toEqual({ status: 200, last4: '3155' });
    return { customer, paymentMethod: saved.body.payment_method as { id: string } };
  }

  it('off-session 3155 -> requires_action -> the link -> "Pay with Visa •••• 3155" -> authenticate -> succeeded', async () => {
    const { customer, paymentMethod } = await customerWith3155();
    opn.on('POST /charges', { status: 200, fixture: 'charge_3ds_pending', patch: { livemode: true } });
    const offSession = await live('post', '/payment_intents').send({
      amount: 100000,
      currency: 'THB',
      customer_id: customer.id,
      payment_method: paymentMethod.id,
      off_session: true,
      confirm: true,
    });
    expect(offSession.body).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url' } });
    const link = offSession.body.next_action.redirect_to_url.url as string;
    const path = new URL(link).pathname;

    // The same button in Thai, like the rest of the page.
    const thai = await t.http.get(`${path}?locale=th`);
    expect(thai.text).toContain('ชำระด้วย Visa •••• 3155');

    // Opn's answers on the page: the saved card needs 3-D Secure, then it is authorized.
    opn.on('POST /charges', {
      status: 200,
      fixture: 'charge_3ds_pending',
      patch: { id: ON_SESSION, livemode: true, authorize_uri: AUTHORIZE },
    });
    opn.on(`GET /charges/${ON_SESSION}`, {
      status: 200,
      fixture: 'charge_successful',
      patch: { id: ON_SESSION, livemode: true },
    });
    const page = await browser.newPage();
    await page.route(`${AUTHORIZE}`, async (route) => {
      const back = onTestServer(opn.last('POST /charges').form.return_uri);
      await route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: `<!doctype html><title>3-D Secure</title><a id="authenticate" href="${back}">Authenticate</a>`,
      });
    });
    await page.goto(onTestServer(link));
    const button = page.getByRole('button', { name: 'Pay with Visa •••• 3155' });
    await button.waitFor();
    // The typed card stays available below it.
    expect(await page.getByText('Or pay with another card').count()).toBe(1);
    await Promise.all([page.waitForURL(AUTHORIZE), button.click()]);
    // The issuer sends the customer back to the return route, which reads the charge from Opn.
    await Promise.all([page.waitForURL((url) => url.href.startsWith(t.url)), page.locator('#authenticate').click()]);
    await page.waitForLoadState();
    await page.close();

    // The page confirmed with the saved card, never a card number.
    const sent = opn.last('POST /charges');
    expect(sent.form).toMatchObject({
      customer: 'cust_test_5fzcustomer000000001',
      card: 'card_test_5fzsavedcard0000000001',
    });
    const intent = (await live('get', `/payment_intents/${offSession.body.id}`)).body;
    expect(intent).toMatchObject({ status: 'succeeded', next_action: null, amount_received: 100000 });
    const charge = (await live('get', `/charges/${intent.latest_charge}`)).body;
    expect(charge).toMatchObject({
      status: 'succeeded',
      reference_id: ON_SESSION,
      payment_method_id: paymentMethod.id,
    });
  });

  it('offers no saved card on an ordinary checkout of the customer’s intent', async () => {
    const { customer } = await customerWith3155();
    const intent = await live('post', '/payment_intents').send({
      amount: 5000,
      currency: 'THB',
      customer_id: customer.id,
    });
    expect(intent.status).toBe(200);
    const checkout = await createCheckout(
      t,
      tenant,
      { target_type: 'payment_intent', target_id: intent.body.id },
      'live',
    );
    const page = await t.http.get(new URL(checkout.url as string).pathname);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('id="pay-saved-card"');
  });
});
