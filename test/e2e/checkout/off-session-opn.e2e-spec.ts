import { createCustomer, createCheckout, asSession } from '../../factories/checkout.js';
import { fakeOpn, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Saved cards in live mode through the real Opn adapter, at the local fake Opn (test/fixtures/opn/):
 * a setup checkout saves the Omise.js token to an Opn customer, then off-session payment intents
 * charge that customer's card: success, decline, and 3-D Secure (requires_action, whose hosted page
 * sends the customer to Opn's authorize_uri with the same card). docs/COLLECTION.md, "Saved payment methods".
 */
const OPN_LIVE = { secret: 'skey_5fakeopnlivesecret000', public: 'pkey_5fakeopnlivepublic000' };
const TOKEN = 'tokn_5fzlivetoken0000000001';
const CUST = 'cust_test_5fzcustomer000000001';
const CARD = 'card_test_5fzsavedcard0000000001';

describe('saved cards and off-session payments in live mode at the fake Opn', () => {
  let opn: FakeProvider;
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    opn = await fakeOpn(OPN_LIVE.secret).start();
    t = await startApp({
      rateLimit: false,
      env: {
        COLLECTION_PROVIDERS_LIVE: 'TH=opn',
        OPN_SECRET_KEY_LIVE: OPN_LIVE.secret,
        OPN_PUBLIC_KEY_LIVE: OPN_LIVE.public,
        OPN_BASE_URL: opn.baseUrl,
      },
    });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await t?.close();
    await opn?.stop();
  });
  beforeEach(() => opn.reset());

  const live = (method: 'get' | 'post', path: string) => t.http[method](tenant.path(path)).set(tenant.as('live'));

  /** A live customer with the Omise.js token saved to a new Opn customer through a setup checkout. */
  async function customerWithOpnCard() {
    const customer = await createCustomer(t, tenant, 'live', { email: 'somchai@example.com' });
    const checkout = await createCheckout(
      t,
      tenant,
      { mode: 'setup', target_type: 'customer', target_id: customer.id },
      'live',
    );
    opn.on('POST /customers', { status: 200, fixture: 'customer_with_card', patch: { livemode: true } });
    const saved = await t.http
      .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
      .set(asSession(checkout.session))
      .send({ payment_method_type: 'card', token: TOKEN });
    expect({ status: saved.status, body: saved.body }).toMatchObject({ status: 200 });
    return { customer, checkout, paymentMethod: saved.body.payment_method };
  }

  it('a setup checkout saves the Omise.js token to a new Opn customer', async () => {
    const { customer, paymentMethod } = await customerWithOpnCard();
    expect(paymentMethod).toMatchObject({
      livemode: true,
      status: 'attached',
      provider: 'opn',
      reference_id: CARD,
      brand: 'visa',
      last4: '4242',
      card: { exp_month: 12, exp_year: 2034, funding: 'credit' },
      customer_id: customer.id,
    });
    const sent = opn.last('POST /customers');
    expect(sent.form).toMatchObject({
      card: TOKEN,
      email: 'somchai@example.com',
      'metadata[customer_id]': customer.id,
    });
    expect(sent.headers['idempotency-key']).toMatch(/^setup:/);
  });

  it('off-session: success, decline and 3-D Secure with the Opn customer and card', async () => {
    const { customer, paymentMethod } = await customerWithOpnCard();
    const charge = (body: object = {}) =>
      live('post', '/payment_intents').send({
        amount: 100000,
        currency: 'THB',
        customer_id: customer.id,
        payment_method: paymentMethod.id,
        off_session: true,
        confirm: true,
        ...body,
      });

    opn.on('POST /charges', { status: 200, fixture: 'charge_successful', patch: { livemode: true } });
    const ok = await charge();
    expect(ok.body).toMatchObject({ status: 'succeeded', livemode: true, amount_received: 100000 });
    expect(opn.last('POST /charges').form).toMatchObject({ customer: CUST, card: CARD, amount: '100000' });

    opn.on('POST /charges', { status: 200, fixture: 'charge_declined', patch: { livemode: true } });
    const declined = await charge();
    expect(declined.body).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
    });

    opn.on('POST /charges', { status: 200, fixture: 'charge_3ds_pending', patch: { livemode: true } });
    const auth = await charge();
    expect(auth.body).toMatchObject({
      status: 'requires_action',
      last_payment_error: { code: 'authentication_required' },
      next_action: { type: 'redirect_to_url' },
    });
    // On the page, the same saved card: Opn asks for 3-D Secure, the customer is sent to authorize_uri.
    const url = new URL(auth.body.next_action.redirect_to_url.url);
    const session = new URLSearchParams(url.hash.slice(1)).get('session')!;
    const checkoutId = url.pathname.split('/').pop()!;
    opn.on('POST /charges', {
      status: 200,
      fixture: 'charge_3ds_pending',
      patch: { id: 'chrg_test_5f3dsonsession0000001', livemode: true },
    });
    const onPage = await t.http
      .post(tenant.path(`/checkouts/${checkoutId}/confirm`))
      .set(asSession(session))
      .send({ payment_method_type: 'card', payment_method: paymentMethod.id });
    expect(onPage.status).toBe(200);
    expect(onPage.body.charge).toMatchObject({
      status: 'pending',
      next_action: [{ type: 'redirect_to_url', url: expect.stringMatching(/^https:\/\//) }],
    });
  });

  it('detach removes the card from the Opn customer', async () => {
    const { paymentMethod } = await customerWithOpnCard();
    opn.on(`DELETE /customers/${CUST}/cards/${CARD}`, { status: 200, fixture: 'card_deleted' });
    const detached = await live('post', `/payment_methods/${paymentMethod.id}/detach`);
    expect(detached.body).toMatchObject({ status: 'detached' });
    expect(opn.last(`DELETE /customers/${CUST}/cards/${CARD}`).method).toBe('DELETE');
  });

  it('an Opn refusal of the token is E7008, Opn down is E5002', async () => {
    const customer = await createCustomer(t, tenant, 'live');
    const open = async () =>
      createCheckout(t, tenant, { mode: 'setup', target_type: 'customer', target_id: customer.id }, 'live');
    const confirmSetup = (checkout: { id: string; session: string }) =>
      t.http
        .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
        .set(asSession(checkout.session))
        .send({ payment_method_type: 'card', token: TOKEN });
    opn.on('POST /customers', { status: 400, fixture: 'error_invalid_card' });
    const refused = await confirmSetup(await open());
    expectErrorObject(refused.body, 'E7008');
    opn.on('POST /customers', { status: 503, fixture: 'error_service_not_found' });
    expectErrorObject((await confirmSetup(await open())).body, 'E5002');
  });
});
