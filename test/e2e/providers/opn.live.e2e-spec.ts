/**
 * The Opn contract against Opn's own TEST environment (api.omise.co with test keys). Skipped unless
 * a partner runs it with their keys and no local base URL:
 *
 *   OPN_SECRET_KEY_TEST=skey_test_… OPN_PUBLIC_KEY_TEST=pkey_test_… npm test -- opn.live
 *
 * Not run from the build machine (no network to Opn, no keys). The card number below is Opn's
 * published test card (https://docs.omise.co/api-testing); it goes to vault.omise.co with the
 * public key, which is what Omise.js does in the browser: the service's adapter only sees the token.
 */
import { OpnClient, OpnCollectionProvider, OpnWebhookRejected, OpnWebhooks } from '../../../src/providers/opn/index.js';

const secretKey = process.env.OPN_SECRET_KEY_TEST;
const publicKey = process.env.OPN_PUBLIC_KEY_TEST;
const live = Boolean(secretKey && publicKey && !process.env.OPN_BASE_URL);

async function testToken(number: string): Promise<string> {
  const res = await fetch('https://vault.omise.co/tokens', {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${publicKey}:`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      'card[name]': 'CONTRACT TEST',
      'card[number]': number,
      'card[expiration_month]': '12',
      'card[expiration_year]': String(new Date().getUTCFullYear() + 2),
      'card[security_code]': '123',
    }),
  });
  const body = (await res.json()) as { id?: string; message?: string };
  if (!body.id) throw new Error(`vault refused the test card: ${body.message}`);
  return body.id;
}

/** What the webhook route hands Opn's webhook port: the raw body, verified with the test-mode key. */
const verifyWith = (webhooks: OpnWebhooks, body: string | Buffer | object) =>
  webhooks.verify(
    Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    {},
    'test',
  );

(live ? describe : describe.skip)('Opn Payments adapter (Opn test environment)', () => {
  const client = new OpnClient({ secretKey: secretKey ?? 'skey_test_unset', timeoutMs: 30_000 });
  const collection = new OpnCollectionProvider(client, { returnUri: (id) => `https://example.com/return/${id}` });
  const webhooks = new OpnWebhooks({ test: client });
  const verify = (body: object) => verifyWith(webhooks, body);
  const request = (amount: number) => ({
    applicationId: 'contract-test',
    chargeId: `contract-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    amount,
    currency: 'THB',
    scalingFactor: 100,
    livemode: false,
  });

  it('charges a token (4242…), then refunds part of it', async () => {
    const payment = await collection.chargeCard(request(100_00), await testToken('4242424242424242'));
    // Accounts with 3-D Secure enforced answer pending with authorize_uri instead.
    expect(['succeeded', 'pending']).toContain(payment.status);
    if (payment.status !== 'succeeded') return;
    const refund = await collection.refund({
      applicationId: 'contract-test',
      refundId: `refund-${Date.now()}`,
      chargeReference: payment.reference,
      method: 'card',
      amount: 40_00,
      currency: 'THB',
      scalingFactor: 100,
      livemode: false,
    });
    expect(['succeeded', 'pending']).toContain(refund.status);
    expect((await collection.refundStatus(refund.reference)).reference).toBe(refund.reference);
  });

  it('a declined test card (insufficient_fund) is a failed payment', async () => {
    const payment = await collection.chargeCard(request(100_00), await testToken('4111111111140011'));
    if (payment.status === 'pending') return; // 3-D Secure enforced on this account
    expect(payment).toMatchObject({ status: 'failed', failure: { reason: 'insufficient_funds' } });
  });

  it('PromptPay: pending with Opn’s QR image, readable by id', async () => {
    const payment = await collection.createPromptPay(request(50_00), new Date(Date.now() + 3_600_000));
    expect(payment.status).toBe('pending');
    expect(payment.promptpay?.image).toMatch(/^https:\/\//);
    expect((await collection.confirmPromptPay(payment.reference)).status).toBe('pending');
  });

  it('webhooks: a real event id verifies (twice, same notice); an unknown one is rejected', async () => {
    const events = (await client.get('/events?limit=1&order=reverse_chronological')) as unknown as {
      data: Array<{ id: string }>;
    };
    if (events.data[0]) {
      const body = { object: 'event', id: events.data[0].id };
      expect(await verify(body)).toEqual(await verify(body));
    }
    await expect(verify({ object: 'event', id: 'evnt_test_0000000000000000000' })).rejects.toBeInstanceOf(
      OpnWebhookRejected,
    );
  });
});
