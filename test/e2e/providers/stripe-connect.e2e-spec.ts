import Stripe from 'stripe';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { connectedAccountName, HoldReleaseJob } from '../../../src/modules/ledger/index.js';
import { confirm, expectLedgerInvariants, paymentIntentCheckout } from '../../factories/checkout.js';
import { fakeStripe, stripeFixture, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Issue 15 part B, Stripe Connect, live mode against the fake Stripe on loopback (the real SDK,
 * STRIPE_API_HOST/PORT/PROTOCOL): a connected account gets a custom Connect account
 * (https://docs.stripe.com/api/accounts/create; fixture test/fixtures/stripe/account_custom.json),
 * its KYB follows Stripe's signed `account.updated` (event_account_updated.json), card and
 * PromptPay charges to it are destination charges (`transfer_data[destination]`,
 * `application_fee_amount`: https://docs.stripe.com/connect/destination-charges), its bank account
 * is an external account of its Connect account and its payouts are POST /v1/payouts with
 * `Stripe-Account` (https://docs.stripe.com/api/payouts), moved by signed `payout.paid` /
 * `payout.failed` once (replay `duplicate`, forged 400).
 */
const STRIPE_LIVE = {
  secret: 'sk_live_51FakeStripeLiveSecret0002',
  publishable: 'pk_live_51FakeStripeLivePublic0002',
  webhook: 'whsec_fakeStripeLiveWebhookSecret002',
};
const HOUR = 3600 * 1000;

describe('Stripe Connect: connected accounts, destination charges, connected payouts (fake Stripe)', () => {
  let stripe: FakeProvider;
  let app: TestApp;
  let tenant: Tenant;
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n += 1)}`.replace(/[^0-9a-zA-Z]/g, '');
  const sdk = new Stripe('sk_test_unused', { telemetry: false });

  const get = async (path: string) => {
    const res = await app.http.get(tenant.path(path)).set(tenant.as('live'));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const post = (path: string, body: object) => app.http.post(tenant.path(path)).set(tenant.as('live')).send(body);
  const eventsAbout = async (type: string, id: string) => {
    const page = await get(`/events?filter[type]=${type}&limit=100`);
    return (page.data as Array<{ data: { object: { id: string } } }>).filter((e) => e.data.object.id === id);
  };
  const available = async (account: string) =>
    Number(
      (await get(`/balances?filter[account]=${connectedAccountName(account)}&filter[currency]=THB`)).data[0]
        ?.available ?? 0,
    );
  /** The stored provider columns of an account (live schema). */
  const stored = async (id: string) => {
    const rows: Array<{ provider: string | null; provider_account_id: string | null }> = await app.app
      .get(RequestContext)
      .runInMode('live', () =>
        app.app
          .get(ModeDb)
          .manager.query(`SELECT provider, provider_account_id FROM wallet_live.accounts WHERE id = $1`, [id]),
      );
    return rows[0];
  };

  const sign = (payload: string, secret = STRIPE_LIVE.webhook) =>
    sdk.webhooks.generateTestHeaderString({ payload, secret });
  const hook = (payload: string, signature = sign(payload)) =>
    app.http
      .post('/provider_webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload);
  /** A Connect event (`account` names the connected account) of `type` about `object`. */
  const connectEvent = (type: string, acct: string, object: object) =>
    JSON.stringify({
      ...stripeFixture('event_account_updated'),
      id: `evt_live${unique()}`,
      type,
      livemode: true,
      account: acct,
      data: { object },
    });
  const accountObject = (acct: string, patch: object) => ({
    ...stripeFixture('account_custom'),
    id: acct,
    livemode: true,
    ...patch,
  });
  /** The account as Stripe sends it once verified (charges and payouts enabled, nothing due). */
  const verifiedAccount = (acct: string) => ({
    ...stripeFixture<{ data: { object: object } }>('event_account_updated').data.object,
    id: acct,
    livemode: true,
  });

  /** A live connected account, with its Connect account opened at the fake Stripe. */
  async function connected(name = 'Connected Co., Ltd.') {
    const acct = `acct_1Live${unique()}`;
    stripe.on('POST /v1/accounts', { status: 200, fixture: 'account_custom', patch: { id: acct } });
    const res = await post('/accounts', { name, email: 'owner@connected.example', country: 'TH' });
    expect({ status: res.status, kyb: res.body.kyb_status }).toEqual({ status: 200, kyb: 'pending' });
    return { id: res.body.id as string, acct };
  }

  /** Stripe verifies the account: a signed account.updated with charges and payouts enabled. */
  async function verify(acct: string) {
    const payload = connectEvent('account.updated', acct, verifiedAccount(acct));
    const res = await hook(payload);
    expect(res.body).toMatchObject({ kind: 'account.updated', result: 'applied' });
    return payload;
  }

  beforeAll(async () => {
    stripe = await fakeStripe(STRIPE_LIVE.secret).start();
    app = await startApp({
      rateLimit: false,
      env: {
        COLLECTION_PROVIDERS_LIVE: 'TH=stripe',
        TRANSFER_PROVIDERS_LIVE: 'TH=stripe',
        STRIPE_SECRET_KEY_LIVE: STRIPE_LIVE.secret,
        STRIPE_PUBLISHABLE_KEY_LIVE: STRIPE_LIVE.publishable,
        STRIPE_WEBHOOK_SECRET_LIVE: STRIPE_LIVE.webhook,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
      },
    });
    tenant = await createTenant(app);
  });
  afterEach(() => expectLedgerInvariants(app, [tenant.applicationId]));
  afterAll(async () => {
    await app?.close();
    await stripe?.stop();
  });

  it('a live connected account in a Stripe country gets a custom Connect account (POST /v1/accounts), kept by id', async () => {
    const { id, acct } = await connected();
    const sent = stripe.last('POST /v1/accounts');
    expect(sent.form).toMatchObject({
      type: 'custom',
      country: 'TH',
      email: 'owner@connected.example',
      'business_profile[name]': 'Connected Co., Ltd.',
      'capabilities[card_payments][requested]': 'true',
      'capabilities[transfers][requested]': 'true',
      'settings[payouts][schedule][interval]': 'manual',
      'metadata[account_id]': id,
      'metadata[application_id]': tenant.applicationId,
    });
    expect(sent.headers['idempotency-key']).toBe(`account:${id}`);
    expect(await stored(id)).toEqual({ provider: 'stripe', provider_account_id: acct });
    // The API's account fields are unchanged: the Connect id is not part of the response.
    expect(await get(`/accounts/${id}`)).not.toHaveProperty('provider_account_id');
  });

  it('Stripe not opening the Connect account: 503 E6002 and nothing is stored; a retry opens it', async () => {
    const before = (await get('/accounts?limit=100')).data.length;
    stripe.on('POST /v1/accounts', { status: 500, fixture: 'error_api_500' });
    const res = await post('/accounts', { name: 'Late Co.', country: 'TH' });
    expect(res.status).toBe(503);
    expectErrorObject(res.body, 'E6002');
    expect((await get('/accounts?limit=100')).data).toHaveLength(before);
    const retried = await connected('Late Co.');
    expect(await stored(retried.id)).toEqual({ provider: 'stripe', provider_account_id: retried.acct });
  });

  it('account.updated verifies (and rejects) through the accounts service once; replayed or forged changes nothing', async () => {
    const { id, acct } = await connected();
    const payload = await verify(acct);
    const verified = await get(`/accounts/${id}`);
    expect(verified).toMatchObject({ kyb_status: 'verified', kyb_rejection_reason: null });
    expect(await eventsAbout('account.updated', id)).toHaveLength(1);

    const replay = await hook(payload);
    expect({ status: replay.status, result: replay.body.result }).toEqual({ status: 200, result: 'duplicate' });
    expect(await get(`/accounts/${id}`)).toEqual(verified);
    expect(await eventsAbout('account.updated', id)).toHaveLength(1);

    const rejected = connectEvent(
      'account.updated',
      acct,
      accountObject(acct, {
        livemode: true,
        charges_enabled: false,
        payouts_enabled: false,
        requirements: {
          ...stripeFixture<{ requirements: object }>('account_custom').requirements,
          disabled_reason: 'rejected.fraud',
        },
      }),
    );
    const forged = await hook(rejected, sign(rejected, 'whsec_someoneElsesSecret0000'));
    expect(forged.status).toBe(400);
    expectErrorObject(forged.body, 'E5201');
    const tampered = await hook(rejected.replace('rejected.fraud', 'rejected.other'), sign(rejected));
    expect(tampered.status).toBe(400);
    expect(await get(`/accounts/${id}`)).toEqual(verified);

    expect((await hook(rejected)).body).toMatchObject({ result: 'applied' });
    expect(await get(`/accounts/${id}`)).toMatchObject({
      kyb_status: 'rejected',
      kyb_rejection_reason: 'rejected.fraud',
    });
    expect(await eventsAbout('account.updated', id)).toHaveLength(2);

    // An account.updated of an account this service does not know: recorded, unmatched.
    const stranger = connectEvent('account.updated', 'acct_1Nobody', verifiedAccount('acct_1Nobody'));
    expect((await hook(stranger)).body).toMatchObject({ result: 'unmatched' });
  });

  it('a charge to a connected account is a destination charge; its payout goes to its Connect account and is paid by payout.paid once', async () => {
    const { id, acct } = await connected();
    await verify(acct);

    // 1. Destination charge (PromptPay): transfer_data[destination] = acct_…, application_fee_amount.
    const reference = `pi_3Dest${unique()}`;
    const intent = (fixture: string) => ({ ...stripeFixture(fixture), id: reference, livemode: true });
    stripe.on('POST /v1/payment_intents', { status: 200, json: intent('payment_intent_promptpay_pending') });
    const { checkout } = await paymentIntentCheckout(
      app,
      tenant,
      { transfer_data: { destination: id }, application_fee_amount: 5000 },
      'live',
    );
    const paid = await confirm(app, tenant, checkout, { payment_method_type: 'promptpay' });
    expect({ status: paid.status, body: paid.body }).toMatchObject({
      status: 200,
      body: { charge: { status: 'pending' } },
    });
    expect(stripe.last('POST /v1/payment_intents').form).toMatchObject({
      'transfer_data[destination]': acct,
      application_fee_amount: '5000',
      'metadata[destination_account]': id,
    });
    const succeeded = JSON.stringify({
      ...stripeFixture('event_payment_intent_succeeded'),
      id: `evt_live${unique()}`,
      livemode: true,
      data: { object: intent('payment_intent_promptpay_succeeded') },
    });
    expect((await hook(succeeded)).body).toMatchObject({ result: 'applied' });
    app.clock.advance(72 * HOUR);
    await app.app
      .get(HoldReleaseJob)
      .releaseDue(app.clock.now(), { applicationIds: [tenant.applicationId], modes: ['live'] });
    const funded = await available(id);
    expect(funded).toBeGreaterThan(40000);

    // 2. Its bank account: an external account of its Connect account.
    stripe.on(`POST /v1/accounts/${acct}/external_accounts`, { status: 200, fixture: 'bank_account' });
    const bank = await post('/bank_accounts', {
      account: id,
      type: 'bookbank',
      account_holder_name: 'Somchai Jaidee',
      target: 'THB',
      extra_fields: { bankCode: '004', accountNumber: '1234567890' },
    });
    expect({ status: bank.status, body: bank.body }).toMatchObject({ status: 200, body: { errors: [] } });
    expect(stripe.last(`POST /v1/accounts/${acct}/external_accounts`).form).toMatchObject({
      'external_account[account_number]': '1234567890',
      'external_account[routing_number]': '004',
    });
    const destination = await get(`/bank_accounts/${bank.body.id}`);
    expect(destination).toMatchObject({
      account_kind: 'connected',
      provider: 'stripe',
      provider_status: 'created',
      recipient_reference: `${acct}/ba_1PgagAB7WZ01zgkWr3DySp2Q`,
    });

    // 3. A payout on the Connect account (Stripe-Account header), paid by a signed payout.paid.
    const po = `po_1Live${unique()}`;
    stripe.on('POST /v1/payouts', { status: 200, fixture: 'payout_pending', patch: { id: po, amount: 20000 } });
    const payout = await post('/payouts', { account: id, amount: 20000, currency: 'THB', destination: bank.body.id });
    expect({ status: payout.status, body: payout.body }).toMatchObject({
      status: 200,
      body: { status: 'pending', provider: 'stripe', provider_reference: `${acct}/${po}`, account: id },
    });
    const sent = stripe.last('POST /v1/payouts');
    expect(sent.headers['stripe-account']).toBe(acct);
    expect(sent.headers['idempotency-key']).toBe(`payout:${payout.body.id}`);
    expect(sent.form).toMatchObject({ amount: '20000', currency: 'thb', destination: 'ba_1PgagAB7WZ01zgkWr3DySp2Q' });
    expect(await available(id)).toBe(funded - 20000);

    const paidEvent = connectEvent('payout.paid', acct, {
      ...stripeFixture('payout_paid'),
      id: po,
      amount: 20000,
      livemode: true,
    });
    const forged = await hook(paidEvent, sign(paidEvent, 'whsec_forgedSecret000000'));
    expect(forged.status).toBe(400);
    expectErrorObject(forged.body, 'E5201');
    expect(await get(`/payouts/${payout.body.id}`)).toMatchObject({ status: 'pending' });

    expect((await hook(paidEvent)).body).toMatchObject({ kind: 'payout.paid', result: 'applied' });
    const done = await get(`/payouts/${payout.body.id}`);
    expect(done).toMatchObject({ status: 'paid' });
    expect((await hook(paidEvent)).body).toMatchObject({ result: 'duplicate' });
    expect(await get(`/payouts/${payout.body.id}`)).toEqual(done);
    expect(await eventsAbout('payout.paid', payout.body.id)).toHaveLength(1);
    expect(await available(id)).toBe(funded - 20000);

    // 4. Another payout that the bank refuses: payout.failed returns it to the connected balance once.
    const po2 = `po_1Fail${unique()}`;
    stripe.on('POST /v1/payouts', { status: 200, fixture: 'payout_pending', patch: { id: po2, amount: 10000 } });
    const second = await post('/payouts', { account: id, amount: 10000, currency: 'THB', destination: bank.body.id });
    expect(second.body).toMatchObject({ status: 'pending', provider_reference: `${acct}/${po2}` });
    const failedEvent = connectEvent('payout.failed', acct, {
      ...stripeFixture('payout_failed'),
      id: po2,
      amount: 10000,
      livemode: true,
    });
    expect((await hook(failedEvent)).body).toMatchObject({ kind: 'payout.failed', result: 'applied' });
    const failed = await get(`/payouts/${second.body.id}`);
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'account_closed' });
    expect(await available(id)).toBe(funded - 20000);
    expect((await hook(failedEvent)).body).toMatchObject({ result: 'duplicate' });
    expect(await get(`/payouts/${second.body.id}`)).toEqual(failed);
    expect(await available(id)).toBe(funded - 20000);
    expect(await eventsAbout('payout.failed', second.body.id)).toHaveLength(1);
  });
});
