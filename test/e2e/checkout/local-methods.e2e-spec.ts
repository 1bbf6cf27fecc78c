import {
  confirm,
  createCheckout,
  createPaymentIntent,
  expectLedgerInvariants,
  paymentIntentCheckout,
} from '../../factories/checkout.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies, inspected field by field
type Row = Record<string, any>;

/**
 * Issue 40 in test mode (the sandbox): the registry's Thai types beyond card and PromptPay, the
 * generic test helpers, the sandbox's payment page and return route, installments, and refunds
 * per method. The same flows against the fake Opn: test/e2e/providers/opn-local-methods.e2e-spec.ts.
 */
describe('local payment methods (registry, test mode)', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
  });
  afterEach(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    t.clock.reset();
  });
  afterAll(() => t.close());

  const get = async (path: string): Promise<Row> => {
    const res = await t.http.get(tenant.path(path)).set(tenant.as('test'));
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    return res.body;
  };
  const post = (path: string, body: object = {}) => t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
  const eventsAbout = async (type: string, id: string) =>
    ((await get(`/events?filter[type]=${type}&limit=100`)).data as Row[]).filter((e) => e.data.object.id === id);

  it('defaults a THB payment intent to card, PromptPay, TrueMoney and the five mobile banking apps; installments are opt-in', async () => {
    const pi = await createPaymentIntent(t, tenant, { amount: 500_000 });
    expect(pi.payment_method_types).toEqual([
      'card',
      'promptpay',
      'truemoney',
      'mobile_banking_kbank',
      'mobile_banking_scb',
      'mobile_banking_bay',
      'mobile_banking_bbl',
      'mobile_banking_ktb',
    ]);
    // 15 THB: below PromptPay's, TrueMoney's and mobile banking's 20 THB minimum.
    expect((await createPaymentIntent(t, tenant, { amount: 1_500 })).payment_method_types).toEqual(['card']);
    const withInstallments = await createPaymentIntent(t, tenant, {
      amount: 500_000,
      payment_method_types: ['card', 'installment_kbank', 'installment_ktc'],
    });
    expect(withInstallments.payment_method_types).toEqual(['card', 'installment_kbank', 'installment_ktc']);
  });

  it.each([
    ['a Singapore type in Thailand', { payment_method_types: ['paynow'] }, 'E7400'],
    ['TrueMoney for USD', { currency: 'USD', payment_method_types: ['truemoney'] }, 'E7401'],
    ['PromptPay for USD (its own older code)', { currency: 'USD', payment_method_types: ['promptpay'] }, 'E7017'],
    ['TrueMoney above its 50,000 THB maximum', { amount: 5_000_001, payment_method_types: ['truemoney'] }, 'E7402'],
    ['KBank installments below 3 x 300 THB', { amount: 89_999, payment_method_types: ['installment_kbank'] }, 'E7402'],
    ['an unknown type', { payment_method_types: ['alipay'] }, 'E2000'],
  ])('refuses %s with %s', async (_name, body, code) => {
    const res = await post('/payment_intents', { amount: 125_000, currency: 'THB', ...body });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, code);
  });

  it('a checkout narrows to a type the target allows and its country can take; another type is E7007', async () => {
    const pi = await createPaymentIntent(t, tenant, { amount: 300_000 });
    const ok = await createCheckout(t, tenant, {
      target_type: 'payment_intent',
      target_id: pi.id,
      payment_method_types: ['truemoney', 'mobile_banking_scb'],
    });
    expect(ok.payment_method_types).toEqual(['truemoney', 'mobile_banking_scb']);
    const refused = await post('/checkouts', {
      target_type: 'payment_intent',
      target_id: pi.id,
      payment_method_types: ['installment_kbank'],
    });
    expect(refused.status).toBe(400);
    expectErrorObject(refused.body, 'E7007');
  });

  it('TrueMoney: pending with a redirect to the payment page; the test helper settles it once; refunded in part', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, { amount: 250_000 });
    const res = await confirm(t, tenant, checkout, { payment_method_type: 'truemoney', platform: 'android' });
    expect(res.status).toBe(200);
    const charge = res.body.charge;
    expect(charge).toMatchObject({ status: 'pending', provider: 'sandbox', payment_method: { type: 'truemoney' } });
    expect(charge.next_action).toEqual([
      expect.objectContaining({
        type: 'redirect_to_url',
        title: 'Pay with TrueMoney',
        url: `http://localhost:3000/provider_returns/sandbox/${charge.id}/authorize`,
      }),
    ]);
    // 15 minutes to pay, on the service clock (which the confirm's own duration has moved on a little).
    const left = new Date(charge.expires_at).getTime() - t.clock.nowMs();
    expect(left).toBeLessThanOrEqual(15 * 60_000);
    expect(left).toBeGreaterThan(14 * 60_000);

    const paid = await post(`/test_helpers/charges/${charge.id}/succeed`);
    expect({ status: paid.status, body: paid.body }).toMatchObject({
      status: 200,
      body: { id: charge.id, status: 'succeeded', paid: true },
    });
    const again = await post(`/test_helpers/charges/${charge.id}/succeed`);
    expect(again.status).toBe(400);
    expectErrorObject(again.body, 'E7409');
    expect(await get(`/payment_intents/${pi.id}`)).toMatchObject({ status: 'succeeded' });
    expect(await get(`/checkouts/${checkout.id}`)).toMatchObject({ status: 'complete' });
    expect(await eventsAbout('charge.succeeded', charge.id)).toHaveLength(1);

    const refund = await post('/refunds', { charge_id: charge.id, amount: 50_000 });
    expect({ status: refund.status, body: refund.body }).toMatchObject({
      status: 200,
      body: { amount: 50_000, method: 'truemoney' },
    });
    // TrueMoney refunds are accepted for 30 days after the charge.
    t.clock.advance(31 * 24 * 3600_000);
    const late = await post('/refunds', { charge_id: charge.id, amount: 1_000 });
    expect(late.status).toBe(400);
    expectErrorObject(late.body, 'E7406');
  });

  it.each([
    'mobile_banking_kbank',
    'mobile_banking_scb',
    'mobile_banking_bay',
    'mobile_banking_bbl',
    'mobile_banking_ktb',
  ])(
    '%s: paid on the sandbox payment page, back through the return route to success_url; refunds refused with E7404',
    async (type) => {
      const pi = await createPaymentIntent(t, tenant, { amount: 99_900 });
      const checkout = await createCheckout(t, tenant, {
        target_type: 'payment_intent',
        target_id: pi.id,
        success_url: 'https://shop.example/thanks/{CHECKOUT_ID}',
      });
      const res = await confirm(t, tenant, checkout, { payment_method_type: type });
      const charge = res.body.charge;
      expect(charge).toMatchObject({ status: 'pending', payment_method: { type } });
      const page = await t.http.get(`/provider_returns/sandbox/${charge.id}/authorize`).set('Accept', 'text/html');
      expect(page.status).toBe(200);
      expect(page.text).toContain('Authorize payment');
      const act = await t.http.post(`/provider_returns/sandbox/${charge.id}/authorize`).send({ outcome: 'succeeded' });
      expect(act.body).toEqual({ return_url: `/provider_returns/sandbox/${charge.id}` });
      const back = await t.http.get(act.body.return_url).set('Accept', 'text/html');
      expect({ status: back.status, location: back.headers.location }).toEqual({
        status: 303,
        location: `https://shop.example/thanks/${checkout.id}`,
      });
      expect(await get(`/charges/${charge.id}`)).toMatchObject({ status: 'succeeded' });
      // A reload of the return route applies nothing twice.
      await t.http.get(act.body.return_url).set('Accept', 'text/html');
      expect(await eventsAbout('charge.succeeded', charge.id)).toHaveLength(1);
      const refused = await post('/refunds', { charge_id: charge.id });
      expect(refused.status).toBe(400);
      expectErrorObject(refused.body, 'E7404');
    },
  );

  it('a declined redirect payment fails the charge; the checkout stays open for another method', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, { amount: 125_000 });
    const charge = (await confirm(t, tenant, checkout, { payment_method_type: 'truemoney' })).body.charge;
    const failed = await post(`/test_helpers/charges/${charge.id}/fail`);
    expect(failed.body).toMatchObject({ status: 'failed', failure_code: 'payment_failed' });
    expect(await get(`/checkouts/${checkout.id}`)).toMatchObject({ status: 'open' });
    expect(await get(`/payment_intents/${pi.id}`)).toMatchObject({ status: 'requires_payment_method' });
    // The sandbox page of a charge that is no longer pending is not found.
    const gone = await t.http.get(`/provider_returns/sandbox/${charge.id}/authorize`);
    expect(gone.status).toBe(404);
    expectErrorObject(gone.body, 'E7022');
    const next = await confirm(t, tenant, checkout, { payment_method_type: 'mobile_banking_kbank' });
    expect(next.body.charge).toMatchObject({ status: 'pending' });
  });

  it('the generic helpers also settle PromptPay; a card charge, an unknown charge and live mode are refused', async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant);
    const qr = (await confirm(t, tenant, checkout, { payment_method_type: 'promptpay' })).body.charge;
    expect((await post(`/test_helpers/charges/${qr.id}/succeed`)).body).toMatchObject({ status: 'succeeded' });
    const unknown = await post('/test_helpers/charges/0193a9c2-7b1e-7c3d-9f00-5b2f1c3d4e5f/succeed');
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4004');
    const live = await t.http.post(tenant.path(`/test_helpers/charges/${qr.id}/fail`)).set(tenant.as('live'));
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4040');
    const again = await post(`/test_helpers/charges/${qr.id}/fail`);
    expect(again.status).toBe(400);
    expectErrorObject(again.body, 'E7409');
  });

  it('installments: the term is required and must be offered; charge.installment carries the plan; E7408 below the monthly minimum', async () => {
    const pi = await createPaymentIntent(t, tenant, { amount: 1_000_000, payment_method_types: ['installment_kbank'] });
    const checkout = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: pi.id });
    for (const [body, code] of [
      [{ payment_method_type: 'installment_kbank' }, 'E7407'],
      [{ payment_method_type: 'installment_kbank', installment_term: 5 }, 'E7407'],
      [{ payment_method_type: 'installment_kbank', installment_term: 10 }, null],
    ] as const) {
      const res = await confirm(t, tenant, checkout, body);
      if (code) {
        expect(res.status).toBe(400);
        expectErrorObject(res.body, code);
      } else {
        expect(res.body.charge).toMatchObject({
          status: 'pending',
          installment: {
            term: 10,
            issuer: 'kbank',
            interest_amount: 0,
            absorption: 'merchant',
            monthly_amount: 100_000,
            first_amount: 100_000,
          },
        });
        const paid = await post(`/test_helpers/charges/${res.body.charge.id}/succeed`);
        expect(paid.body).toMatchObject({ status: 'succeeded', installment: { term: 10 } });
      }
    }
    // 1,000 THB over 4 months of KTC (300 THB a month at least): 250 a month is too little.
    const small = await paymentIntentCheckout(t, tenant, {
      amount: 100_000,
      payment_method_types: ['installment_ktc'],
    });
    const res = await confirm(t, tenant, small.checkout, {
      payment_method_type: 'installment_ktc',
      installment_term: 4,
    });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E7408');
    const three = await confirm(t, tenant, small.checkout, {
      payment_method_type: 'installment_ktc',
      installment_term: 3,
    });
    expect(three.body.charge.installment).toMatchObject({ term: 3, monthly_amount: 33_333, first_amount: 33_334 });
  });
});
