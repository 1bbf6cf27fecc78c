import { connectedAccountName, HoldReleaseJob } from '../../../src/modules/ledger/index.js';
import { card, CARDS, confirm, expectLedgerInvariants, paymentIntentCheckout } from '../../factories/checkout.js';
import { connectedAccount, ownAccount } from '../../factories/payouts.js';
import { fakeOpn, opnFixture, fakeStripe, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Issue 15 part B: payout notices by provider webhook. A live payout sent to Opn (recipient and
 * transfer at the fake Opn on loopback) is moved by Opn's `transfer.pay` / `transfer.fail`
 * events, trusted only after `GET /events/{id}` (docs.opn.ooo/events-api; the event and transfer
 * shapes are test/fixtures/opn/event_transfer_update.json and transfer_*.json, from omise-node's
 * test/mocks and https://docs.opn.ooo/transfers-api), and applied once through
 * PayoutLifecycleService: a replay is `duplicate`, a forged id is 400 and changes nothing.
 */
const OPN_LIVE = { secret: 'skey_5fakeopnlivesecret001', public: 'pkey_5fakeopnlivepublic001' };
const STRIPE_LIVE = {
  secret: 'sk_live_51FakeStripeLiveSecret0001',
  publishable: 'pk_live_51FakeStripeLivePublic0001',
  webhook: 'whsec_fakeStripeLiveWebhookSecret001',
};
const HOUR = 3600 * 1000;

describe('payout notices by provider webhook (fake Opn on loopback)', () => {
  let opn: FakeProvider;
  let stripe: FakeProvider;
  let app: TestApp;
  let tenant: Tenant;
  let own: string;
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n += 1)}`.replace(/[^0-9a-z]/g, '');

  const env = () => ({
    COLLECTION_PROVIDERS_LIVE: 'TH=opn',
    TRANSFER_PROVIDERS_LIVE: 'TH=opn',
    OPN_SECRET_KEY_LIVE: OPN_LIVE.secret,
    OPN_PUBLIC_KEY_LIVE: OPN_LIVE.public,
    OPN_BASE_URL: opn.baseUrl,
    STRIPE_SECRET_KEY_LIVE: STRIPE_LIVE.secret,
    STRIPE_PUBLISHABLE_KEY_LIVE: STRIPE_LIVE.publishable,
    STRIPE_WEBHOOK_SECRET_LIVE: STRIPE_LIVE.webhook,
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String(stripe.port),
    STRIPE_API_PROTOCOL: 'http',
  });

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
  const merchantAvailable = async () =>
    Number((await get('/balances?filter[account]=merchant&filter[currency]=THB')).data[0]?.available ?? 0);

  /** Opn's event `id` (key `key`) about `data`, as GET /events/{id} answers it. */
  const opnEvent = (id: string, key: string, data: object) => ({
    ...opnFixture('event_transfer_update'),
    id,
    key,
    livemode: true,
    location: `/events/${id}`,
    data,
  });
  const opnWebhook = (id: string, lie: object = {}) =>
    app.http.post('/provider_webhooks/opn').send({ object: 'event', id, ...lie });

  /** Live funds: a PromptPay charge paid at Opn (charge.complete re-fetched), its hold released. */
  async function fund() {
    const reference = `chrg_5live${unique()}`;
    opn.on('POST /charges', {
      status: 200,
      fixture: 'charge_promptpay_pending',
      patch: { id: reference, livemode: true },
    });
    const { checkout } = await paymentIntentCheckout(app, tenant, {}, 'live');
    expect((await confirm(app, tenant, checkout, { payment_method_type: 'promptpay' })).status).toBe(200);
    const event = `evnt_5fund${unique()}`;
    opn.on(`GET /events/${event}`, {
      status: 200,
      json: {
        ...opnFixture('event_charge_complete'),
        id: event,
        livemode: true,
        data: { ...opnFixture('charge_promptpay_paid'), id: reference, livemode: true },
      },
    });
    expect((await opnWebhook(event)).body).toMatchObject({ result: 'applied' });
    app.clock.advance(72 * HOUR);
    await app.app.get(HoldReleaseJob).releaseDue(app.clock.now(), {
      applicationIds: [tenant.applicationId],
      modes: ['live'],
    });
  }

  /** A live bookbank destination of the own account: its recipient is made at the fake Opn. */
  async function destination() {
    const recipient = `recp_5live${unique()}`;
    opn.on('POST /recipients', { status: 200, fixture: 'recipient', patch: { id: recipient, livemode: true } });
    const res = await post('/bank_accounts', {
      account: own,
      type: 'bookbank',
      account_holder_name: 'Somchai Jaidee',
      target: 'THB',
      extra_fields: { bankCode: '004', accountNumber: '1234567890' },
    });
    expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 200, errors: [] });
    expect(opn.last('POST /recipients').form).toMatchObject({ 'bank_account[brand]': 'kbank' });
    return { bank: res.body.id as string, recipient };
  }

  /** A live payout of 200.00 THB sent to Opn: the fake answers the transfer created (not yet sent). */
  async function sentPayout(bank: string, recipient: string) {
    const transfer = `trsf_5live${unique()}`;
    opn.on('POST /transfers', {
      status: 200,
      fixture: 'transfer_created',
      patch: { id: transfer, recipient, amount: 20000, livemode: true },
    });
    const res = await post('/payouts', { amount: 20000, currency: 'THB', destination: bank });
    expect({ status: res.status, body: res.body }).toMatchObject({
      status: 200,
      body: { status: 'pending', provider: 'opn', provider_reference: transfer, livemode: true },
    });
    const sent = opn.last('POST /transfers');
    expect(sent.form).toMatchObject({ amount: '20000', recipient, 'metadata[payout_id]': res.body.id });
    expect(sent.headers['idempotency-key']).toBe(`transfer:${res.body.id}`);
    return { payout: res.body.id as string, transfer };
  }

  beforeAll(async () => {
    opn = await fakeOpn(OPN_LIVE.secret).start();
    stripe = await fakeStripe(STRIPE_LIVE.secret).start();
    app = await startApp({ rateLimit: false, env: env() });
    tenant = await createTenant(app);
    own = await ownAccount(app, tenant, 'live');
    await fund();
    await fund();
  });
  afterEach(() => expectLedgerInvariants(app, [tenant.applicationId]));
  afterAll(async () => {
    await app?.close();
    await opn?.stop();
    await stripe?.stop();
  });

  it('Opn transfer.pay (re-fetched) pays the payout once; replayed it changes nothing; a forged id is 400', async () => {
    const { bank, recipient } = await destination();
    const before = await merchantAvailable();
    const { payout, transfer } = await sentPayout(bank, recipient);
    expect(await merchantAvailable()).toBe(before - 20000);

    const event = `evnt_5tpay${unique()}`;
    const paid = { ...opnFixture('transfer_paid'), id: transfer, recipient, amount: 20000, livemode: true };
    opn.on(`GET /events/${event}`, { status: 200, json: opnEvent(event, 'transfer.pay', paid) });
    // The body claims a failure: only Opn's own answer to GET /events/{id} is believed.
    const hook = await opnWebhook(event, { key: 'transfer.fail', data: { id: transfer, failure_code: 'x' } });
    expect({ status: hook.status, body: hook.body }).toEqual({
      status: 200,
      body: {
        object: 'provider_event',
        provider: 'opn',
        id: event,
        kind: 'transfer.pay',
        livemode: true,
        result: 'applied',
      },
    });
    const after = await get(`/payouts/${payout}`);
    expect(after).toMatchObject({ status: 'paid', provider_reference: transfer, failure_code: null });
    expect(after.paid_at).not.toBeNull();
    expect(await eventsAbout('payout.paid', payout)).toHaveLength(1);

    const replay = await opnWebhook(event);
    expect({ status: replay.status, result: replay.body.result }).toEqual({ status: 200, result: 'duplicate' });
    expect(await get(`/payouts/${payout}`)).toEqual(after);
    expect(await eventsAbout('payout.paid', payout)).toHaveLength(1);
    expect(opn.requests.filter((r) => r.path === `/events/${event}`)).toHaveLength(2);
    expect(await merchantAvailable()).toBe(before - 20000);

    // A forged notice (an event id Opn does not know) naming a payout: 400, nothing changes.
    const forged = await opnWebhook(`evnt_5forged${unique()}`, { key: 'transfer.fail', data: { id: transfer } });
    expect(forged.status).toBe(400);
    expectErrorObject(forged.body, 'E5201');
    expect(await get(`/payouts/${payout}`)).toEqual(after);
  });

  it('Opn transfer.fail reverses the payout to available once, with the bank failure code', async () => {
    const { bank, recipient } = await destination();
    const before = await merchantAvailable();
    const { payout, transfer } = await sentPayout(bank, recipient);

    const event = `evnt_5tfail${unique()}`;
    const failed = { ...opnFixture('transfer_failed'), id: transfer, recipient, amount: 20000, livemode: true };
    opn.on(`GET /events/${event}`, { status: 200, json: opnEvent(event, 'transfer.fail', failed) });
    const hook = await opnWebhook(event);
    expect(hook.body).toMatchObject({ kind: 'transfer.fail', result: 'applied' });
    const after = await get(`/payouts/${payout}`);
    expect(after).toMatchObject({ status: 'failed', failure_code: 'invalid_account_number' });
    expect(await merchantAvailable()).toBe(before);
    expect(await eventsAbout('payout.failed', payout)).toHaveLength(1);

    expect((await opnWebhook(event)).body).toMatchObject({ result: 'duplicate' });
    expect(await get(`/payouts/${payout}`)).toEqual(after);
    expect(await merchantAvailable()).toBe(before);
    expect(await eventsAbout('payout.failed', payout)).toHaveLength(1);
  });

  it('Opn transfer.pay for an unknown transfer is recorded unmatched and changes no payout', async () => {
    const event = `evnt_5tunk${unique()}`;
    const paid = { ...opnFixture('transfer_paid'), id: `trsf_5nobody${unique()}`, livemode: true };
    opn.on(`GET /events/${event}`, { status: 200, json: opnEvent(event, 'transfer.pay', paid) });
    expect((await opnWebhook(event)).body).toMatchObject({ kind: 'transfer.pay', result: 'unmatched' });
  });
});

/**
 * A connected account's payout through Opn (test mode, the Opn adapter with test keys, so the KYB
 * test helper can verify the account): its bank account becomes an Opn recipient, its payout an
 * Opn transfer from the platform balance, settled by a re-fetched `transfer.pay`.
 */
describe('connected-account payouts through Opn (test mode, fake Opn)', () => {
  const OPN_TEST = { secret: 'skey_test_5fakeopnconnect001', public: 'pkey_test_5fakeopnconnect001' };
  let opn: FakeProvider;
  let app: TestApp;
  let tenant: Tenant;
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n += 1)}`.replace(/[^0-9a-z]/g, '');
  const post = (path: string, body: object) => app.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
  const get = async (path: string) => (await app.http.get(tenant.path(path)).set(tenant.as('test'))).body;
  const available = async (account: string) =>
    Number(
      (await get(`/balances?filter[account]=${connectedAccountName(account)}&filter[currency]=THB`)).data[0]
        ?.available ?? 0,
    );

  beforeAll(async () => {
    opn = await fakeOpn(OPN_TEST.secret).start();
    app = await startApp({
      rateLimit: false,
      env: {
        TRANSFER_PROVIDERS: 'TH=opn',
        OPN_SECRET_KEY_TEST: OPN_TEST.secret,
        OPN_PUBLIC_KEY_TEST: OPN_TEST.public,
        OPN_BASE_URL: opn.baseUrl,
      },
    });
    tenant = await createTenant(app);
  });
  afterEach(() => expectLedgerInvariants(app, [tenant.applicationId]));
  afterAll(async () => {
    await app?.close();
    await opn?.stop();
  });

  it('a verified connected account gets an Opn recipient; its payout is an Opn transfer paid by transfer.pay once', async () => {
    const account = await connectedAccount(app, tenant, 'verified');
    // Funds: a sandbox card payment to the connected account (destination charge), hold released.
    const { checkout } = await paymentIntentCheckout(app, tenant, { transfer_data: { destination: account } });
    expect((await confirm(app, tenant, checkout, card(CARDS.visa))).status).toBe(200);
    app.clock.advance(72 * HOUR);
    await app.app
      .get(HoldReleaseJob)
      .releaseDue(app.clock.now(), { applicationIds: [tenant.applicationId], modes: ['test'] });
    const funded = await available(account);
    expect(funded).toBeGreaterThan(20000);

    const recipient = `recp_test_5conn${unique()}`;
    opn.on('POST /recipients', { status: 200, fixture: 'recipient', patch: { id: recipient } });
    const bank = await post('/bank_accounts', {
      account,
      type: 'bookbank',
      account_holder_name: 'Somchai Jaidee',
      target: 'THB',
      extra_fields: { bankCode: '014', accountNumber: '1234567890' },
    });
    expect({ status: bank.status, errors: bank.body.errors }).toEqual({ status: 200, errors: [] });
    expect(opn.last('POST /recipients').form).toMatchObject({
      'bank_account[brand]': 'scb',
      'bank_account[number]': '1234567890',
    });
    expect(await get(`/bank_accounts/${bank.body.id}`)).toMatchObject({
      account_kind: 'connected',
      provider: 'opn',
      provider_status: 'created',
      recipient_reference: recipient,
    });

    const transfer = `trsf_test_5conn${unique()}`;
    opn.on('POST /transfers', {
      status: 200,
      fixture: 'transfer_created',
      patch: { id: transfer, recipient, amount: 20000 },
    });
    const payout = await post('/payouts', { account, amount: 20000, currency: 'THB', destination: bank.body.id });
    expect({ status: payout.status, body: payout.body }).toMatchObject({
      status: 200,
      body: { status: 'pending', account, provider: 'opn', provider_reference: transfer },
    });
    expect(opn.last('POST /transfers').form).toMatchObject({ amount: '20000', recipient });
    expect(await available(account)).toBe(funded - 20000);

    const event = `evnt_test_5conn${unique()}`;
    opn.on(`GET /events/${event}`, {
      status: 200,
      json: {
        ...opnFixture('event_transfer_update'),
        id: event,
        key: 'transfer.pay',
        data: { ...opnFixture('transfer_paid'), id: transfer, recipient, amount: 20000 },
      },
    });
    expect((await app.http.post('/provider_webhooks/opn').send({ object: 'event', id: event })).body).toMatchObject({
      kind: 'transfer.pay',
      livemode: false,
      result: 'applied',
    });
    expect(await get(`/payouts/${payout.body.id}`)).toMatchObject({ status: 'paid' });
    expect((await app.http.post('/provider_webhooks/opn').send({ object: 'event', id: event })).body).toMatchObject({
      result: 'duplicate',
    });
    expect(await available(account)).toBe(funded - 20000);
  });
});
