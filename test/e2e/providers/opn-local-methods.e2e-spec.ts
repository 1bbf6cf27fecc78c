import { ProviderReconciliationJob } from '../../../src/modules/provider-events/index.js';
import { confirm, paymentIntentCheckout } from '../../factories/checkout.js';
import { fakeOpn, opnFixture, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Issue 40 against the fake Opn on loopback (live mode served by the real Opn adapter): TrueMoney
 * (`truemoney_jumpapp`) and a mobile banking app create an Opn source charge with its return_uri
 * and platform; the buyer is sent to Opn's `authorize_uri`; `charge.complete` settles it exactly
 * once however often it is replayed; a lost webhook is recovered by the reconciliation job; a
 * TrueMoney charge is refunded at Opn, a mobile banking one is refused (E7404) without a call.
 */
const OPN_LIVE = { secret: 'skey_5fakeopnlivesecret000', public: 'pkey_5fakeopnlivepublic000' };

describe('Opn local methods: TrueMoney and mobile banking (fake Opn, live mode)', () => {
  let opn: FakeProvider;
  let t: TestApp;
  let tenant: Tenant;
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n += 1)}`.replace(/[^0-9a-z]/g, '');

  beforeAll(async () => {
    opn = await fakeOpn(OPN_LIVE.secret).start();
    t = await startApp({
      rateLimit: false,
      env: {
        COLLECTION_PROVIDERS_LIVE: 'TH=opn',
        OPN_SECRET_KEY_LIVE: OPN_LIVE.secret,
        OPN_PUBLIC_KEY_LIVE: OPN_LIVE.public,
        OPN_BASE_URL: opn.baseUrl,
        PROVIDER_RECONCILE_AFTER_MINUTES: '5',
      },
    });
    tenant = await createTenant(t);
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await t?.close();
    await opn?.stop();
  });

  const get = async (path: string) => {
    const res = await t.http.get(tenant.path(path)).set(tenant.as('live'));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const eventsAbout = async (type: string, id: string) =>
    ((await get(`/events?filter[type]=${type}&limit=100`)).data as Array<{ data: { object: { id: string } } }>).filter(
      (e) => e.data.object.id === id,
    );

  /** Opn's charge of a source `type`: pending with its authorize_uri, or paid. */
  const opnCharge = (id: string, type: string, paid: boolean) => {
    const base = opnFixture<Record<string, unknown> & { source: Record<string, unknown> }>(
      paid ? 'charge_promptpay_paid' : 'charge_promptpay_pending',
    );
    return {
      ...base,
      id,
      livemode: true,
      authorize_uri: paid ? null : `https://pay.omise.co/payments/${id}/authorize`,
      source: { ...base.source, type, flow: 'app_redirect', scannable_code: null },
    };
  };
  const opnEvent = (id: string, data: object) => ({ ...opnFixture('event_charge_complete'), id, livemode: true, data });

  /** A live checkout confirmed with `type` at the fake Opn: the charge pending with Opn's reference. */
  async function pendingCharge(type: string, opnType: string, extra: object = {}) {
    const reference = `chrg_5live${unique()}`;
    opn.on('POST /charges', { status: 200, json: opnCharge(reference, opnType, false) });
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, { amount: 250_000 }, 'live');
    const res = await confirm(t, tenant, checkout, { payment_method_type: type, ...extra });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    const charge = res.body.charge;
    expect(charge).toMatchObject({ status: 'pending', provider: 'opn', reference_id: reference, livemode: true });
    expect(charge.next_action).toEqual([
      expect.objectContaining({ type: 'redirect_to_url', url: `https://pay.omise.co/payments/${reference}/authorize` }),
    ]);
    return { pi, checkout, charge: charge as { id: string }, reference };
  }

  it('offers the Opn types by default in live mode: card, PromptPay, TrueMoney and the five mobile banking apps', async () => {
    const { pi } = await paymentIntentCheckout(t, tenant, { amount: 250_000 }, 'live');
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
  });

  it.each([
    ['truemoney', 'truemoney_jumpapp', 'ios', 'IOS'],
    ['mobile_banking_kbank', 'mobile_banking_kbank', 'android', 'ANDROID'],
  ])(
    '%s: the Opn source charge, settled by charge.complete exactly once after replays',
    async (type, opnType, platform, platformType) => {
      const { pi, checkout, charge, reference } = await pendingCharge(type, opnType, { platform });
      const sent = opn.last('POST /charges');
      expect(sent.form).toMatchObject({
        amount: '250000',
        currency: 'thb',
        'source[type]': opnType,
        'source[platform_type]': platformType,
        return_uri: `http://localhost:3000/provider_returns/opn/${charge.id}`,
        'metadata[charge_id]': charge.id,
      });
      expect(sent.headers['idempotency-key']).toBe(`charge:${charge.id}`);

      const event = `evnt_5live${unique()}`;
      opn.on(`GET /events/${event}`, { status: 200, json: opnEvent(event, opnCharge(reference, opnType, true)) });
      for (const expected of ['applied', 'duplicate', 'duplicate']) {
        const hook = await t.http.post('/provider_webhooks/opn').send({ object: 'event', id: event });
        expect({ status: hook.status, result: hook.body.result }).toEqual({ status: 200, result: expected });
      }
      expect(await get(`/charges/${charge.id}`)).toMatchObject({ status: 'succeeded', paid: true });
      expect(await get(`/checkouts/${checkout.id}`)).toMatchObject({ status: 'complete' });
      expect(await get(`/payment_intents/${pi.id}`)).toMatchObject({ status: 'succeeded' });
      expect(await eventsAbout('charge.succeeded', charge.id)).toHaveLength(1);
    },
  );

  it('a lost webhook: the reconciliation job reads the TrueMoney charge back once the clock passes the delay', async () => {
    const { checkout, charge, reference } = await pendingCharge('truemoney', 'truemoney_jumpapp');
    opn.on(`GET /charges/${reference}`, { status: 200, json: opnCharge(reference, 'truemoney_jumpapp', true) });
    const job = t.app.get(ProviderReconciliationJob);
    await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
    expect(await get(`/charges/${charge.id}`)).toMatchObject({ status: 'pending' });
    t.clock.advance(6 * 60_000);
    const run = await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
    expect(run.charges_applied).toBe(1);
    expect(await get(`/charges/${charge.id}`)).toMatchObject({ status: 'succeeded' });
    expect(await get(`/checkouts/${checkout.id}`)).toMatchObject({ status: 'complete' });
    await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
    expect(await eventsAbout('charge.succeeded', charge.id)).toHaveLength(1);
  });

  it('refunds: TrueMoney is refunded at Opn; mobile banking is refused with E7404 and Opn is not called', async () => {
    const paid = async (type: string, opnType: string) => {
      const pending = await pendingCharge(type, opnType);
      const event = `evnt_5paid${unique()}`;
      opn.on(`GET /events/${event}`, {
        status: 200,
        json: opnEvent(event, opnCharge(pending.reference, opnType, true)),
      });
      expect((await t.http.post('/provider_webhooks/opn').send({ object: 'event', id: event })).body.result).toBe(
        'applied',
      );
      return pending;
    };
    const truemoney = await paid('truemoney', 'truemoney_jumpapp');
    opn.on(`POST /charges/${truemoney.reference}/refunds`, {
      status: 200,
      fixture: 'refund_partial',
      patch: { charge: truemoney.reference, amount: 100_000, status: 'closed' },
    });
    const refund = await t.http
      .post(tenant.path('/refunds'))
      .set(tenant.as('live'))
      .send({ charge_id: truemoney.charge.id, amount: 100_000 });
    expect({ status: refund.status, body: refund.body }).toMatchObject({
      status: 200,
      body: { status: 'succeeded', method: 'truemoney', amount: 100_000 },
    });
    expect(opn.last(`POST /charges/${truemoney.reference}/refunds`).form).toMatchObject({ amount: '100000' });

    const banking = await paid('mobile_banking_scb', 'mobile_banking_scb');
    const before = opn.requests.length;
    const refused = await t.http
      .post(tenant.path('/refunds'))
      .set(tenant.as('live'))
      .send({ charge_id: banking.charge.id });
    expect(refused.status).toBe(400);
    expectErrorObject(refused.body, 'E7404');
    expect(opn.requests.slice(before).filter((r) => r.path.includes('/refunds'))).toEqual([]);
  });
});
