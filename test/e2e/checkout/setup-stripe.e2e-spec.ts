import { asSession, createCheckout, createCustomer } from '../../factories/checkout.js';
import { fakeStripe, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Saving a card in live mode through the real Stripe adapter at the local fake Stripe
 * (test/fixtures/stripe/): a setup checkout's page asks its card_intent endpoint for a SetupIntent
 * (the Stripe customer made on the first card), Stripe.js confirms it (`stripe.confirmSetup`), the
 * page sends the `seti_…` to the confirm endpoint, and the service reads it back from Stripe and
 * records the attached PaymentMethod, which an off-session payment intent then charges.
 * docs/COLLECTION.md, "Saved payment methods".
 */
const STRIPE_LIVE = { secret: 'sk_live_51FakeStripeLiveSecret0000', publishable: 'pk_live_51FakeStripeLivePublic0000' };
const SETI = 'seti_1PgafyB7WZ01zgkWsetup001';
const CUS = 'cus_QXfakeStripeCust1';
const PM = 'pm_1PgafyB7WZ01zgkWsavedcard';

describe('saving a card with a Stripe SetupIntent in live mode (fake Stripe on loopback)', () => {
  let stripe: FakeProvider;
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    stripe = await fakeStripe(STRIPE_LIVE.secret).start();
    t = await startApp({
      rateLimit: false,
      env: {
        COLLECTION_PROVIDERS_LIVE: 'TH=stripe',
        STRIPE_SECRET_KEY_LIVE: STRIPE_LIVE.secret,
        STRIPE_PUBLISHABLE_KEY_LIVE: STRIPE_LIVE.publishable,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
      },
    });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.stop();
  });
  beforeEach(() => stripe.reset());

  const live = (method: 'get' | 'post', path: string) => t.http[method](tenant.path(path)).set(tenant.as('live'));

  async function setupCheckout() {
    const customer = await createCustomer(t, tenant, 'live', { email: 'somchai@example.com' });
    const checkout = await createCheckout(
      t,
      tenant,
      { mode: 'setup', target_type: 'customer', target_id: customer.id },
      'live',
    );
    const path = new URL(checkout.url as string).pathname;
    const ours = { checkout_id: checkout.id, customer_id: customer.id, application_id: tenant.applicationId };
    return { customer, checkout, path, ours };
  }

  const confirmSetup = (checkout: { id: string; session: string }, token: string) =>
    t.http
      .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
      .set(asSession(checkout.session))
      .send({ payment_method_type: 'card', token });

  it('page: SetupIntent on a new Stripe customer; confirm: the card read back from Stripe, saved and charged off-session', async () => {
    const { customer, checkout, path, ours } = await setupCheckout();
    const page = await t.http.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="payment-element"');

    stripe.on('POST /v1/customers', { status: 200, fixture: 'customer', patch: { livemode: true } });
    stripe.on('POST /v1/setup_intents', {
      status: 200,
      fixture: 'setup_intent_requires_payment_method',
      patch: { livemode: true, metadata: ours },
    });
    const ask = () => t.http.post(`${path}/card_intent`).set('X-Session-Token', checkout.session);
    const intent = await ask();
    expect({ status: intent.status, body: intent.body }).toEqual({
      status: 200,
      body: { object: 'card_intent', client_secret: `${SETI}_secret_QXfakeSetupSecret000`, setup: true },
    });
    expect(stripe.last('POST /v1/customers').form).toMatchObject({
      email: 'somchai@example.com',
      'metadata[customer_id]': customer.id,
    });
    const created = stripe.last('POST /v1/setup_intents');
    expect(created.form).toMatchObject({
      customer: CUS,
      usage: 'off_session',
      'allowed_payment_method_types[0]': 'card',
      'metadata[checkout_id]': checkout.id,
    });
    expect(created.headers['idempotency-key']).toBe(`setup:${checkout.id}`);
    // Nothing recorded yet: the checkout is still open, no card saved.
    expect((await live('get', `/checkouts/${checkout.id}`)).body).toMatchObject({ status: 'open' });
    expect((await live('get', `/customers/${customer.id}/payment_methods`)).body.data).toHaveLength(0);

    // Stripe.js confirmed the SetupIntent; the page sends its id and the service reads it back.
    stripe.on(`GET /v1/setup_intents/${SETI}`, {
      status: 200,
      fixture: 'setup_intent_succeeded',
      patch: { livemode: true, metadata: ours },
    });
    const saved = await confirmSetup(checkout, SETI);
    expect({ status: saved.status, body: saved.body }).toMatchObject({
      status: 200,
      body: {
        object: 'checkout_setup',
        checkout: { status: 'complete', payment_status: 'no_payment_required' },
        payment_method: {
          livemode: true,
          status: 'attached',
          provider: 'stripe',
          reference_id: PM,
          brand: 'visa',
          last4: '4242',
          card: { exp_month: 12, exp_year: 2034, funding: 'credit' },
          customer_id: customer.id,
        },
      },
    });
    const pmId = saved.body.payment_method.id as string;
    expect((await live('get', `/customers/${customer.id}`)).body.invoice_settings.default_payment_method).toBe(pmId);

    // The saved card is charged off-session on the Stripe customer it was attached to.
    stripe.on('POST /v1/payment_intents', {
      status: 200,
      fixture: 'payment_intent_succeeded',
      patch: { livemode: true },
    });
    const paid = await live('post', '/payment_intents').send({
      amount: 100000,
      currency: 'THB',
      customer_id: customer.id,
      payment_method: pmId,
      off_session: true,
      confirm: true,
    });
    expect(paid.body).toMatchObject({ status: 'succeeded', livemode: true });
    expect(stripe.last('POST /v1/payment_intents').form).toMatchObject({
      customer: CUS,
      payment_method: PM,
      off_session: 'true',
    });
  });

  it('a second card of the same customer goes to the same Stripe customer (no second cus_)', async () => {
    const first = await setupCheckout();
    stripe.on('POST /v1/customers', { status: 200, fixture: 'customer', patch: { livemode: true } });
    stripe.on('POST /v1/setup_intents', { status: 200, fixture: 'setup_intent_requires_payment_method' });
    await t.http.post(`${first.path}/card_intent`).set('X-Session-Token', first.checkout.session).expect(200);
    stripe.on(`GET /v1/setup_intents/${SETI}`, {
      status: 200,
      fixture: 'setup_intent_succeeded',
      patch: { metadata: first.ours },
    });
    expect((await confirmSetup(first.checkout, SETI)).status).toBe(200);

    const second = await createCheckout(
      t,
      tenant,
      { mode: 'setup', target_type: 'customer', target_id: first.customer.id },
      'live',
    );
    stripe.reset();
    stripe.on('POST /v1/setup_intents', { status: 200, fixture: 'setup_intent_requires_payment_method' });
    const path = new URL(second.url as string).pathname;
    await t.http.post(`${path}/card_intent`).set('X-Session-Token', second.session).expect(200);
    expect(stripe.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/setup_intents']);
    expect(stripe.last('POST /v1/setup_intents').form.customer).toBe(CUS);
  });

  it('never takes the browser’s word: another checkout’s, an unconfirmed or a declined SetupIntent is E7008, nothing saved', async () => {
    const { customer, checkout, ours } = await setupCheckout();
    const answers = [
      {
        fixture: 'setup_intent_succeeded',
        patch: { metadata: { ...ours, checkout_id: '01936f6a-0000-7000-8000-0000000000ff' } },
      },
      { fixture: 'setup_intent_requires_payment_method', patch: { metadata: ours } },
      { fixture: 'setup_intent_declined', patch: { metadata: ours } },
    ];
    for (const answer of answers) {
      stripe.on(`GET /v1/setup_intents/${SETI}`, { status: 200, ...answer });
      const res = await confirmSetup(checkout, SETI);
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E7008');
    }
    for (const token of ['tokn_test_5fzlivetoken', 'pm_1PgafyB7WZ01zgkWsavedcard']) {
      const res = await confirmSetup(checkout, token);
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E7008');
    }
    expect((await live('get', `/customers/${customer.id}/payment_methods`)).body.data).toHaveLength(0);
    expect((await live('get', `/checkouts/${checkout.id}`)).body.status).toBe('open');
  });

  it('Stripe not answering when the page asks for its SetupIntent is E5002', async () => {
    const { checkout, path } = await setupCheckout();
    stripe.on('POST /v1/customers', { status: 500, fixture: 'error_api_500' });
    const down = await t.http.post(`${path}/card_intent`).set('X-Session-Token', checkout.session);
    expect(down.status).toBe(502);
    expectErrorObject(down.body, 'E5002');
  });
});
