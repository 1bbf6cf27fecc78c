import { AuthorizationExpiryJob, CaptureClaimRecoveryJob } from '../../../src/modules/checkout/index.js';
import { SandboxCollectionProvider } from '../../../src/modules/checkout/payments/providers/sandbox-collection.provider.js';
import {
  CARDS,
  asSession,
  card,
  confirm,
  expectLedgerInvariants,
  paymentIntentCheckout,
} from '../../factories/checkout.js';
import { testSql } from '../../factories/invoicing.js';
import { fakeOpn, fakeStripe, opnFixture, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Authorize, then capture (issue 36, item 4; docs/COLLECTION.md, "Manual capture"): a
 * `capture_method: manual` payment intent's card is authorized (nothing booked), captured in part
 * (600.00 of 1,000.00 booked, 400.00 released at the provider), voided by cancel or by the expiry
 * job on the service clock, captured once however many captures race. Test mode with the sandbox;
 * live mode with the real Opn (TH) and Stripe (SG) adapters at the local fakes.
 */
const OPN_LIVE = 'skey_5fakeopnlivesecret000';
const STRIPE_LIVE = { secret: 'sk_live_51FakeStripeLiveSecret0000', publishable: 'pk_live_51FakeStripeLivePublic0000' };
const DAY = 24 * 3600 * 1000;

describe('manual capture: authorize, capture, void, expiry', () => {
  let opn: FakeProvider;
  let stripe: FakeProvider;
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    [opn, stripe] = await Promise.all([fakeOpn(OPN_LIVE).start(), fakeStripe(STRIPE_LIVE.secret).start()]);
    t = await startApp({
      rateLimit: false,
      env: {
        COLLECTION_PROVIDERS_LIVE: 'TH=opn,SG=stripe',
        OPN_SECRET_KEY_LIVE: OPN_LIVE,
        OPN_PUBLIC_KEY_LIVE: 'pkey_5fakeopnlivepublic000',
        OPN_BASE_URL: opn.baseUrl,
        STRIPE_SECRET_KEY_LIVE: STRIPE_LIVE.secret,
        STRIPE_PUBLISHABLE_KEY_LIVE: STRIPE_LIVE.publishable,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
      },
    });
    tenant = await createTenant(t, { countries: ['TH', 'SG'] });
  });
  afterAll(async () => {
    if (t) await expectLedgerInvariants(t, [tenant.applicationId]);
    await t?.close();
    await Promise.all([opn?.stop(), stripe?.stop()]);
  });
  afterEach(() => t.clock.reset());

  const api = (method: 'get' | 'post', path: string, mode: 'test' | 'live' = 'test', country = 'TH') =>
    t.http[method](tenant.path(path)).set(tenant.as(mode, { 'X-Country': country }));
  const sandbox = () => t.app.get(SandboxCollectionProvider);

  /** A test-mode manual-capture intent of 1,000.00 THB, authorized by the sandbox's visa on its checkout. */
  async function authorized(amount = 100000) {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, {
      amount,
      currency: 'THB',
      capture_method: 'manual',
    });
    const paid = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect({ status: paid.status, body: paid.body }).toMatchObject({ status: 200 });
    return { pi, checkout, charge: paid.body.charge, answer: paid.body };
  }

  /** A live Stripe PaymentIntent of SGD 1,000.00 with capture_method manual, authorized by card `token` on its checkout. */
  async function authorizedAtStripe(token: string) {
    stripe.reset();
    stripe.on('POST /v1/payment_intents', {
      status: 200,
      fixture: 'payment_intent_requires_capture',
      patch: { livemode: true },
    });
    const intent = await api('post', '/payment_intents', 'live', 'SG').send({
      amount: 100000,
      currency: 'SGD',
      capture_method: 'manual',
    });
    expect(intent.status).toBe(200);
    const checkout = await t.http
      .post(tenant.path('/checkouts'))
      .set(tenant.as('live', { 'X-Country': 'SG' }))
      .send({ target_type: 'payment_intent', target_id: intent.body.id });
    expect(checkout.status).toBe(200);
    const paid = await t.http
      .post(tenant.path(`/checkouts/${checkout.body.id}/confirm`))
      .set(asSession(checkout.body.session, 'SG'))
      .send({ payment_method_type: 'card', token });
    expect({ status: paid.status, body: paid.body }).toMatchObject({
      status: 200,
      body: { charge: { status: 'requires_capture', provider: 'stripe' } },
    });
    return { intent, checkout, paid };
  }

  /** The balance transactions of a charge's journal (its description names the charge). */
  async function journalOf(chargeId: string, mode: 'test' | 'live' = 'test', country = 'TH') {
    const res = await api(
      'get',
      `/balance_transactions?limit=100&q=${encodeURIComponent(`Charge ${chargeId}`)}`,
      mode,
      country,
    );
    expect(res.status).toBe(200);
    return res.body.data as Array<{ amount: number; gross_amount: number; fee: number; balance: { account: string } }>;
  }

  it('authorizes 1,000.00 with nothing booked, captures 600.00 (booked, fees on it), releases 400.00, refuses a second capture', async () => {
    const { pi, checkout, charge, answer } = await authorized();
    expect(pi).toMatchObject({ capture_method: 'manual', payment_method_types: ['card'], amount_capturable: 0 });
    expect(charge).toMatchObject({
      status: 'requires_capture',
      capture_method: 'manual',
      amount: 100000,
      amount_capturable: 100000,
      captured: false,
      paid: false,
    });
    expect(answer.checkout).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
    expect((await api('get', `/payment_intents/${pi.id}`)).body).toMatchObject({
      status: 'requires_capture',
      amount_capturable: 100000,
      amount_received: 0,
      latest_charge: charge.id,
    });
    expect(await journalOf(charge.id)).toEqual([]);
    expect(sandbox().authorizationOf(charge.reference_id)).toEqual({ amount: 100000, ended: null });

    const captured = await api('post', `/payment_intents/${pi.id}/capture`).send({ amount_to_capture: 60000 });
    expect({ status: captured.status, body: captured.body }).toMatchObject({
      status: 200,
      body: { status: 'succeeded', amount: 100000, amount_received: 60000, amount_capturable: 0 },
    });
    const after = (await api('get', `/charges/${charge.id}`)).body;
    const fee = sandbox().fee('card', 60000);
    expect(after).toMatchObject({
      status: 'succeeded',
      paid: true,
      captured: true,
      amount: 60000,
      amount_captured: 60000,
      amount_capturable: 0,
      amount_voided: 40000,
      provider_fee_amount: fee,
      net_amount: 60000 - fee,
    });
    // The sandbox (the provider) captured 600.00 and released 400.00 of the authorization.
    expect(sandbox().authorizationOf(charge.reference_id)?.ended).toMatchObject({
      status: 'captured',
      amountCaptured: 60000,
      amountReleased: 40000,
    });
    const merchant = (await journalOf(charge.id)).find((e) => e.balance.account === 'merchant');
    expect(merchant).toMatchObject({ amount: 60000 - fee, gross_amount: 60000, fee });

    const again = await api('post', `/payment_intents/${pi.id}/capture`).send({ amount_to_capture: 1000 });
    expect(again.status).toBe(400);
    expectErrorObject(again.body, 'E7100');
    const eventsOf = async (type: string) =>
      (
        (await api('get', `/events?limit=100&filter[type]=${type}`)).body.data as Array<{
          data: { object: { id: string } };
        }>
      ).map((e) => e.data.object.id);
    expect(await eventsOf('payment_intent.amount_capturable_updated')).toContain(pi.id);
    expect(await eventsOf('charge.captured')).toContain(charge.id);
    expect(await eventsOf('checkout.completed')).toContain(checkout.id);
  });

  it('refuses PromptPay with manual capture, more than the authorization, and a capture of an automatic intent', async () => {
    const promptpay = await api('post', '/payment_intents').send({
      amount: 100000,
      currency: 'THB',
      capture_method: 'manual',
      payment_method_types: ['card', 'promptpay'],
    });
    expect(promptpay.status).toBe(400);
    expectErrorObject(promptpay.body, 'E7103');

    const { pi } = await authorized();
    const tooMuch = await api('post', `/payment_intents/${pi.id}/capture`).send({ amount_to_capture: 100001 });
    expect(tooMuch.status).toBe(400);
    expectErrorObject(tooMuch.body, 'E7102');

    const automatic = await paymentIntentCheckout(t, tenant, { amount: 50000, currency: 'THB' });
    const refused = await api('post', `/payment_intents/${automatic.pi.id}/capture`).send({});
    expect(refused.status).toBe(400);
    expectErrorObject(refused.body, 'E7101');
  });

  it('20 concurrent captures of one intent capture once: one 200, nineteen E7100, one journal', async () => {
    const { pi, charge } = await authorized();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        api('post', `/payment_intents/${pi.id}/capture`).send({ amount_to_capture: 60000 }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(400);
      expectErrorObject(refused.body, 'E7100');
    }
    const entries = await journalOf(charge.id);
    expect(entries.filter((e) => e.balance.account === 'merchant')).toHaveLength(1);
    expect((await api('get', `/charges/${charge.id}`)).body).toMatchObject({
      amount_captured: 60000,
      amount_voided: 40000,
    });
  });

  it('cancel voids an authorization; the expiry job voids one left uncaptured for 7 days (service clock)', async () => {
    const first = await authorized();
    const canceled = await api('post', `/payment_intents/${first.pi.id}/cancel`).send({
      cancellation_reason: 'requested_by_customer',
    });
    expect({ status: canceled.status, body: canceled.body }).toMatchObject({
      status: 200,
      body: { status: 'canceled', cancellation_reason: 'requested_by_customer', amount_capturable: 0 },
    });
    expect((await api('get', `/charges/${first.charge.id}`)).body).toMatchObject({
      status: 'canceled',
      canceled: true,
      amount_voided: 100000,
      amount_captured: 0,
    });
    expect(sandbox().authorizationOf(first.charge.reference_id)?.ended).toMatchObject({ status: 'voided' });

    const second = await authorized();
    const job = t.app.get(AuthorizationExpiryJob);
    const scope = { applicationIds: [tenant.applicationId] };
    t.clock.advance(7 * DAY - 60_000);
    expect(await job.run(scope)).toEqual({ voided: 0 });
    t.clock.advance(60_000);
    // This one, and any other authorization this file's tests left uncaptured.
    expect((await job.run(scope)).voided).toBeGreaterThanOrEqual(1);
    expect((await api('get', `/payment_intents/${second.pi.id}`)).body).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'automatic',
    });
    expect((await api('get', `/charges/${second.charge.id}`)).body).toMatchObject({
      status: 'canceled',
      amount_voided: 100000,
    });
    const late = await api('post', `/payment_intents/${second.pi.id}/capture`).send({});
    expect(late.status).toBe(400);
    expectErrorObject(late.body, 'E7104');
    const events = await api('get', '/events?limit=100&filter[type]=charge.expired');
    expect(events.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toContain(
      second.charge.id,
    );
    expect(await journalOf(first.charge.id)).toEqual([]);
    expect(await journalOf(second.charge.id)).toEqual([]);
  });

  it('the stuck-claim job reads the provider back for captures whose process died: captured there -> booked once, still authorized -> released; a claim younger than the provider timeout is left alone', async () => {
    const job = t.app.get(CaptureClaimRecoveryJob);
    const scope = { applicationIds: [tenant.applicationId] };
    const done = await authorized();
    const held = await authorized();
    // What a process that died mid-capture leaves: the claim of 600.00, the intent processing.
    t.clock.freeze();
    for (const x of [done, held]) {
      await testSql(
        t,
        `UPDATE wallet_test.charges SET capture_claim_amount = 60000, capture_claimed_at = $2 WHERE id = $1`,
        [x.charge.id, t.clock.now()],
      );
      await testSql(t, `UPDATE wallet_test.payment_intents SET status = 'processing' WHERE id = $1`, [x.pi.id]);
    }
    // The first one's call reached the provider before the process died.
    await sandbox().captureAuthorization({
      applicationId: tenant.applicationId,
      chargeId: done.charge.id,
      chargeReference: done.charge.reference_id,
      amount: 100000,
      amountToCapture: 60000,
      currency: 'THB',
      livemode: false,
    });
    const busy = await api('post', `/payment_intents/${held.pi.id}/capture`).send({});
    expect(busy.status).toBe(400);
    expectErrorObject(busy.body, 'E7100');
    expect(await job.run(scope)).toEqual({ completed: 0, released: 0 });

    t.clock.advance(30_000);
    expect(await job.run(scope)).toEqual({ completed: 1, released: 1 });
    expect(await job.run(scope)).toEqual({ completed: 0, released: 0 });
    expect((await api('get', `/payment_intents/${done.pi.id}`)).body).toMatchObject({
      status: 'succeeded',
      amount_received: 60000,
    });
    expect((await api('get', `/charges/${done.charge.id}`)).body).toMatchObject({
      status: 'succeeded',
      amount_captured: 60000,
      amount_voided: 40000,
    });
    const merchant = (await journalOf(done.charge.id)).filter((e) => e.balance.account === 'merchant');
    expect(merchant).toHaveLength(1);
    expect(merchant[0]).toMatchObject({ gross_amount: 60000 });

    expect((await api('get', `/payment_intents/${held.pi.id}`)).body).toMatchObject({
      status: 'requires_capture',
      amount_capturable: 100000,
    });
    expect(sandbox().authorizationOf(held.charge.reference_id)).toEqual({ amount: 100000, ended: null });
    expect(await journalOf(held.charge.id)).toEqual([]);
    const again = await api('post', `/payment_intents/${held.pi.id}/capture`).send({ amount_to_capture: 50000 });
    expect({ status: again.status, body: again.body }).toMatchObject({
      status: 200,
      body: { status: 'succeeded', amount_received: 50000 },
    });
  });

  it('test mode expire_authorization voids an authorization now by the expiry path; refuses twice, an automatic intent, live mode', async () => {
    const held = await authorized();
    const expired = await api('post', `/test_helpers/payment_intents/${held.pi.id}/expire_authorization`);
    expect({ status: expired.status, body: expired.body }).toMatchObject({
      status: 200,
      body: { id: held.pi.id, status: 'canceled', cancellation_reason: 'automatic', amount_capturable: 0 },
    });
    expect((await api('get', `/charges/${held.charge.id}`)).body).toMatchObject({
      status: 'canceled',
      amount_voided: 100000,
    });
    expect(sandbox().authorizationOf(held.charge.reference_id)?.ended).toMatchObject({ status: 'voided' });
    const events = await api('get', '/events?limit=100&filter[type]=charge.expired');
    const about = events.body.data.filter(
      (e: { data: { object: { id: string } } }) => e.data.object.id === held.charge.id,
    );
    expect(about).toHaveLength(1);
    expect(await journalOf(held.charge.id)).toEqual([]);

    const again = await api('post', `/test_helpers/payment_intents/${held.pi.id}/expire_authorization`);
    expect(again.status).toBe(400);
    expectErrorObject(again.body, 'E7104');
    const capture = await api('post', `/payment_intents/${held.pi.id}/capture`).send({});
    expectErrorObject(capture.body, 'E7104');

    const { pi: automatic } = await paymentIntentCheckout(t, tenant, { amount: 10000, currency: 'THB' });
    const none = await api('post', `/test_helpers/payment_intents/${automatic.id}/expire_authorization`);
    expect(none.status).toBe(400);
    expectErrorObject(none.body, 'E7101');

    const live = await api('post', `/test_helpers/payment_intents/${held.pi.id}/expire_authorization`, 'live');
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4040');
  });

  it('live Opn: charges with capture=false (pre_auth), captures 600.00 with capture_amount, the fake shows 400.00 released', async () => {
    opn.reset();
    const authorization = { id: 'chrg_5fzmanualcapture000001', livemode: true };
    opn.on('POST /charges', { status: 200, fixture: 'charge_authorized', patch: authorization });
    const { pi, checkout } = await paymentIntentCheckout(
      t,
      tenant,
      { amount: 100000, currency: 'THB', capture_method: 'manual' },
      'live',
    );
    const paid = await t.http
      .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
      .set(asSession(checkout.session))
      .send({ payment_method_type: 'card', token: 'tokn_5fzmanualcapture00001' });
    expect({ status: paid.status, body: paid.body }).toMatchObject({
      status: 200,
      body: { charge: { status: 'requires_capture', amount_capturable: 100000, livemode: true } },
    });
    expect(opn.last('POST /charges').form).toMatchObject({
      amount: '100000',
      capture: 'false',
      authorization_type: 'pre_auth',
    });

    opn.on(`POST /charges/${authorization.id}/capture`, {
      status: 200,
      fixture: 'charge_captured_partial',
      patch: authorization,
    });
    const captured = await api('post', `/payment_intents/${pi.id}/capture`, 'live').send({ amount_to_capture: 60000 });
    expect({ status: captured.status, body: captured.body }).toMatchObject({
      status: 200,
      body: { status: 'succeeded', amount_received: 60000, livemode: true },
    });
    const sent = opn.last(`POST /charges/${authorization.id}/capture`);
    expect(sent.form).toEqual({ capture_amount: '60000' });
    expect(sent.headers['idempotency-key']).toMatch(/^capture:/);
    const atOpn = opnFixture<{ authorized_amount: number; captured_amount: number }>('charge_captured_partial');
    expect(atOpn.authorized_amount - atOpn.captured_amount).toBe(40000);
    const charge = (await api('get', `/charges/${paid.body.charge.id}`, 'live')).body;
    expect(charge).toMatchObject({ amount: 60000, amount_captured: 60000, amount_voided: 40000, provider: 'opn' });
    const merchant = (await journalOf(charge.id, 'live')).find((e) => e.balance.account === 'merchant');
    expect(merchant).toMatchObject({ gross_amount: 60000 });
  });

  it('live Stripe: a PaymentIntent with capture_method=manual, captured with amount_to_capture', async () => {
    const { intent, paid } = await authorizedAtStripe('pm_1PgafyB7WZ01zgkWmanual01');
    expect(stripe.last('POST /v1/payment_intents').form).toMatchObject({ capture_method: 'manual', amount: '100000' });

    const reference = paid.body.charge.reference_id as string;
    stripe.on(`POST /v1/payment_intents/${reference}/capture`, {
      status: 200,
      fixture: 'payment_intent_captured_partial',
      patch: { livemode: true },
    });
    const captured = await api('post', `/payment_intents/${intent.body.id}/capture`, 'live', 'SG').send({
      amount_to_capture: 60000,
    });
    expect({ status: captured.status, body: captured.body }).toMatchObject({
      status: 200,
      body: { status: 'succeeded', amount_received: 60000 },
    });
    expect(stripe.last(`POST /v1/payment_intents/${reference}/capture`).form).toEqual({ amount_to_capture: '60000' });
    expect((await api('get', `/charges/${paid.body.charge.id}`, 'live', 'SG')).body).toMatchObject({
      amount_captured: 60000,
      amount_voided: 40000,
    });
  });

  it('live Stripe: the stuck-claim job reads the PaymentIntent back (GET, no second capture) and books what Stripe captured', async () => {
    const { intent, paid } = await authorizedAtStripe('pm_1PgafyB7WZ01zgkWmanual02');
    const reference = paid.body.charge.reference_id as string;
    // A process claimed a capture of 600.00, reached Stripe, and died before recording it.
    await testSql(
      t,
      `UPDATE wallet_live.charges SET capture_claim_amount = 60000, capture_claimed_at = $2 WHERE id = $1`,
      [paid.body.charge.id, t.clock.now()],
    );
    await testSql(t, `UPDATE wallet_live.payment_intents SET status = 'processing' WHERE id = $1`, [intent.body.id]);
    stripe.on(`GET /v1/payment_intents/${reference}`, {
      status: 200,
      fixture: 'payment_intent_captured_partial',
      patch: { livemode: true },
    });
    t.clock.advance(30_000);
    const job = t.app.get(CaptureClaimRecoveryJob);
    expect(await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] })).toEqual({
      completed: 1,
      released: 0,
    });
    expect(stripe.requests.filter((r) => r.path === `/v1/payment_intents/${reference}/capture`)).toHaveLength(0);
    expect(stripe.last(`GET /v1/payment_intents/${reference}`).method).toBe('GET');
    expect((await api('get', `/charges/${paid.body.charge.id}`, 'live', 'SG')).body).toMatchObject({
      status: 'succeeded',
      amount_captured: 60000,
      amount_voided: 40000,
    });
    expect((await journalOf(paid.body.charge.id, 'live', 'SG')).length).toBeGreaterThan(0);
  });
});
