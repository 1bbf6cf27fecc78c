/**
 * The Stripe contract against Stripe's own TEST mode (api.stripe.com with a test key). Skipped
 * unless a partner runs it with their key and no local host override:
 *
 *   STRIPE_SECRET_KEY_TEST=sk_test_… npm test -- stripe.live
 *
 * Not run from the build machine (no network to Stripe, no keys). It uses Stripe's documented
 * test PaymentMethods (https://docs.stripe.com/testing): pm_card_visa, pm_card_visa_chargeDeclined,
 * pm_card_threeDSecure2Required; the service never sees a card number. PromptPay runs only
 * with STRIPE_LIVE_PROMPTPAY=1 (it needs a Thai Stripe account); PayNow with STRIPE_LIVE_PAYNOW=1
 * (a Singapore account), FPX and GrabPay with STRIPE_LIVE_MALAYSIA=1 (a Malaysian account).
 */
import { randomUUID } from 'node:crypto';
import {
  createStripeClient,
  StripeCollectionProvider,
  StripeWebhookRejected,
  StripeWebhooks,
} from '../../../src/providers/stripe/index.js';

const secretKey = process.env.STRIPE_SECRET_KEY_TEST;
const live = Boolean(secretKey?.startsWith('sk_test_') && !process.env.STRIPE_API_HOST);

(live ? describe : describe.skip)('Stripe adapter (Stripe test mode)', () => {
  const stripe = createStripeClient({
    secretKey: secretKey ?? 'sk_test_unset',
    webhookSecret: null,
    timeoutMs: 30_000,
    maxNetworkRetries: 1,
  });
  const collection = new StripeCollectionProvider(stripe, {
    returnUri: (id) => `https://example.com/return/${id}`,
    promptPayEmail: (r) => `payer+${r.chargeId}@example.com`,
  });
  const currency = process.env.STRIPE_LIVE_CURRENCY ?? 'THB';
  const request = () => ({
    applicationId: randomUUID(),
    chargeId: randomUUID(),
    amount: 100000,
    currency,
    scalingFactor: 100,
    livemode: false,
  });

  it('pm_card_visa succeeds; a partial refund is accepted', async () => {
    const payment = await collection.chargeCard(request(), 'pm_card_visa');
    expect(payment.status).toBe('succeeded');
    const refund = await collection.refund({
      applicationId: 'app',
      refundId: randomUUID(),
      chargeReference: payment.reference,
      method: 'card',
      amount: 30000,
      currency,
      scalingFactor: 100,
      livemode: false,
    });
    expect(['succeeded', 'pending']).toContain(refund.status);
    expect(['succeeded', 'pending']).toContain((await collection.refundStatus(refund.reference)).status);
  }, 60_000);

  it('pm_card_visa_chargeDeclined is a failed payment; 3-D Secure is pending with a redirect', async () => {
    expect(await collection.chargeCard(request(), 'pm_card_visa_chargeDeclined')).toMatchObject({
      status: 'failed',
      failure: { code: 'card_declined' },
    });
    const threeDs = await collection.chargeCard(request(), 'pm_card_threeDSecure2Required');
    expect(threeDs).toMatchObject({ status: 'pending', authorizeUri: expect.stringMatching(/^https:\/\//) });
  }, 60_000);

  (process.env.STRIPE_LIVE_PROMPTPAY ? it : it.skip)(
    'PromptPay: pending with a QR',
    async () => {
      const payment = await collection.createPromptPay(request(), new Date(Date.now() + 15 * 60_000));
      expect(payment.status).toBe('pending');
      expect(payment.promptpay?.raw).toBeTruthy();
    },
    60_000,
  );

  (process.env.STRIPE_LIVE_PAYNOW ? it : it.skip)(
    'PayNow (SGD): pending with the QR payload and image; the intent reads back pending',
    async () => {
      const payment = await collection.createSourcePayment(
        { ...request(), currency: 'SGD', amount: 2500 },
        { type: 'paynow', bank: null, platform: null, expiresAt: new Date(Date.now() + 60 * 60_000) },
      );
      expect(payment).toMatchObject({ status: 'pending', qr: { raw: expect.stringContaining('SG.PAYNOW') } });
      expect((await collection.confirmPromptPay(payment.reference)).status).toBe('pending');
    },
    60_000,
  );

  (process.env.STRIPE_LIVE_MALAYSIA ? it.each(['fpx', 'grabpay'] as const) : it.skip.each(['fpx', 'grabpay'] as const))(
    "%s (MYR): pending with a redirect to Stripe's test authorization page",
    async (type) => {
      const payment = await collection.createSourcePayment(
        { ...request(), currency: 'MYR', amount: 12000 },
        {
          type,
          platform: null,
          bank: type === 'fpx' ? 'maybank2u' : null,
          expiresAt: new Date(Date.now() + 15 * 60_000),
        },
      );
      expect(payment).toMatchObject({ status: 'pending', redirectUrl: expect.stringMatching(/^https:\/\//) });
    },
    60_000,
  );

  it('a webhook signed with another secret is rejected', async () => {
    const webhooks = new StripeWebhooks({ test: { stripe, webhookSecret: 'whsec_partner_local' } });
    const body = JSON.stringify({
      id: 'evt_x',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: {} },
    });
    const forged = stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_other' });
    await expect(webhooks.verify(Buffer.from(body), { 'stripe-signature': forged }, 'test')).rejects.toThrow(
      StripeWebhookRejected,
    );
  });
});
