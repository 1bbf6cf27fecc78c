/**
 * Contract tests of the Stripe adapter's local methods of Singapore and Malaysia (PayNow, FPX,
 * GrabPay): the real `stripe` SDK against the local fake (fakeStripe), answering with Stripe's
 * example PaymentIntent and Refund patched per method (test/fixtures/stripe/*paynow*, *fpx*,
 * *grabpay*, each with its `_source`). docs/PROVIDERS.md, "Stripe: PayNow, FPX and GrabPay".
 */
import Stripe from 'stripe';
import { fakeStripe, stripeFixture, type FakeProvider } from '../../support/fake-provider.js';
import {
  createStripeClient,
  StripeCollectionError,
  StripeCollectionProvider,
  StripeWebhooks,
} from '../../../src/providers/stripe/index.js';

const CHARGE_ID = '01936f6a-0000-7000-8000-000000000001';
const PI = 'pi_3PgafyB7WZ01zgkWpp000001';
const WHSEC = 'whsec_test_fakewebhooksecret000000';
const RETURN = (id: string) => `https://wallet.example/provider_returns/stripe/${id}`;
const request = (currency: 'SGD' | 'MYR', amount: number) => ({
  applicationId: '01936f6a-0000-7000-8000-0000000000aa',
  chargeId: CHARGE_ID,
  amount,
  currency,
  scalingFactor: 100,
  livemode: false,
});
const expiresAt = new Date('2026-11-29T06:00:00.000Z');

