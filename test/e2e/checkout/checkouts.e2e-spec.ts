import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import {
  CARDS,
  asSession,
  card,
  cardToken,
  confirm,
  createCheckout,
  createCustomer,
  createOpenInvoice,
  createPaymentIntent,
  paymentIntentCheckout,
  expectLedgerInvariants,
} from '../../factories/checkout.js';

const DAY = 24 * 3600 * 1000;
const UNKNOWN = '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b';
/** A well-formed token the credential checks refuse before anyone looks it up. */
const ANY_TOKEN = 'tok_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b';

describe('POST /checkouts and the checkout lifecycle', () => {
  let t: TestApp;
  let tenant: Tenant;
  let multi: Tenant;

  beforeAll(async () => {
    t = await startApp({ liveDoubles: true });
    tenant = await createTenant(t);
    multi = await createTenant(t, { countries: ['TH', 'SG'] });
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId, multi.applicationId]);
    await t.close();
  });

  const post = (body: object, headers = tenant.as('test')) =>
    t.http.post(tenant.path('/checkouts')).set(headers).send(body);

  it('creates a checkout from a payment intent: amount, currency, customer and methods come from the target', async () => {
    const customer = await createCustomer(t, tenant);
    const pi = await createPaymentIntent(t, tenant, { customer_id: customer.id, description: 'Order 1001' });
    expect(pi).toMatchObject({
      object: 'payment_intent',
      livemode: false,
      status: 'requires_payment_method',
      amount: 125000,
      currency: 'THB',
      scaling_factor: 100,
      payment_method_types: [
        'card',
        'promptpay',
        'truemoney',
        'mobile_banking_kbank',
        'mobile_banking_scb',
        'mobile_banking_bay',
        'mobile_banking_bbl',
        'mobile_banking_ktb',
      ],
    });
    const res = await post({
      target_type: 'payment_intent',
      target_id: pi.id,
      success_url: 'https://shop.example/thanks?c={CHECKOUT_ID}',
      cancel_url: 'https://shop.example/cart',
      metadata: { order: '1001' },
      line_items: [{ price: 'price_1001', quantity: 2 }],
      allow_promotion_codes: false,
      payment_method_collection: 'if_required',
      mode: 'payment',
    });
    expect(res.status).toBe(200);
    const { id, url, session, status } = res.body;
    expect(status).toBe('open');
    expect(session).toMatch(/^wss_[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`http://localhost:3000/pay/${tenant.slug}/checkouts/${id}#session=${session}`);
    expect(res.body).toMatchObject({
      object: 'checkout',
      livemode: false,
      amount: 125000,
      currency: 'THB',
      customer_id: customer.id,
      payment_method_types: [
        'card',
        'promptpay',
        'truemoney',
        'mobile_banking_kbank',
        'mobile_banking_scb',
        'mobile_banking_bay',
        'mobile_banking_bbl',
        'mobile_banking_ktb',
      ],
      payment_status: 'unpaid',
      line_items: [{ price: 'price_1001', quantity: 2 }],
      payment_method_collection: 'if_required',
      metadata: { order: '1001' },
    });
    expect(new Date(res.body.expires_at).getTime() - t.clock.nowMs()).toBeGreaterThan(DAY - 60_000);

    const got = await t.http.get(tenant.path(`/checkouts/${id}`)).set(tenant.as('test'));
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, status: 'open', session: null });
    expect(got.body.url).not.toContain('#');
    const list = await t.http.get(tenant.path(`/checkouts?filter[target_id]=${pi.id}`)).set(tenant.as('test'));
    expect(list.body).toMatchObject({ object: 'list', total_items: 1, data: [{ id }] });
  });

  it('takes the mode from the credential: a live key makes a live checkout without X-Test-Mode', async () => {
    const pi = await createPaymentIntent(t, tenant, {}, 'live');
    const { 'X-Test-Mode': _ignored, ...headers } = tenant.as('live');
    const res = await post({ target_type: 'payment_intent', target_id: pi.id }, headers);
    expect(res.status).toBe(200);
    const got = await t.http.get(tenant.path(`/checkouts/${res.body.id}`)).set(tenant.as('live'));
    expect(got.body.livemode).toBe(true);
    const { 'X-Test-Mode': _t, ...testHeaders } = tenant.as('test');
    const testPi = await createPaymentIntent(t, tenant);
    const fromTestKey = await post({ target_type: 'payment_intent', target_id: testPi.id }, testHeaders);
    expect(fromTestKey.status).toBe(200);
    expect(fromTestKey.body.livemode).toBe(false);
  });

  it('answers 404 E7001 for an unknown target, a non-UUID id and a target of the other mode', async () => {
    const live = await createPaymentIntent(t, tenant, {}, 'live');
    for (const body of [
      { target_type: 'payment_intent', target_id: UNKNOWN },
      { target_type: 'invoice', target_id: UNKNOWN },
      { target_type: 'payment_intent', target_id: 'not-a-uuid' },
      { target_type: 'payment_intent', target_id: live.id },
    ]) {
      const res = await post(body);
      expect({ body, status: res.status }).toEqual({ body, status: 404 });
      expectErrorObject(res.body, 'E7001');
    }
    const other = await createTenant(t);
    const foreign = await createPaymentIntent(t, other);
    const res = await post({ target_type: 'payment_intent', target_id: foreign.id });
    expect(res.status).toBe(404);
    expectErrorObject(res.body, 'E7001');
  });

  it('validates the request with E2000 naming the parameter', async () => {
    const pi = await createPaymentIntent(t, tenant);
    const base = { target_type: 'payment_intent', target_id: pi.id };
    const cases: Array<[object, string]> = [
      [{ target_id: pi.id }, 'target_type'],
      [{ ...base, target_type: 'subscription' }, 'target_type'],
      [{ target_type: 'payment_intent' }, 'target_id'],
      [{ ...base, target_id: 42 }, 'target_id'],
      [{ ...base, success_url: 'javascript:alert(1)' }, 'success_url'],
      [{ ...base, cancel_url: 'not a url' }, 'cancel_url'],
      [{ ...base, metadata: 'x' }, 'metadata'],
      [{ ...base, mode: 'donation' }, 'mode'],
      [{ ...base, line_items: [{ price: 'p', quantity: 0 }] }, 'line_items[0].quantity'],
      [{ ...base, allow_promotion_codes: 'yes' }, 'allow_promotion_codes'],
      [{ ...base, payment_method_types: ['cash'] }, 'payment_method_types'],
      [{ ...base, payment_method_types: [] }, 'payment_method_types'],
      [{ ...base, payment_method_collection: 'never' }, 'payment_method_collection'],
      [{ ...base, subscription_data: { trial_period_days: -1 } }, 'subscription_data.trial_period_days'],
      [{ ...base, amount: 100 }, 'amount'],
      [{ ...base, provider: 'sandbox' }, 'provider'],
    ];
    for (const [body, parameter] of cases) {
      const res = await post(body);
      expect({ parameter, status: res.status }).toEqual({ parameter, status: 400 });
      expectErrorObject(res.body, 'E2000');
      expect(res.body.message).toContain(`"${parameter}"`);
      expect(res.body.param).toBe(parameter);
    }
  });

  it('refuses what it cannot do with precise E7 codes', async () => {
    const pi = await createPaymentIntent(t, tenant, { payment_method_types: ['card'] });
    const base = { target_type: 'payment_intent', target_id: pi.id };
    const cases: Array<[object, string]> = [
      // A subscription checkout names the subscribing customer (docs/BILLING.md, "Subscription checkout").
      [{ ...base, mode: 'subscription' }, 'E7070'],
      // A setup checkout saves a card for a customer (docs/COLLECTION.md, "Saved payment methods").
      [{ ...base, mode: 'setup' }, 'E7033'],
      [{ ...base, subscription_data: { trial_period_days: 7 } }, 'E7075'],
      [{ ...base, promotion_code: 'SUMMER' }, 'E7010'],
      [{ ...base, payment_method_types: ['promptpay'] }, 'E7007'],
    ];
    for (const [body, code] of cases) {
      const res = await post(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expectErrorObject(res.body, code);
    }
    const narrowed = await createPaymentIntent(t, tenant);
    const ok = await post({ target_type: 'payment_intent', target_id: narrowed.id, payment_method_types: ['card'] });
    expect(ok.body.payment_method_types).toEqual(['card']);
  });

  it('refuses targets that cannot be paid: paid (E7002), void, draft, canceled (E7003)', async () => {
    const paidInvoice = await createOpenInvoice(t, tenant);
    const checkout = await createCheckout(t, tenant, { target_type: 'invoice', target_id: paidInvoice.id });
    expect((await confirm(t, tenant, checkout, card(CARDS.visa))).body.charge.status).toBe('succeeded');
    const paid = await post({ target_type: 'invoice', target_id: paidInvoice.id });
    expect(paid.status).toBe(400);
    expectErrorObject(paid.body, 'E7002');

    const voided = await createOpenInvoice(t, tenant);
    expect((await t.http.post(tenant.path(`/invoices/${voided.id}/void`)).set(tenant.as('test'))).status).toBe(200);
    const customer = await createCustomer(t, tenant);
    const draft = await t.http
      .post(tenant.path('/invoices'))
      .set(tenant.as('test'))
      .send({ customer_id: customer.id, currency: 'THB', line_items: [{ description: 'x', amount: 1000 }] });
    expect(draft.body.status).toBe('draft');
    const canceled = await createPaymentIntent(t, tenant);
    const cancel = await t.http
      .post(tenant.path(`/payment_intents/${canceled.id}/cancel`))
      .set(tenant.as('test'))
      .send({ cancellation_reason: 'abandoned' });
    expect(cancel.body).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });

    for (const body of [
      { target_type: 'invoice', target_id: voided.id },
      { target_type: 'invoice', target_id: draft.body.id },
      { target_type: 'payment_intent', target_id: canceled.id },
    ]) {
      const res = await post(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expectErrorObject(res.body, 'E7003');
    }
  });

  it('refuses a currency the country does not collect (E7004)', async () => {
    const sgd = await createPaymentIntent(t, multi, { currency: 'SGD', amount: 5000 });
    const inThailand = await t.http
      .post(multi.path('/checkouts'))
      .set(multi.as('test'))
      .send({ target_type: 'payment_intent', target_id: sgd.id });
    expect(inThailand.status).toBe(400);
    expectErrorObject(inThailand.body, 'E7004');
    const inSingapore = await t.http
      .post(multi.path('/checkouts'))
      .set(multi.as('test', { 'X-Country': 'SG' }))
      .send({ target_type: 'payment_intent', target_id: sgd.id });
    expect(inSingapore.status).toBe(200);
    expect(inSingapore.body).toMatchObject({ currency: 'SGD', country: 'SG', payment_method_types: ['card'] });
  });

  it('needs X-Country and a credential that may create checkouts', async () => {
    const pi = await createPaymentIntent(t, tenant);
    const { 'X-Country': _c, ...noCountry } = tenant.as('test');
    const res = await post({ target_type: 'payment_intent', target_id: pi.id }, noCountry);
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E3002');
    const checkout = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: pi.id });
    const withSession = await post({ target_type: 'payment_intent', target_id: pi.id }, asSession(checkout.session));
    expect(withSession.status).toBe(401);
    expectErrorObject(withSession.body, 'E1200');
  });

  it('refuses to replay a used session with E1212', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant);
    const first = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(first.status).toBe(200);
    expect(first.body.checkout.status).toBe('complete');
    for (const body of [card(CARDS.visa), { payment_method_type: 'promptpay' }]) {
      const replay = await confirm(t, tenant, checkout, body);
      expect(replay.status).toBe(401);
      expectErrorObject(replay.body, 'E1212');
      expect(replay.headers['www-authenticate']).toMatch(/^Session/);
    }
    const charges = await t.http.get(tenant.path(`/charges?filter[payment_intent]=${pi.id}`)).set(tenant.as('test'));
    expect(charges.body.total_items).toBe(1);
  });

  it('refuses a session on another checkout (E1300) and a session with the other mode (E1300)', async () => {
    const a = await createCheckout(t, tenant, {
      target_type: 'payment_intent',
      target_id: (await createPaymentIntent(t, tenant)).id,
    });
    const b = await createCheckout(t, tenant, {
      target_type: 'payment_intent',
      target_id: (await createPaymentIntent(t, tenant)).id,
    });
    const crossed = await confirm(t, tenant, { id: a.id, session: b.session }, card(CARDS.visa));
    expect(crossed.status).toBe(403);
    expectErrorObject(crossed.body, 'E1300');
    const otherMode = await t.http
      .post(tenant.path(`/checkouts/${a.id}/confirm`))
      .set({ ...asSession(a.session), 'X-Test-Mode': 'false' })
      .send(cardToken(ANY_TOKEN));
    expect(otherMode.status).toBe(403);
    expectErrorObject(otherMode.body, 'E1300');
    const secretKey = await t.http
      .post(tenant.path(`/checkouts/${a.id}/confirm`))
      .set(tenant.as('test'))
      .send(cardToken(ANY_TOKEN));
    expect(secretKey.status).toBe(401);
    expectErrorObject(secretKey.body, 'E1200');
  });

  it('expires a checkout after 24 hours on the service clock: E7005, then E1212 once the session lapses', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant);
    t.clock.advance(DAY - 1000);
    expect((await t.http.get(tenant.path(`/checkouts/${checkout.id}`)).set(tenant.as('test'))).body.status).toBe(
      'open',
    );
    t.clock.advance(2000);
    const got = await t.http.get(tenant.path(`/checkouts/${checkout.id}`)).set(tenant.as('test'));
    expect(got.body).toMatchObject({ status: 'expired', expired_at: checkout.expires_at });
    const late = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(late.status).toBe(400);
    expectErrorObject(late.body, 'E7005');
    t.clock.advance(3600 * 1000);
    const lapsed = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(lapsed.status).toBe(401);
    expectErrorObject(lapsed.body, 'E1212');
    const charges = await t.http.get(tenant.path(`/charges?filter[payment_intent]=${pi.id}`)).set(tenant.as('test'));
    expect(charges.body.total_items).toBe(0);
    expect((await t.http.get(tenant.path(`/payment_intents/${pi.id}`)).set(tenant.as('test'))).body.status).toBe(
      'requires_payment_method',
    );
  });

  it('expires a checkout through the test helper (404 in live mode)', async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant);
    const live = await t.http.post(tenant.path(`/test_helpers/checkouts/${checkout.id}/expire`)).set(tenant.as('live'));
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4040');
    const expired = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${checkout.id}/expire`))
      .set(tenant.as('test'));
    expect(expired.status).toBe(200);
    expect(expired.body.status).toBe('expired');
    const late = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(late.status).toBe(400);
    expectErrorObject(late.body, 'E7005');
    const unknown = await t.http.post(tenant.path(`/test_helpers/checkouts/${UNKNOWN}/expire`)).set(tenant.as('test'));
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4004');
  });

  it('checks the card before the provider sees it (E7008) and the payment method type (E7007)', async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant, { payment_method_types: ['card'] });
    const cases: Array<[object, string, number]> = [
      [card(CARDS.invalid), 'E7008', 400],
      [card('4242'), 'E7008', 400],
      [card(CARDS.visa, { exp_month: 13 }), 'E7008', 400],
      [card(CARDS.visa, { exp_month: 1, exp_year: 2020 }), 'E7008', 400],
      [card(CARDS.visa, { cvc: '12' }), 'E7008', 400],
      [{ payment_method_type: 'card' }, 'E7008', 400],
      [{ payment_method_type: 'promptpay' }, 'E7007', 400],
      [{ payment_method_type: 'cash' }, 'E2000', 400],
      [{ ...card(CARDS.visa), extra: 1 }, 'E2000', 400],
    ];
    for (const [body, code, status] of cases) {
      const res = await confirm(t, tenant, checkout, body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expectErrorObject(res.body, code);
    }
    const ok = await confirm(t, tenant, checkout, card(CARDS.visa, { exp_year: 99 }));
    expect(ok.body.charge.status).toBe('succeeded');
  });
});
