import Stripe from 'stripe';
import { ProviderReconciliationJob } from '../../../src/modules/provider-events/index.js';
import { expectLedgerInvariants } from '../../factories/checkout.js';
import { fakeStripe, stripeFixture, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Issue 40, part 2: PayNow (Singapore, SGD), FPX and GrabPay (Malaysia, MYR) in live mode through
 * the real Stripe adapter and SDK, against the fake Stripe on loopback (fixtures from
 * stripe/openapi, patched per method: test/fixtures/stripe/*paynow*, *fpx*, *grabpay*). Per method:
 * the checkout's pending charge (QR or redirect), a signed `payment_intent.succeeded` applied once
 * after replays, a partial refund settled by `refund.updated` once, a lost webhook recovered by the
 * reconciliation job; then a bank's decline; the refund window; the FPX bank.
 */
const LIVE = {
  secret: 'sk_live_51FakeStripeLocalMethods000',
  publishable: 'pk_live_51FakeStripeLocalMethods000',
  webhook: 'whsec_fakeStripeLocalMethodsSecret00',
};
const SUCCESS_URL = 'https://merchant.example/paid/{CHECKOUT_ID}';

interface Case {
  type: 'paynow' | 'fpx' | 'grabpay';
  country: 'SG' | 'MY';
  currency: 'SGD' | 'MYR';
  amount: number;
  /** Stripe's fee with the currency's tax (stripe-local-methods.ts). */
  fee: number;
  pending: string;
  body: Record<string, string>;
}
const CASES: Case[] = [
  {
    type: 'paynow',
    country: 'SG',
    currency: 'SGD',
    amount: 25000,
    fee: 354, // 1.3 % + 9 % GST
    pending: 'payment_intent_paynow_pending',
    body: { payment_method_type: 'paynow' },
  },
  {
    type: 'fpx',
    country: 'MY',
    currency: 'MYR',
    amount: 12000,
    fee: 324, // 2.5 % + 8 % SST
    pending: 'payment_intent_fpx_requires_action',
    body: { payment_method_type: 'fpx', bank: 'maybank2u' },
  },
  {
    type: 'grabpay',
    country: 'SG',
    currency: 'SGD',
    amount: 25000,
    fee: 899, // 3.3 % + 9 % GST: 825 + 74.25
    pending: 'payment_intent_grabpay_requires_action',
    body: { payment_method_type: 'grabpay' },
  },
  {
    type: 'grabpay',
    country: 'MY',
    currency: 'MYR',
    amount: 12000,
    fee: 428, // 3.3 % + 8 % SST
    pending: 'payment_intent_grabpay_requires_action',
    body: { payment_method_type: 'grabpay' },
  },
];

describe('Stripe PayNow, FPX and GrabPay checkouts (live mode, fake Stripe on loopback)', () => {
  let stripe: FakeProvider;
  let t: TestApp;
  let tenant: Tenant;
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n += 1)}`.replace(/[^0-9a-z]/g, '');
  const sdk = new Stripe('sk_test_unused', { telemetry: false });

  beforeAll(async () => {
    stripe = await fakeStripe(LIVE.secret).start();
    t = await startApp({
      rateLimit: false,
      env: {
        COLLECTION_PROVIDERS_LIVE: 'SG=stripe,MY=stripe',
        STRIPE_SECRET_KEY_LIVE: LIVE.secret,
        STRIPE_PUBLISHABLE_KEY_LIVE: LIVE.publishable,
        STRIPE_WEBHOOK_SECRET_LIVE: LIVE.webhook,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
        PROVIDER_RECONCILE_AFTER_MINUTES: '5',
      },
    });
    tenant = await createTenant(t, { countries: ['SG', 'MY'] });
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    if (tenant) await expectLedgerInvariants(t, [tenant.applicationId]);
    await t?.close();
    await stripe?.stop();
  });

  const live = (c: { country: string }) => tenant.as('live', { 'X-Country': c.country });
  const get = async (c: { country: string }, path: string) => {
    const res = await t.http.get(tenant.path(path)).set(live(c));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const eventsAbout = async (c: Case, type: string, id: string) => {
    const page = await get(c, `/events?filter[type]=${type}&limit=100`);
    return (page.data as Array<{ data: { object: { id: string } } }>).filter((e) => e.data.object.id === id);
  };
  /** A live payment intent in the case's country (X-Country) and currency. */
  const paymentIntent = async (c: Case) => {
    const res = await t.http
      .post(tenant.path('/payment_intents'))
      .set(live(c))
      .send({ amount: c.amount, currency: c.currency });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body as { id: string; payment_method_types: string[] };
  };
  const intent = (fixture: string, id: string) => ({ ...stripeFixture(fixture), id, livemode: true });
  const signed = (id: string, type: string, object: object) => {
    const payload = JSON.stringify({
      ...stripeFixture('event_payment_intent_succeeded'),
      id,
      type,
      livemode: true,
      data: { object },
    });
    return { payload, signature: sdk.webhooks.generateTestHeaderString({ payload, secret: LIVE.webhook }) };
  };
  const deliver = ({ payload, signature }: { payload: string; signature: string }) =>
    t.http
      .post('/provider_webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload);

  /** A live checkout of `c` confirmed with its method: pending at the fake Stripe with `reference`. */
  async function pendingCharge(c: Case, body: Record<string, string> = c.body) {
    const reference = `pi_3Local${unique()}`;
    stripe.on('POST /v1/payment_intents', { status: 200, json: intent(c.pending, reference) });
    const pi = await paymentIntent(c);
    const headers = live(c);
    const created = await t.http
      .post(tenant.path('/checkouts'))
      .set(headers)
      .send({ target_type: 'payment_intent', target_id: pi.id, success_url: SUCCESS_URL });
    expect({ status: created.status, body: created.body }).toMatchObject({ status: 200 });
    const checkout = created.body as { id: string; session: string };
    const res = await t.http
      .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
      .set({ 'X-Session-Token': checkout.session, 'X-Country': c.country })
      .send(body);
    return { pi, checkout, res, reference };
  }

  describe.each(CASES)('$type ($country, $currency)', (c) => {
    it('the target offers it by default; the confirm makes one PaymentIntent and answers the QR or the redirect', async () => {
      const pi = await paymentIntent(c);
      expect(pi.payment_method_types).toContain(c.type);

      const { res, reference } = await pendingCharge(c);
      expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
      const charge = res.body.charge;
      expect(charge).toMatchObject({
        status: 'pending',
        provider: 'stripe',
        reference_id: reference,
        livemode: true,
        currency: c.currency,
        amount: c.amount,
      });
      const sent = stripe.last('POST /v1/payment_intents');
      expect(sent.headers['idempotency-key']).toBe(`charge:${charge.id}`);
      expect(sent.form).toMatchObject({
        amount: String(c.amount),
        currency: c.currency.toLowerCase(),
        'metadata[charge_id]': charge.id,
        'allowed_payment_method_types[0]': c.type,
        'payment_method_data[type]': c.type,
        confirm: 'true',
      });
      const next = stripeFixture<{ next_action: Record<string, Record<string, string>> }>(c.pending).next_action;
      if (c.type === 'paynow') {
        expect(sent.form.return_url).toBeUndefined();
        expect(charge.next_action).toEqual([
          expect.objectContaining({
            type: 'display_qr_code',
            qr_data: next.paynow_display_qr_code.data,
            url: next.paynow_display_qr_code.image_url_png,
          }),
        ]);
      } else {
        expect(sent.form.return_url).toMatch(new RegExp(`/provider_returns/stripe/${charge.id}$`));
        if (c.type === 'fpx') expect(sent.form['payment_method_data[fpx][bank]']).toBe('maybank2u');
        // The payer's bank is the payment method's issuer (none for GrabPay).
        expect(charge.payment_method).toMatchObject({ type: c.type, issuer: c.type === 'fpx' ? 'maybank2u' : null });
        expect(charge.next_action).toEqual([
          expect.objectContaining({ type: 'redirect_to_url', url: next.redirect_to_url.url, qr_data: null }),
        ]);
      }
    });

    it('paid by a signed payment_intent.succeeded once (replays are duplicates); a partial refund settles by refund.updated once', async () => {
      const { pi, checkout, res, reference } = await pendingCharge(c);
      const charge = res.body.charge as { id: string };
      const paidEvent = signed(`evt_paid${unique()}`, 'payment_intent.succeeded', {
        ...intent(`payment_intent_${c.type}_succeeded`, reference),
        amount: c.amount,
        amount_received: c.amount,
      });
      expect((await deliver(paidEvent)).body).toMatchObject({ result: 'applied', kind: 'payment_intent.succeeded' });
      for (let replay = 0; replay < 2; replay += 1) {
        const again = await deliver(paidEvent);
        expect({ status: again.status, result: again.body.result }).toEqual({ status: 200, result: 'duplicate' });
      }
      const paid = await get(c, `/charges/${charge.id}`);
      expect(paid).toMatchObject({
        status: 'succeeded',
        paid: true,
        provider_fee_amount: c.fee,
        net_amount: c.amount - c.fee,
      });
      expect(await get(c, `/checkouts/${checkout.id}`)).toMatchObject({ status: 'complete', payment_status: 'paid' });
      expect(await get(c, `/payment_intents/${pi.id}`)).toMatchObject({ status: 'succeeded' });
      expect(await eventsAbout(c, 'charge.succeeded', charge.id)).toHaveLength(1);
      expect(await eventsAbout(c, 'checkout.completed', checkout.id)).toHaveLength(1);

      const refundRef = `re_3Local${unique()}`;
      const refundAt = (status: string) => ({
        ...stripeFixture(`refund_${c.type}_pending`),
        id: refundRef,
        payment_intent: reference,
        amount: 5000,
        status,
      });
      stripe.on('POST /v1/refunds', { status: 200, json: refundAt('pending') });
      const created = await t.http
        .post(tenant.path('/refunds'))
        .set(live(c))
        .send({ charge_id: charge.id, amount: 5000 });
      expect({ status: created.status, body: created.body }).toMatchObject({
        status: 200,
        body: { status: 'pending', reference_id: refundRef, amount: 5000 },
      });
      expect(stripe.last('POST /v1/refunds').form).toMatchObject({ payment_intent: reference, amount: '5000' });
      const refunded = signed(`evt_refund${unique()}`, 'refund.updated', refundAt('succeeded'));
      expect((await deliver(refunded)).body).toMatchObject({ result: 'applied' });
      expect((await deliver(refunded)).body).toMatchObject({ result: 'duplicate' });
      expect(await get(c, `/refunds/${created.body.id}`)).toMatchObject({ status: 'succeeded' });
      expect(await eventsAbout(c, 'refund.succeeded', created.body.id)).toHaveLength(1);
      expect(await get(c, `/charges/${charge.id}`)).toMatchObject({ amount_refunded: 5000, refunded: false });
    });

    it('a lost webhook: the reconciliation job reads the PaymentIntent back once the clock passes the delay; the late webhook is unchanged', async () => {
      const { checkout, res, reference } = await pendingCharge(c);
      const charge = res.body.charge as { id: string };
      const succeeded = { ...intent(`payment_intent_${c.type}_succeeded`, reference), amount: c.amount };
      stripe.on(`GET /v1/payment_intents/${reference}`, { status: 200, json: succeeded });
      const job = t.app.get(ProviderReconciliationJob);
      await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
      expect(await get(c, `/charges/${charge.id}`)).toMatchObject({ status: 'pending' });

      t.clock.advance(6 * 60_000);
      await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
      expect(stripe.last(`GET /v1/payment_intents/${reference}`)).toBeTruthy();
      expect(await get(c, `/charges/${charge.id}`)).toMatchObject({
        status: 'succeeded',
        paid: true,
        currency: c.currency,
        payment_method: { type: c.type },
        provider_fee_amount: c.fee,
      });
      expect(await get(c, `/checkouts/${checkout.id}`)).toMatchObject({ status: 'complete' });

      const late = await deliver(signed(`evt_late${unique()}`, 'payment_intent.succeeded', succeeded));
      expect(late.body).toMatchObject({ result: 'unchanged' });
      await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
      expect(await eventsAbout(c, 'charge.succeeded', charge.id)).toHaveLength(1);
    });
  });

  it('GrabPay: the payer back on the return route is read back and sent to success_url; a reload changes nothing', async () => {
    const c = CASES[2];
    const { checkout, res, reference } = await pendingCharge(c);
    const charge = res.body.charge as { id: string };
    stripe.on(`GET /v1/payment_intents/${reference}`, {
      status: 200,
      json: { ...intent('payment_intent_grabpay_succeeded', reference), amount: c.amount },
    });
    const back = await t.http.get(`/provider_returns/stripe/${charge.id}`).set('Accept', 'text/html');
    expect({ status: back.status, location: back.headers.location }).toEqual({
      status: 303,
      location: SUCCESS_URL.replace('{CHECKOUT_ID}', checkout.id),
    });
    const reload = await t.http.get(`/provider_returns/stripe/${charge.id}`).set('Accept', 'text/html');
    expect(reload.status).toBe(303);
    expect(await eventsAbout(c, 'charge.succeeded', charge.id)).toHaveLength(1);
  });

  it('FPX: the bank declines (payment_intent.payment_failed): the charge fails once and the checkout can be paid again', async () => {
    const c = CASES[1];
    const { pi, checkout, res, reference } = await pendingCharge(c);
    const charge = res.body.charge as { id: string };
    const declined = { ...intent('payment_intent_fpx_failed', reference), amount: c.amount };
    // The service reads the failure reason back from Stripe (the webhook's body is not where it takes it from).
    stripe.on(`GET /v1/payment_intents/${reference}`, { status: 200, json: declined });
    const failed = signed(`evt_fail${unique()}`, 'payment_intent.payment_failed', declined);
    expect((await deliver(failed)).body).toMatchObject({ result: 'applied' });
    expect((await deliver(failed)).body).toMatchObject({ result: 'duplicate' });
    expect(await get(c, `/charges/${charge.id}`)).toMatchObject({
      status: 'failed',
      failure_code: 'payment_method_provider_decline',
    });
    expect(await get(c, `/checkouts/${checkout.id}`)).toMatchObject({ status: 'open', payment_status: 'unpaid' });
    expect(await get(c, `/payment_intents/${pi.id}`)).toMatchObject({ status: 'requires_payment_method' });
    expect(await eventsAbout(c, 'charge.failed', charge.id)).toHaveLength(1);
  });

  it('FPX: a missing or unknown bank is refused before anything is recorded or sent', async () => {
    const c = CASES[1];
    stripe.reset();
    for (const body of [{ payment_method_type: 'fpx' }, { payment_method_type: 'fpx', bank: 'kbank' }] as Array<
      Record<string, string>
    >) {
      const { res } = await pendingCharge(c, body);
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E7450');
      expect(res.body.param).toBe('bank');
    }
    const paynowWithBank = await pendingCharge(CASES[0], { payment_method_type: 'paynow', bank: 'maybank2u' });
    expect(paynowWithBank.res.status).toBe(400);
    expectErrorObject(paynowWithBank.res.body, 'E7450');
    expect(stripe.requests.filter((r) => r.path === '/v1/payment_intents')).toHaveLength(0);
  });

  it("FPX: a refund after Stripe's 60-day window is refused with a precise code, before Stripe is asked", async () => {
    const c = CASES[1];
    const { res, reference } = await pendingCharge(c);
    const charge = res.body.charge as { id: string };
    const paid = signed(`evt_old${unique()}`, 'payment_intent.succeeded', {
      ...intent('payment_intent_fpx_succeeded', reference),
      amount: c.amount,
    });
    expect((await deliver(paid)).body).toMatchObject({ result: 'applied' });
    t.clock.advance(61 * 24 * 3600_000);
    stripe.reset();
    const late = await t.http.post(tenant.path('/refunds')).set(live(c)).send({ charge_id: charge.id, amount: 1000 });
    expect(late.status).toBe(400);
    expectErrorObject(late.body, 'E7406');
    expect(stripe.requests).toHaveLength(0);
  });
});
