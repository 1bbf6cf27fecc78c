/**
 * Contract tests of the saved-card half of the Opn and Stripe adapters (docs/COLLECTION.md,
 * "Saved payment methods") against the local fake servers answering with the providers' published
 * shapes (test/fixtures/, each with its `_source`): off-session charges of a saved card (success,
 * decline, authentication required) and removing the card from its provider customer.
 */
import { fakeOpn, fakeStripe, type FakeProvider } from '../../support/fake-provider.js';
import { OpnClient, OpnCollectionProvider } from '../../../src/providers/opn/index.js';
import { createStripeClient, StripeCollectionProvider } from '../../../src/providers/stripe/index.js';
import { CollectionProviderError } from '../../../src/providers/ports/collection.port.js';

const CHARGE_ID = '01936f6a-0000-7000-8000-000000000001';
const request = {
  applicationId: '01936f6a-0000-7000-8000-0000000000aa',
  chargeId: CHARGE_ID,
  amount: 100000,
  currency: 'THB',
  scalingFactor: 100,
  livemode: false,
};

describe('Opn saved cards (customer cards, local server)', () => {
  let opn: FakeProvider;
  let collection: OpnCollectionProvider;
  const card = {
    reference: 'card_test_5fzsavedcard0000000001',
    customer: 'cust_test_5fzcustomer000000001',
    sandbox_outcome: null,
  };

  beforeAll(async () => {
    opn = await fakeOpn().start();
    const client = new OpnClient({
      secretKey: opn.secretKey,
      apiBase: opn.baseUrl,
      omiseVersion: '2019-05-29',
      timeoutMs: 2_000,
    });
    collection = new OpnCollectionProvider(client, {
      returnUri: (id) => `https://wallet.example/provider_returns/opn/${id}`,
    });
  });
  afterAll(() => opn.stop());
  beforeEach(() => opn.reset());

  it('charges the customer’s card off-session: succeeded, customer and card sent, keyed by the charge id', async () => {
    opn.on('POST /charges', { status: 200, fixture: 'charge_successful', patch: { customer: card.customer } });
    const payment = await collection.chargeSavedCard(request, card, true);
    expect(payment).toEqual({ status: 'succeeded', reference: 'chrg_test_4z429hvnv7ouolu6kmp' });
    const sent = opn.last('POST /charges');
    expect(sent.form).toMatchObject({
      amount: '100000',
      currency: 'thb',
      customer: card.customer,
      card: card.reference,
    });
    expect(sent.headers['idempotency-key']).toBe(`charge:${CHARGE_ID}`);
  });

  it('a declined saved card is a failed payment with the decline reason', async () => {
    opn.on('POST /charges', { status: 200, fixture: 'charge_declined' });
    expect(await collection.chargeSavedCard(request, card, true)).toMatchObject({
      status: 'failed',
      failure: { code: 'card_declined', reason: 'insufficient_funds' },
    });
  });

  it('3-D Secure off-session is authentication_required; on-session it is pending with the authorize_uri', async () => {
    opn.on('POST /charges', { status: 200, fixture: 'charge_3ds_pending' });
    expect(await collection.chargeSavedCard(request, card, true)).toMatchObject({
      status: 'failed',
      reference: 'chrg_test_5f3dsecure000000000001',
      failure: { code: 'authentication_required' },
    });
    expect(await collection.chargeSavedCard(request, card, false)).toMatchObject({
      status: 'pending',
      authorizeUri: expect.stringMatching(/^https:\/\//),
    });
  });

  it('detaches the card from its Opn customer; a card already gone is fine; Opn down is a provider error', async () => {
    opn.on(`DELETE /customers/${card.customer}/cards/${card.reference}`, { status: 200, fixture: 'card_deleted' });
    await collection.detachSavedCard(card);
    expect(opn.last(`DELETE /customers/${card.customer}/cards/${card.reference}`).method).toBe('DELETE');
    opn.reset();
    await expect(collection.detachSavedCard(card)).resolves.toBeUndefined();
    opn.on(`DELETE /customers/${card.customer}/cards/${card.reference}`, {
      status: 503,
      json: { object: 'error', code: 'service_not_found', message: 'down' },
    });
    await expect(collection.detachSavedCard(card)).rejects.toBeInstanceOf(CollectionProviderError);
  });
});

describe('Stripe saved cards (PaymentMethods of a customer, local server, real SDK)', () => {
  let fake: FakeProvider;
  let collection: StripeCollectionProvider;
  const card = { reference: 'pm_1PgafyB7WZ01zgkWsavedcard', customer: 'cus_QXgJfzK4RgJ4xX', sandbox_outcome: null };

  beforeAll(async () => {
    fake = await fakeStripe().start();
    const stripe = createStripeClient({
      secretKey: fake.secretKey,
      webhookSecret: 'whsec_test_fakewebhooksecret000000',
      host: '127.0.0.1',
      port: fake.port,
      protocol: 'http',
      timeoutMs: 1_500,
      maxNetworkRetries: 0,
    });
    collection = new StripeCollectionProvider(stripe, {
      returnUri: (id) => `https://wallet.example/provider_returns/stripe/${id}`,
      promptPayEmail: (r) => `payer+${r.chargeId}@wallet.example`,
      destination: () => 'acct_1PgafTB7WZ01zgkW',
    });
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('confirms a PaymentIntent off-session with the customer and PaymentMethod: succeeded', async () => {
    fake.on('POST /v1/payment_intents', { status: 200, fixture: 'payment_intent_succeeded' });
    const payment = await collection.chargeSavedCard(request, card, true);
    expect(payment).toEqual({ status: 'succeeded', reference: 'pi_1PgafyB7WZ01zgkWSjxsAJo3' });
    const sent = fake.last('POST /v1/payment_intents');
    expect(sent.form).toMatchObject({
      customer: card.customer,
      payment_method: card.reference,
      confirm: 'true',
      off_session: 'true',
      amount: '100000',
    });
    expect(sent.form.return_url).toBeUndefined();
    expect(sent.headers['idempotency-key']).toBe(`charge:${CHARGE_ID}`);
  });

  it('a 402 card_declined is a failed payment with the decline code', async () => {
    fake.on('POST /v1/payment_intents', { status: 402, fixture: 'error_card_declined' });
    expect(await collection.chargeSavedCard(request, card, true)).toMatchObject({
      status: 'failed',
      failure: { code: 'card_declined', reason: 'insufficient_funds' },
    });
  });

  it('a 402 authentication_required is a failed attempt with that code, naming Stripe’s PaymentIntent', async () => {
    fake.on('POST /v1/payment_intents', { status: 402, fixture: 'error_authentication_required' });
    expect(await collection.chargeSavedCard(request, card, true)).toMatchObject({
      status: 'failed',
      reference: 'pi_3PgafyB7WZ01zgkW0authreq',
      failure: { code: 'authentication_required' },
    });
  });

  it('an intent left requires_action off-session is authentication_required too', async () => {
    fake.on('POST /v1/payment_intents', { status: 200, fixture: 'payment_intent_requires_action_3ds' });
    expect(await collection.chargeSavedCard(request, card, true)).toMatchObject({
      status: 'failed',
      failure: { code: 'authentication_required' },
    });
  });

  it('detaches the PaymentMethod; one already gone (resource_missing) is fine', async () => {
    fake.on(`POST /v1/payment_methods/${card.reference}/detach`, { status: 200, fixture: 'payment_method_detached' });
    await collection.detachSavedCard(card);
    expect(fake.last(`POST /v1/payment_methods/${card.reference}/detach`).method).toBe('POST');
    fake.reset();
    await expect(collection.detachSavedCard(card)).resolves.toBeUndefined();
  });
  describe('saving a card: a SetupIntent confirmed by the Payment Element', () => {
    const SETI = 'seti_1PgafyB7WZ01zgkWsetup001';
    const who = {
      applicationId: request.applicationId,
      customerId: '01936f6a-0000-7000-8000-0000000000c1',
      checkoutId: '01936f6a-0000-7000-8000-0000000000c2',
      email: 'somchai@example.com',
      providerCustomer: null,
    };
    const ours = { checkout_id: who.checkoutId, customer_id: who.customerId, application_id: who.applicationId };

    it('creates the Stripe customer first, then an off-session card SetupIntent on it, each keyed', async () => {
      fake.on('POST /v1/customers', { status: 200, fixture: 'customer' });
      fake.on('POST /v1/setup_intents', { status: 200, fixture: 'setup_intent_requires_payment_method' });
      expect(await collection.createSetupIntent(who)).toEqual({
        reference: SETI,
        clientSecret: `${SETI}_secret_QXfakeSetupSecret000`,
        customer: 'cus_QXfakeStripeCust1',
      });
      const customer = fake.last('POST /v1/customers');
      expect(customer.form).toMatchObject({ email: who.email, 'metadata[customer_id]': who.customerId });
      expect(customer.headers['idempotency-key']).toBe(`customer:${who.customerId}`);
      const setup = fake.last('POST /v1/setup_intents');
      expect(setup.form).toMatchObject({
        customer: 'cus_QXfakeStripeCust1',
        usage: 'off_session',
        'allowed_payment_method_types[0]': 'card',
        'metadata[checkout_id]': who.checkoutId,
      });
      expect(setup.headers['idempotency-key']).toBe(`setup:${who.checkoutId}`);
    });

    it('reuses the customer’s Stripe customer when it has one', async () => {
      fake.on('POST /v1/setup_intents', { status: 200, fixture: 'setup_intent_requires_payment_method' });
      await collection.createSetupIntent({ ...who, providerCustomer: card.customer });
      expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/setup_intents']);
      expect(fake.last('POST /v1/setup_intents').form.customer).toBe(card.customer);
    });

    it('reads the confirmed SetupIntent back with its PaymentMethod and answers the card', async () => {
      fake.on(`GET /v1/setup_intents/${SETI}`, {
        status: 200,
        fixture: 'setup_intent_succeeded',
        patch: { metadata: ours },
      });
      expect(await collection.saveCard({ ...who, token: SETI })).toEqual({
        reference: 'pm_1PgafyB7WZ01zgkWsavedcard',
        customer: 'cus_QXfakeStripeCust1',
        brand: 'visa',
        last4: '4242',
        exp_month: 12,
        exp_year: 2034,
        fingerprint: 'Xt5EWLLDS7FJjR1c',
        name: 'Somchai Jaidee',
        funding: 'credit',
      });
      expect(fake.requests[0].path).toBe(`/v1/setup_intents/${SETI}`);
    });

    it('refuses another checkout’s SetupIntent, one not confirmed, a declined card and a non-seti token', async () => {
      fake.on(`GET /v1/setup_intents/${SETI}`, {
        status: 200,
        fixture: 'setup_intent_succeeded',
        patch: { metadata: { ...ours, checkout_id: '01936f6a-0000-7000-8000-0000000000ff' } },
      });
      expect(await collection.saveCard({ ...who, token: SETI })).toMatchObject({ failure: { code: 'setup_failed' } });
      fake.on(`GET /v1/setup_intents/${SETI}`, {
        status: 200,
        fixture: 'setup_intent_requires_payment_method',
        patch: { metadata: ours },
      });
      expect(await collection.saveCard({ ...who, token: SETI })).toMatchObject({ failure: { code: 'setup_failed' } });
      fake.on(`GET /v1/setup_intents/${SETI}`, {
        status: 200,
        fixture: 'setup_intent_declined',
        patch: { metadata: ours },
      });
      expect(await collection.saveCard({ ...who, token: SETI })).toMatchObject({
        failure: { code: 'card_declined', reason: 'generic_decline' },
      });
      fake.reset();
      expect(await collection.saveCard({ ...who, token: 'seti_missing00000' })).toMatchObject({
        failure: { code: 'setup_failed' },
      });
      expect(await collection.saveCard({ ...who, token: 'tokn_test_x' })).toMatchObject({
        failure: { code: 'setup_failed' },
      });
      expect(fake.requests).toHaveLength(1);
    });
  });
});
