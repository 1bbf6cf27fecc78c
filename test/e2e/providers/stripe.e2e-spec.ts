/**
 * Contract tests of the Stripe adapter: the real `stripe` SDK talks to a local HTTP server (its
 * documented host/port/protocol options) that answers with Stripe's published example objects
 * (test/fixtures/stripe/, each with its `_source`: github.com/stripe/openapi fixtures3.json).
 * docs/PROVIDERS.md "## Stripe" has the command a partner runs against Stripe's test environment.
 */
import Stripe from 'stripe';
import { fakeStripe, stripeFixture, type FakeProvider } from '../../support/fake-provider.js';
import {
  createStripeClient,
  StripeCollectionError,
  StripeCollectionProvider,
  StripeTransferError,
  StripeTransferProvider,
  StripeWebhookRejected,
  StripeWebhooks,
  STRIPE_EXTERNAL_ACCOUNT,
  stripeClientOptions,
  type StripePayment,
} from '../../../src/providers/stripe/index.js';
import { CollectionProviderError } from '../../../src/providers/ports/collection.port.js';
import { TransferProviderError } from '../../../src/providers/ports/transfer.port.js';

const CHARGE_ID = '01936f6a-0000-7000-8000-000000000001';
const ACCOUNT = 'acct_1PgafTB7WZ01zgkW';
const WHSEC = 'whsec_test_fakewebhooksecret000000';
const request = (over: Partial<{ amount: number; chargeId: string }> = {}) => ({
  applicationId: '01936f6a-0000-7000-8000-0000000000aa',
  chargeId: over.chargeId ?? CHARGE_ID,
  amount: over.amount ?? 100000,
  currency: 'THB',
  scalingFactor: 100,
  livemode: false,
});

