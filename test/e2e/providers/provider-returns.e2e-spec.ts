import { confirm, createCheckout, createPaymentIntent } from '../../factories/checkout.js';
import { fakeOpn, fakeStripe, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Issue 15: GET /provider_returns/{opn|stripe}/{charge_id}, where the payer's browser lands after
 * 3-D Secure, at the HTTP level (the Opn flow in a browser is live-card-entry.browser). The
 * service reads the charge back from the provider (never the query the provider appended),
 * applies it as a webhook would, and sends the payer on; a reload applies nothing twice.
 * Stripe: a live TH checkout at the fake Stripe (the adapter's `pm_…` path, confirmed with
 * return_url), PaymentIntent `requires_action` → succeeded / requires_payment_method.
 */
const STRIPE_LIVE = { secret: 'sk_live_51FakeStripeLiveSecret0000', publishable: 'pk_live_51FakeStripeLivePublic0000' };
const OPN_LIVE = { secret: 'skey_5fakeopnlivesecret000', public: 'pkey_5fakeopnlivepublic000' };

describe('3-D Secure return route (fake Stripe and Opn on loopback)', () => {
  let stripe: FakeProvider;
  let opn: FakeProvider;
  let t: TestApp;
  let tenant: Tenant;
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n += 1)}`.replace(/[^0-9a-z]/g, '');

  beforeAll(async () => {
    stripe = await fakeStripe(STRIPE_LIVE.secret).start();
    opn = await fakeOpn(OPN_LIVE.secret).start();
    t = await startApp({
      rateLimit: false,
      env: {
        COLLECTION_PROVIDERS_LIVE: 'TH=stripe',
        STRIPE_SECRET_KEY_LIVE: STRIPE_LIVE.secret,
        STRIPE_PUBLISHABLE_KEY_LIVE: STRIPE_LIVE.publishable,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
        OPN_SECRET_KEY_LIVE: OPN_LIVE.secret,
        OPN_PUBLIC_KEY_LIVE: OPN_LIVE.public,
        OPN_BASE_URL: opn.baseUrl,
      },
    });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.stop();
    await opn?.stop();
  });

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('live'));
  const reads = (pi: string) =>
    stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${pi}`);

  /** A live checkout whose card charge waits for 3-D Secure at the fake Stripe. */
  async function pendingStripeCharge() {
    const pi = `pi_3Live${unique()}`;
    stripe.on('POST /v1/payment_intents', {
      status: 200,
      fixture: 'payment_intent_requires_action_3ds',
      patch: { id: pi, livemode: true },
    });
    const intent = await createPaymentIntent(t, tenant, {}, 'live');
    const checkout = await createCheckout(
      t,
      tenant,
      { target_type: 'payment_intent', target_id: intent.id, success_url: 'https://shop.example/paid/{CHECKOUT_ID}' },
      'live',
    );
    const res = await confirm(t, tenant, checkout, {
      payment_method_type: 'card',
      token: 'pm_card_threeDSecure2Required',
    });
    expect({ status: res.status, charge: res.body.charge }).toMatchObject({
      status: 200,
      charge: {
        status: 'pending',
        provider: 'stripe',
        reference_id: pi,
        next_action: [
          {
            type: 'redirect_to_url',
            url: expect.stringMatching(/^https:\/\/hooks\.stripe\.com\/redirect\/authenticate\//),
          },
        ],
      },
    });
    const chargeId = res.body.charge.id as string;
    expect(stripe.last('POST /v1/payment_intents').form.return_url).toMatch(
      new RegExp(`/provider_returns/stripe/${chargeId}$`),
    );
    return { pi, checkout, intent, chargeId };
  }

  it('Stripe: succeeded after 3-D Secure → 303 to success_url, read back by the charge’s own reference, applied once', async () => {
    const { pi, checkout, intent, chargeId } = await pendingStripeCharge();
    stripe.on(`GET /v1/payment_intents/${pi}`, {
      status: 200,
      fixture: 'payment_intent_succeeded',
      patch: { id: pi, livemode: true },
    });
    // Stripe appends its own query; a page could forge it: the service never reads it.
    const url = `/provider_returns/stripe/${chargeId}?payment_intent=pi_forged&redirect_status=failed`;
    const back = await t.http.get(url).set('Accept', 'text/html');
    expect({ status: back.status, location: back.headers.location }).toEqual({
      status: 303,
      location: `https://shop.example/paid/${checkout.id}`,
    });
    expect(reads(pi)).toHaveLength(1);
    expect(stripe.requests.some((r) => r.path.includes('pi_forged'))).toBe(false);
    expect((await get(`/checkouts/${checkout.id}`)).body).toMatchObject({ status: 'complete', charge_id: chargeId });
    expect((await get(`/payment_intents/${intent.id}`)).body.status).toBe('succeeded');

    const again = await t.http.get(url).set('Accept', 'text/html');
    expect({ status: again.status, location: again.headers.location }).toEqual({
      status: 303,
      location: `https://shop.example/paid/${checkout.id}`,
    });
    expect(reads(pi)).toHaveLength(1);
    const events = (await get('/events?filter[type]=charge.succeeded&limit=100')).body.data.filter(
      (e: { data: { object: { id: string } } }) => e.data.object.id === chargeId,
    );
    expect(events).toHaveLength(1);
  });

  it('Stripe: requires_payment_method with a decline → the hosted page with the decline, charge failed, checkout open', async () => {
    const { pi, checkout, chargeId } = await pendingStripeCharge();
    stripe.on(`GET /v1/payment_intents/${pi}`, {
      status: 200,
      fixture: 'payment_intent_declined',
      patch: { id: pi, livemode: true },
    });
    const back = await t.http.get(`/provider_returns/stripe/${chargeId}`).set('Accept', 'text/html');
    expect(back.status).toBe(200);
    expect(back.headers['content-type']).toMatch(/^text\/html/);
    expect(back.text).toContain('Your card was declined');
    expect(back.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await get(`/charges/${chargeId}`)).body).toMatchObject({ status: 'failed', failure_code: 'card_declined' });
    expect((await get(`/checkouts/${checkout.id}`)).body).toMatchObject({ status: 'open', payment_status: 'unpaid' });
    // Reloaded: the same page, Stripe not asked again.
    const again = await t.http.get(`/provider_returns/stripe/${chargeId}`).set('Accept', 'text/html');
    expect(again.status).toBe(200);
    expect(again.text).toContain('Your card was declined');
    expect(reads(pi)).toHaveLength(1);
  });

  it('Stripe down on return: the page waits (charge still pending, nothing applied); a later return applies it', async () => {
    const { pi, checkout, chargeId } = await pendingStripeCharge();
    stripe.on(
      `GET /v1/payment_intents/${pi}`,
      { status: 500, fixture: 'error_api_500' },
      { status: 200, fixture: 'payment_intent_succeeded', patch: { id: pi, livemode: true } },
    );
    const first = await t.http.get(`/provider_returns/stripe/${chargeId}`).set('Accept', 'text/html');
    expect(first.status).toBe(200);
    expect(first.text).toContain('still confirming');
    expect((await get(`/charges/${chargeId}`)).body.status).toBe('pending');
    const second = await t.http.get(`/provider_returns/stripe/${chargeId}`).set('Accept', 'text/html');
    expect(second.status).toBe(303);
    expect((await get(`/checkouts/${checkout.id}`)).body.status).toBe('complete');
  });

  it('Stripe Payment Element: the live page loads Stripe.js (CSP allows Stripe only), its session gets the PaymentIntent, the return completes it', async () => {
    const pi = `pi_3Elem${unique()}`;
    stripe.on('POST /v1/payment_intents', {
      status: 200,
      fixture: 'payment_intent_succeeded',
      patch: {
        id: pi,
        livemode: true,
        status: 'requires_payment_method',
        last_payment_error: null,
        client_secret: `${pi}_secret_fake`,
      },
    });
    const intent = await createPaymentIntent(t, tenant, {}, 'live');
    const checkout = await createCheckout(
      t,
      tenant,
      { target_type: 'payment_intent', target_id: intent.id, success_url: 'https://shop.example/paid/{CHECKOUT_ID}' },
      'live',
    );
    const path = new URL(checkout.url).pathname;
    const page = await t.http.get(path);
    expect(page.status).toBe(200);
    const csp = page.headers['content-security-policy'];
    expect(csp).toMatch(/script-src 'nonce-[^']+' https:\/\/js\.stripe\.com;/);
    expect(csp).toContain("connect-src 'self' https://api.stripe.com;");
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com;');
    expect(csp).not.toContain('omise');
    expect(page.text).toContain('id="payment-element"');
    expect(page.text).not.toContain('id="card-number"');
    expect(page.text).toContain(STRIPE_LIVE.publishable);
    expect(page.text).not.toContain(STRIPE_LIVE.secret);

    const ask = () => t.http.post(`${path}/card_intent`).set('X-Session-Token', checkout.session);
    const first = await ask();
    expect({ status: first.status, body: first.body }).toEqual({
      status: 200,
      body: {
        object: 'card_intent',
        client_secret: `${pi}_secret_fake`,
        return_url: expect.stringMatching(/\/provider_returns\/stripe\/[0-9a-f-]{36}$/),
      },
    });
    const chargeId = (first.body.return_url as string).split('/').pop()!;
    const created = stripe.last('POST /v1/payment_intents');
    expect(created.form).toMatchObject({
      'allowed_payment_method_types[0]': 'card',
      'metadata[charge_id]': chargeId,
      currency: 'thb',
    });
    expect(created.headers['idempotency-key']).toBe(`pi:${chargeId}`);
    expect(created.form.confirm).toBeUndefined();
    expect((await get(`/charges/${chargeId}`)).body).toMatchObject({ status: 'pending', reference_id: pi });
    // The page reloaded: the same attempt and intent, no second charge.
    const again = await ask();
    expect(again.body.return_url).toBe(first.body.return_url);
    expect((await get(`/charges?filter[payment_intent]=${intent.id}`)).body.data).toHaveLength(1);
    // Another session (or none) gets nothing.
    const other = await t.http.post(`${path}/card_intent`).set('X-Session-Token', 'wss-not-a-session');
    expect(other.status).toBe(401);
    expectErrorObject(other.body, 'E1212');

    // Stripe.js confirmed it and sent the payer back.
    stripe.on(`GET /v1/payment_intents/${pi}`, {
      status: 200,
      fixture: 'payment_intent_succeeded',
      patch: { id: pi, livemode: true },
    });
    const back = await t.http.get(`/provider_returns/stripe/${chargeId}`).set('Accept', 'text/html');
    expect({ status: back.status, location: back.headers.location }).toEqual({
      status: 303,
      location: `https://shop.example/paid/${checkout.id}`,
    });
    expect((await get(`/checkouts/${checkout.id}`)).body).toMatchObject({ status: 'complete', charge_id: chargeId });
  });

  it('unknown provider, malformed or unknown charge id, or another provider’s charge: 404 E7022, nothing asked', async () => {
    const { chargeId } = await pendingStripeCharge();
    const before = stripe.requests.length + opn.requests.length;
    for (const path of [
      `/provider_returns/paypal/${chargeId}`,
      '/provider_returns/opn/not-a-uuid',
      '/provider_returns/stripe/0193a9c2-7b1e-7c3d-9f00-5b2f1c3d4e5f',
      `/provider_returns/opn/${chargeId}`,
    ]) {
      const res = await t.http.get(path).set('Accept', 'application/json');
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expectErrorObject(res.body, 'E7022');
    }
    // A browser's navigation gets the hosted error page instead of JSON.
    const page = await t.http
      .get('/provider_returns/opn/0193a9c2-7b1e-7c3d-9f00-5b2f1c3d4e5f')
      .set({ Accept: 'text/html', 'Sec-Fetch-Mode': 'navigate' });
    expect(page.status).toBe(404);
    expect(page.text).toContain('Checkout not found');
    expect(stripe.requests.length + opn.requests.length).toBe(before);
  });
});