describe('Stripe adapter: PayNow, FPX, GrabPay (contract, local server, real SDK)', () => {
  let fake: FakeProvider;
  let stripe: Stripe;
  let collection: StripeCollectionProvider;
  let webhooks: StripeWebhooks;

  beforeAll(async () => {
    fake = await fakeStripe().start();
    stripe = createStripeClient({
      secretKey: fake.secretKey,
      webhookSecret: WHSEC,
      host: '127.0.0.1',
      port: fake.port,
      protocol: 'http',
      timeoutMs: 1_500,
      maxNetworkRetries: 0,
    });
    collection = new StripeCollectionProvider(stripe, {
      returnUri: RETURN,
      promptPayEmail: () => 'unused@wallet.example',
    });
    webhooks = new StripeWebhooks({ test: { stripe, webhookSecret: WHSEC } });
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('PayNow: one confirmed SGD PaymentIntent (no return_url, no email); pending with the QR payload and image', async () => {
    fake.on('POST /v1/payment_intents', { status: 200, fixture: 'payment_intent_paynow_pending' });
    const payment = await collection.createSourcePayment(request('SGD', 25000), {
      type: 'paynow',
      bank: null,
      expiresAt,
      platform: null,
    });
    const qr = stripeFixture<{ next_action: { paynow_display_qr_code: { data: string } } }>(
      'payment_intent_paynow_pending',
    ).next_action.paynow_display_qr_code.data;
    expect(payment).toEqual({
      status: 'pending',
      reference: PI,
      qr: { raw: qr, image: 'https://qr.stripe.com/test_paynow.png' },
    });
    expect(qr).toMatch(/^000201010212\d{2}\d{2}0009SG\.PAYNOW/);
    const sent = fake.last('POST /v1/payment_intents');
    expect(sent.form).toEqual({
      amount: '25000',
      currency: 'sgd',
      'metadata[charge_id]': CHARGE_ID,
      'metadata[application_id]': '01936f6a-0000-7000-8000-0000000000aa',
      'allowed_payment_method_types[0]': 'paynow',
      'payment_method_data[type]': 'paynow',
      confirm: 'true',
    });
    expect(sent.headers['idempotency-key']).toBe(`charge:${CHARGE_ID}`);
  });

  it.each([
    ['fpx', 'maybank2u', { 'payment_method_data[fpx][bank]': 'maybank2u' }],
    ['grabpay', null, {}],
  ] as const)(
    '%s: one confirmed MYR PaymentIntent with return_url; pending with the redirect URL',
    async (type, bank, extra) => {
      fake.on('POST /v1/payment_intents', { status: 200, fixture: `payment_intent_${type}_requires_action` });
      const payment = await collection.createSourcePayment(request('MYR', 12000), {
        type,
        bank,
        expiresAt,
        platform: null,
      });
      expect(payment).toEqual({
        status: 'pending',
        reference: PI,
        redirectUrl: `https://pm-redirects.stripe.com/authorize/acct_1FakeMY/pa_nonce_${type}`,
      });
      expect(fake.last('POST /v1/payment_intents').form).toEqual({
        amount: '12000',
        currency: 'myr',
        'metadata[charge_id]': CHARGE_ID,
        'metadata[application_id]': '01936f6a-0000-7000-8000-0000000000aa',
        'allowed_payment_method_types[0]': type,
        'payment_method_data[type]': type,
        ...extra,
        confirm: 'true',
        return_url: RETURN(CHARGE_ID),
      });
    },
  );

  it('FPX: a bank Stripe does not name (or none) is refused before any call, not retryable', async () => {
    for (const bank of ['kbank', null]) {
      const refused = collection.createSourcePayment(request('MYR', 12000), {
        type: 'fpx',
        bank,
        expiresAt,
        platform: null,
      });
      await expect(refused).rejects.toBeInstanceOf(StripeCollectionError);
      await expect(refused).rejects.toMatchObject({ stripeCode: 'fpx_bank_invalid', retryable: false });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('read back: succeeded is paid; a bank decline (requires_payment_method + last_payment_error) is failed', async () => {
    fake.on(`GET /v1/payment_intents/${PI}`, { status: 200, fixture: 'payment_intent_fpx_succeeded' });
    expect(await collection.confirmPromptPay(PI)).toEqual({ status: 'succeeded', reference: PI });
    fake.on(`GET /v1/payment_intents/${PI}`, { status: 200, fixture: 'payment_intent_fpx_failed' });
    expect(await collection.confirmPromptPay(PI)).toEqual({
      status: 'failed',
      reference: PI,
      failure: {
        code: 'payment_method_provider_decline',
        reason: 'payment_method_provider_decline',
        message: 'The payment was declined by the customer’s bank.',
      },
    });
  });

  it.each(['paynow', 'fpx', 'grabpay'] as const)(
    '%s refund: POST /v1/refunds {payment_intent, amount}; pending (asynchronous at Stripe), then succeeded',
    async (type) => {
      fake.on('POST /v1/refunds', { status: 200, fixture: `refund_${type}_pending` });
      const refund = await collection.refund({
        applicationId: 'app',
        refundId: 'rf_1',
        chargeReference: PI,
        method: type,
        amount: 5000,
        currency: type === 'paynow' ? 'SGD' : 'MYR',
        scalingFactor: 100,
        livemode: false,
      });
      expect(refund).toEqual({ status: 'pending', reference: 're_1Pgc72B7WZ01zgkWqPvrRrPE' });
      expect(fake.last('POST /v1/refunds').form).toMatchObject({ payment_intent: PI, amount: '5000' });
      expect(fake.last('POST /v1/refunds').headers['idempotency-key']).toBe('refund:rf_1');
      fake.on('GET /v1/refunds/re_1Pgc72B7WZ01zgkWqPvrRrPE', {
        status: 200,
        fixture: `refund_${type}_pending`,
        patch: { status: 'succeeded' },
      });
      expect(await collection.refundStatus('re_1Pgc72B7WZ01zgkWqPvrRrPE')).toEqual({
        status: 'succeeded',
        reference: 're_1Pgc72B7WZ01zgkWqPvrRrPE',
      });
    },
  );

  it('fees: Stripe SG/MY rates plus the tax of the currency (GST 9 %, SST 8 %), at least one minor unit', () => {
    // PayNow 1.3 % of SGD 250.00 = 325, + 9 % GST = 354.25 -> 354.
    expect(collection.fee('paynow', 25000, 'SGD')).toBe(354);
    // FPX 2.5 % of MYR 120.00 = 300, + 8 % = 324; GrabPay 3.3 % = 396, + 8 % = 427.68 -> 428.
    expect(collection.fee('fpx', 12000, 'MYR')).toBe(324);
    expect(collection.fee('grabpay', 12000, 'MYR')).toBe(428);
    expect(collection.fee('paynow', 1, 'SGD')).toBe(1);
  });

  it('webhooks: payment_intent.succeeded / payment_failed of a local method are charge notices by pi_; refund.updated a refund notice', async () => {
    const sign = (payload: string) => stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC });
    const event = (id: string, type: string, object: object) =>
      JSON.stringify({ ...stripeFixture('event_payment_intent_succeeded'), id, type, data: { object } });
    const verify = (payload: string) =>
      webhooks.verify(Buffer.from(payload), { 'stripe-signature': sign(payload) }, 'test');

    const paid = event('evt_paid', 'payment_intent.succeeded', stripeFixture('payment_intent_grabpay_succeeded'));
    expect(await verify(paid)).toEqual({
      provider_event_id: 'evt_paid',
      kind: 'payment_intent.succeeded',
      livemode: false,
      reference: PI,
      status: 'succeeded',
    });
    const failed = event('evt_failed', 'payment_intent.payment_failed', stripeFixture('payment_intent_fpx_failed'));
    expect(await verify(failed)).toMatchObject({ reference: PI, status: 'failed' });
    const refunded = event('evt_refund', 'refund.updated', {
      ...stripeFixture('refund_paynow_pending'),
      status: 'succeeded',
    });
    expect(await verify(refunded)).toMatchObject({ reference: 're_1Pgc72B7WZ01zgkWqPvrRrPE', status: 'succeeded' });
  });
});