describe('Stripe adapter (contract, local server, real SDK)', () => {
  let fake: FakeProvider;
  let stripe: Stripe;
  let collection: StripeCollectionProvider;
  let transfers: StripeTransferProvider;
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
      returnUri: (id) => `https://wallet.example/checkout/charges/${id}/return`,
      promptPayEmail: (r) => `payer+${r.chargeId}@wallet.example`,
      destination: () => ACCOUNT,
    });
    transfers = new StripeTransferProvider(stripe, { connectedAccount: () => ACCOUNT });
    webhooks = new StripeWebhooks({ test: { stripe, webhookSecret: WHSEC } });
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  describe('cards (PaymentIntents confirmed by the Payment Element)', () => {
    it('success: the browser-confirmed PaymentIntent is read back and checked; Bearer key, pinned version', async () => {
      fake.on('GET /v1/payment_intents/pi_1PgafyB7WZ01zgkWSjxsAJo3', {
        status: 200,
        fixture: 'payment_intent_succeeded',
      });
      const payment = await collection.chargeCard(request(), 'pi_1PgafyB7WZ01zgkWSjxsAJo3');
      expect(payment).toEqual({ status: 'succeeded', reference: 'pi_1PgafyB7WZ01zgkWSjxsAJo3' });
      const sent = fake.last('GET /v1/payment_intents/pi_1PgafyB7WZ01zgkWSjxsAJo3');
      expect(sent.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
      expect(sent.headers['stripe-version']).toBe('2026-10-28.endive');
    });

    it('a PaymentIntent of another charge (or amount) is refused, not believed', async () => {
      fake.on('GET /v1/payment_intents/pi_1PgafyB7WZ01zgkWSjxsAJo3', {
        status: 200,
        fixture: 'payment_intent_succeeded',
      });
      await expect(
        collection.chargeCard(
          request({ chargeId: '01936f6a-0000-7000-8000-0000000000ff' }),
          'pi_1PgafyB7WZ01zgkWSjxsAJo3',
        ),
      ).rejects.toMatchObject({ stripeCode: 'intent_mismatch', retryable: false });
      await expect(collection.chargeCard(request({ amount: 1 }), 'pi_1PgafyB7WZ01zgkWSjxsAJo3')).rejects.toBeInstanceOf(
        CollectionProviderError,
      );
    });

    it('creates the intent for the page with an idempotency key, destination charge via transfer_data', async () => {
      fake.on('POST /v1/payment_intents', {
        status: 200,
        fixture: 'payment_intent_declined',
        patch: { status: 'requires_payment_method', last_payment_error: null },
      });
      const intent = await collection.createCardIntent(request());
      expect(intent.reference).toBe('pi_1PgafyB7WZ01zgkWSjxsAJo3');
      expect(intent.clientSecret).toMatch(/^pi_1PgafyB7WZ01zgkWSjxsAJo3_secret_/);
      expect(intent.returnUrl).toBe(`https://wallet.example/checkout/charges/${CHARGE_ID}/return`);
      const sent = fake.last('POST /v1/payment_intents');
      expect(sent.headers['idempotency-key']).toBe(`pi:${CHARGE_ID}`);
      expect(sent.form).toMatchObject({
        amount: '100000',
        currency: 'thb',
        'allowed_payment_method_types[0]': 'card',
        'metadata[charge_id]': CHARGE_ID,
        'transfer_data[destination]': ACCOUNT,
      });
    });

    it('decline: a PaymentIntent with last_payment_error, and a 402 card_error on confirm, are failed payments', async () => {
      fake.on('GET /v1/payment_intents/pi_1PgafyB7WZ01zgkWSjxsAJo3', {
        status: 200,
        fixture: 'payment_intent_declined',
      });
      expect(await collection.chargeCard(request(), 'pi_1PgafyB7WZ01zgkWSjxsAJo3')).toMatchObject({
        status: 'failed',
        failure: { code: 'card_declined', reason: 'insufficient_funds' },
      });
      fake.on('POST /v1/payment_intents', { status: 402, fixture: 'error_card_declined' });
      const declined = await collection.chargeCard(request(), 'pm_card_visa_chargeDeclined');
      expect(declined).toMatchObject({
        status: 'failed',
        reference: `stripe_refused:${CHARGE_ID}`,
        failure: { code: 'card_declined', reason: 'insufficient_funds' },
      });
      expect(fake.last('POST /v1/payment_intents').headers['idempotency-key']).toBe(`charge:${CHARGE_ID}`);
      expect(fake.last('POST /v1/payment_intents').form).toMatchObject({
        confirm: 'true',
        payment_method: 'pm_card_visa_chargeDeclined',
      });
      fake.on('POST /v1/payment_intents', { status: 402, fixture: 'error_expired_card' });
      expect(await collection.chargeCard(request(), 'pm_card_expired')).toMatchObject({
        status: 'failed',
        failure: { code: 'expired_card', reason: 'expired_card' },
      });
    });

    it('3-D Secure: requires_action with next_action.redirect_to_url, then the read after return is succeeded', async () => {
      fake.on('POST /v1/payment_intents', { status: 200, fixture: 'payment_intent_requires_action_3ds' });
      const payment: StripePayment = await collection.chargeCard(request(), 'pm_card_threeDSecure2Required');
      expect(payment).toEqual({
        status: 'pending',
        reference: 'pi_3PgafyB7WZ01zgkW3ds00001',
        authorizeUri: expect.stringMatching(/^https:\/\/hooks\.stripe\.com\/redirect\/authenticate\//),
      });
      expect(fake.last('POST /v1/payment_intents').form.return_url).toBe(
        `https://wallet.example/checkout/charges/${CHARGE_ID}/return`,
      );
      fake.on('GET /v1/payment_intents/pi_3PgafyB7WZ01zgkW3ds00001', {
        status: 200,
        fixture: 'payment_intent_succeeded',
        patch: { id: 'pi_3PgafyB7WZ01zgkW3ds00001' },
      });
      expect(await collection.confirmPromptPay(payment.reference)).toEqual({
        status: 'succeeded',
        reference: 'pi_3PgafyB7WZ01zgkW3ds00001',
      });
    });

    it('card details are refused: no PAN is sent to Stripe from the service', async () => {
      const card = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
      await expect(collection.chargeCard(request(), card)).rejects.toMatchObject({ stripeCode: 'token_required' });
      expect(() => collection.describeCard(card, 'app')).toThrow(StripeCollectionError);
      expect(fake.requests).toHaveLength(0);
    });
  });

  describe("a lost answer, read back by the service's charge id", () => {
    it('the confirm got no answer after Stripe made the intent: the intents created around the attempt are listed and matched on metadata.charge_id', async () => {
      fake.on('POST /v1/payment_intents', { hang: true });
      const recordedAt = new Date();
      await expect(collection.chargeCard(request(), 'pm_card_visa')).rejects.toBeInstanceOf(StripeCollectionError);

      const made = stripeFixture('payment_intent_succeeded');
      const other = { ...stripeFixture('payment_intent_declined'), id: 'pi_other', metadata: { charge_id: 'another' } };
      fake.on('GET /v1/payment_intents', {
        status: 200,
        json: { object: 'list', url: '/v1/payment_intents', has_more: false, data: [other, made] },
      });
      const read = await collection.paymentByChargeId(CHARGE_ID, recordedAt);
      expect(read).toMatchObject({ status: 'succeeded', reference: (made as { id: string }).id });
      const asked = fake.last('GET /v1/payment_intents');
      expect(Number(asked.query['created[gte]'])).toBeLessThan(recordedAt.getTime() / 1000);
      expect(Number(asked.query['created[lte]'])).toBeGreaterThan(recordedAt.getTime() / 1000);
    });

    it('Stripe made no intent for the id: null; Stripe unreachable: a CollectionProviderError', async () => {
      fake.on('GET /v1/payment_intents', {
        status: 200,
        json: { object: 'list', url: '/v1/payment_intents', has_more: false, data: [] },
      });
      expect(await collection.paymentByChargeId(CHARGE_ID, new Date())).toBeNull();
      fake.on('GET /v1/payment_intents', { status: 500, fixture: 'error_api_500' });
      await expect(collection.paymentByChargeId(CHARGE_ID, new Date())).rejects.toBeInstanceOf(StripeCollectionError);
    });
  });

  it('PromptPay: pending with the QR payload and image, then succeeded on the read', async () => {
    fake.on('POST /v1/payment_intents', { status: 200, fixture: 'payment_intent_promptpay_pending' });
    const expiresAt = new Date('2026-11-25T07:00:00.000Z');
    const payment = await collection.createPromptPay(request(), expiresAt);
    const qr = stripeFixture<{ next_action: { promptpay_display_qr_code: { data: string; image_url_png: string } } }>(
      'payment_intent_promptpay_pending',
    ).next_action.promptpay_display_qr_code;
    expect(payment).toEqual({
      status: 'pending',
      reference: 'pi_3PgafyB7WZ01zgkWpp000001',
      promptpay: {
        raw: qr.data,
        image: qr.image_url_png,
        ref1: 'pi_3PgafyB7WZ01zgkWpp000001',
        ref2: null,
        ref3: null,
        expires_at: expiresAt.toISOString(),
      },
    });
    const sent = fake.last('POST /v1/payment_intents');
    expect(sent.headers['idempotency-key']).toBe(`charge:${CHARGE_ID}`);
    expect(sent.form).toMatchObject({
      'allowed_payment_method_types[0]': 'promptpay',
      'payment_method_data[type]': 'promptpay',
      'payment_method_data[billing_details][email]': `payer+${CHARGE_ID}@wallet.example`,
      confirm: 'true',
    });
    fake.on('GET /v1/payment_intents/pi_3PgafyB7WZ01zgkWpp000001', {
      status: 200,
      fixture: 'payment_intent_promptpay_succeeded',
    });
    expect(await collection.confirmPromptPay(payment.reference)).toEqual({
      status: 'succeeded',
      reference: 'pi_3PgafyB7WZ01zgkWpp000001',
    });
  });

  it('partial refund: POST /v1/refunds {payment_intent, amount} keyed by the refund id; pending then succeeded', async () => {
    fake.on('POST /v1/refunds', { status: 200, fixture: 'refund_partial_pending' });
    const refund = await collection.refund({
      applicationId: 'app',
      refundId: '01936f6a-0000-7000-8000-0000000000r1',
      chargeReference: 'pi_1PgafyB7WZ01zgkWSjxsAJo3',
      method: 'card',
      amount: 30000,
      currency: 'THB',
      scalingFactor: 100,
      livemode: false,
    });
    expect(refund).toEqual({ status: 'pending', reference: 're_1Pgc72B7WZ01zgkWqPvrRrPE' });
    const sent = fake.last('POST /v1/refunds');
    expect(sent.headers['idempotency-key']).toBe('refund:01936f6a-0000-7000-8000-0000000000r1');
    expect(sent.form).toMatchObject({ payment_intent: 'pi_1PgafyB7WZ01zgkWSjxsAJo3', amount: '30000' });
    fake.on('GET /v1/refunds/re_1Pgc72B7WZ01zgkWqPvrRrPE', { status: 200, fixture: 'refund_partial_succeeded' });
    expect(await collection.refundStatus(refund.reference)).toEqual({
      status: 'succeeded',
      reference: refund.reference,
    });
  });

  describe('payouts (Connect external accounts)', () => {
    const recipient = {
      applicationId: 'app',
      bankAccountId: '01936f6a-0000-7000-8000-0000000000b1',
      country: 'TH',
      providerType: STRIPE_EXTERNAL_ACCOUNT,
      currency: 'THB',
      accountHolderName: 'Somchai Jaidee',
      bankCode: '004',
      accountNumber: '1234567890',
      passthrough: {},
    };
    const payout = (recipientReference: string) => ({
      applicationId: 'app',
      payoutId: '01936f6a-0000-7000-8000-0000000000p1',
      recipientReference,
      amount: 50000,
      currency: 'THB',
      scalingFactor: 100,
      livemode: false,
    });

    it('success: external account, payout keyed by the payout id on the connected account, then paid; cancel', async () => {
      expect(transfers.providerType('TH', 'bookbank')).toBe(STRIPE_EXTERNAL_ACCOUNT);
      expect(transfers.providerType('TH', 'promptpay_phone')).toBeNull();
      fake.on(`POST /v1/accounts/${ACCOUNT}/external_accounts`, { status: 200, fixture: 'bank_account' });
      const r = await transfers.createRecipient(recipient);
      expect(r).toEqual({ reference: `${ACCOUNT}/ba_1PgagAB7WZ01zgkWr3DySp2Q`, routingNumber: '004' });
      expect(fake.last(`POST /v1/accounts/${ACCOUNT}/external_accounts`).form).toMatchObject({
        'external_account[object]': 'bank_account',
        'external_account[country]': 'TH',
        'external_account[currency]': 'thb',
        'external_account[account_number]': '1234567890',
        'external_account[routing_number]': '004',
      });

      fake.on('POST /v1/payouts', { status: 200, fixture: 'payout_pending' });
      const t = await transfers.createTransfer(payout(r.reference));
      expect(t).toEqual({ status: 'pending', reference: `${ACCOUNT}/po_1Pgc79B7WZ01zgkWu1KToYf4` });
      const sent = fake.last('POST /v1/payouts');
      expect(sent.headers['idempotency-key']).toBe('payout:01936f6a-0000-7000-8000-0000000000p1');
      expect(sent.headers['stripe-account']).toBe(ACCOUNT);
      expect(sent.form).toMatchObject({ amount: '50000', currency: 'thb', destination: 'ba_1PgagAB7WZ01zgkWr3DySp2Q' });

      fake.on('GET /v1/payouts/po_1Pgc79B7WZ01zgkWu1KToYf4', { status: 200, fixture: 'payout_paid' });
      expect(await transfers.transferStatus(t.reference)).toEqual({ status: 'paid', reference: t.reference });
      expect(fake.last('GET /v1/payouts/po_1Pgc79B7WZ01zgkWu1KToYf4').headers['stripe-account']).toBe(ACCOUNT);

      fake.on('POST /v1/payouts/po_1Pgc79B7WZ01zgkWu1KToYf4/cancel', { status: 200, fixture: 'payout_canceled' });
      expect(await transfers.cancelTransfer(t.reference)).toEqual({ status: 'canceled', reference: t.reference });
      // Once in transit Stripe refuses the cancel: the payout's state is answered instead.
      fake.on('POST /v1/payouts/po_1Pgc79B7WZ01zgkWu1KToYf4/cancel', {
        status: 400,
        fixture: 'error_payout_not_cancelable',
      });
      expect(await transfers.cancelTransfer(t.reference)).toEqual({ status: 'paid', reference: t.reference });
    });

    it('failure: a bank refusal reads as failed; a balance refusal throws a non-retryable TransferProviderError', async () => {
      fake.on('GET /v1/payouts/po_1Pgc79B7WZ01zgkWu1KToYf4', { status: 200, fixture: 'payout_failed' });
      expect(await transfers.transferStatus(`${ACCOUNT}/po_1Pgc79B7WZ01zgkWu1KToYf4`)).toEqual({
        status: 'failed',
        reference: `${ACCOUNT}/po_1Pgc79B7WZ01zgkWu1KToYf4`,
        failure: { code: 'account_closed', message: 'The bank account has been closed.' },
      });
      fake.on('POST /v1/payouts', { status: 400, fixture: 'error_payout_insufficient_funds' });
      const err = await transfers.createTransfer(payout(`${ACCOUNT}/ba_1`)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TransferProviderError);
      expect(err).toMatchObject({ stripeCode: 'insufficient_funds', retryable: false, outcomeUnknown: false });
    });

    it('no connected account, or a PromptPay destination: refused before any call', async () => {
      const none = new StripeTransferProvider(stripe, { connectedAccount: () => null });
      await expect(none.createRecipient(recipient)).rejects.toMatchObject({ stripeCode: 'unsupported_destination' });
      await expect(transfers.createRecipient({ ...recipient, providerType: 'x' })).rejects.toBeInstanceOf(
        StripeTransferError,
      );
      expect(fake.requests).toHaveLength(0);
    });
  });

  describe('provider failures', () => {
    it('HTTP 500 (api_error, or an HTML page) is retryable with an unknown outcome', async () => {
      fake.on(
        'POST /v1/payment_intents',
        { status: 500, fixture: 'error_api_500' },
        { status: 502, text: '<html>Bad gateway</html>' },
      );
      for (let i = 0; i < 2; i++) {
        const err = await collection.createPromptPay(request(), new Date()).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(CollectionProviderError);
        expect(err).toMatchObject({ retryable: true, outcomeUnknown: true });
      }
    });

    it('a timeout is a retryable error whose outcome is unknown, for payments and payouts', async () => {
      fake.on('POST /v1/payment_intents', { hang: true });
      fake.on('POST /v1/payouts', { hang: true });
      await expect(collection.chargeCard(request(), 'pm_card_visa')).rejects.toMatchObject({
        stripeCode: 'timeout',
        retryable: true,
        outcomeUnknown: true,
      });
      await expect(transfers.createTransfer(payout(`${ACCOUNT}/ba_1`))).rejects.toMatchObject({
        stripeCode: 'timeout',
        retryable: true,
        outcomeUnknown: true,
      });
    });

    it('a wrong key is not retryable and the message never echoes it', async () => {
      const wrong = createStripeClient({
        secretKey: 'sk_test_51WrongKeyWrongKey0000',
        webhookSecret: null,
        host: '127.0.0.1',
        port: fake.port,
        protocol: 'http',
        timeoutMs: 1_500,
        maxNetworkRetries: 0,
      });
      const err = (await new StripeCollectionProvider(wrong, collectionOptions())
        .confirmPromptPay('pi_x')
        .catch((e: unknown) => e)) as StripeCollectionError;
      expect(err).toMatchObject({ stripeCode: 'authentication_error', retryable: false });
      expect(err.message).not.toContain('WrongKey');
    });

    const payout = (recipientReference: string) => ({
      applicationId: 'app',
      payoutId: '01936f6a-0000-7000-8000-0000000000p2',
      recipientReference,
      amount: 1,
      currency: 'THB',
      scalingFactor: 100,
      livemode: false,
    });
    const collectionOptions = () => ({ returnUri: () => '', promptPayEmail: () => '' });
  });

  describe('webhooks (Stripe-Signature verified by constructEvent)', () => {
    const body = JSON.stringify(stripeFixture('event_payment_intent_succeeded'));
    const sign = (payload: string, secret = WHSEC) => stripe.webhooks.generateTestHeaderString({ payload, secret });
    /** What the webhook route hands Stripe's webhook port: the raw body and the headers, verified with the test-mode secret. */
    const verify = (payload: string | Buffer, signature?: string) =>
      webhooks.verify(Buffer.from(payload), signature === undefined ? {} : { 'stripe-signature': signature }, 'test');

    it('a good signature yields the normalized notice; a replay yields the same notice', async () => {
      const header = sign(body);
      const notice = await verify(body, header);
      expect(notice).toEqual({
        provider_event_id: 'evt_1Pgc76B7WZ01zgkWwyRHS12y',
        kind: 'payment_intent.succeeded',
        reference: 'pi_3PgafyB7WZ01zgkWpp000001',
        status: 'succeeded',
        livemode: false,
      });
      expect(await verify(Buffer.from(body), header)).toEqual(notice);
    });

    it('forged: another secret, a tampered body, no header, an old timestamp are all rejected', async () => {
      await expect(verify(body, sign(body, 'whsec_attacker'))).rejects.toThrow(StripeWebhookRejected);
      const header = sign(body);
      await expect(verify(body.replace('"succeeded"', '"canceled"'), header)).rejects.toThrow(StripeWebhookRejected);
      await expect(verify(body, undefined)).rejects.toThrow(StripeWebhookRejected);
      const old = stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: WHSEC,
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      });
      await expect(verify(body, old)).rejects.toThrow(StripeWebhookRejected);
    });

    it('payout events map to the transfer reference on the connected account', async () => {
      const event = JSON.stringify({ ...stripeFixture('event_payout_failed'), account: ACCOUNT });
      expect(await verify(event, sign(event))).toMatchObject({
        kind: 'payout.failed',
        reference: `${ACCOUNT}/po_1Pgc79B7WZ01zgkWu1KToYf4`,
        status: 'failed',
      });
    });
  });

  it('fee: Stripe Thailand rates plus 7 % VAT on the fee', () => {
    expect(collection.fee('card', 100000, 'THB')).toBe(3906);
    expect(collection.fee('promptpay', 100000, 'THB')).toBe(1766);
  });

  it('configuration: a key per mode or a _FILE, the wrong kind refused without echoing it', () => {
    expect(stripeClientOptions({}, 'test')).toBeNull();
    const options = stripeClientOptions(
      {
        STRIPE_SECRET_KEY_TEST: 'sk_test_abc',
        STRIPE_WEBHOOK_SECRET_TEST: 'whsec_x',
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: '12111',
        STRIPE_API_PROTOCOL: 'http',
      },
      'test',
    );
    expect(options).toMatchObject({
      secretKey: 'sk_test_abc',
      webhookSecret: 'whsec_x',
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    expect(() => stripeClientOptions({ STRIPE_SECRET_KEY_LIVE: 'sk_test_secretvalue' }, 'live')).toThrow(
      /^STRIPE_SECRET_KEY_LIVE must hold a Stripe live secret key/,
    );
    try {
      stripeClientOptions({ STRIPE_SECRET_KEY_LIVE: 'sk_test_secretvalue' }, 'live');
    } catch (e) {
      expect((e as Error).message).not.toContain('secretvalue');
    }
  });
});
