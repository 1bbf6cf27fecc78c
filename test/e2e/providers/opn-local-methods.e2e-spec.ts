import { ProviderReconciliationJob } from '../../../src/modules/provider-events/index.js';
import { typesWithProviderLiteral } from '../../../src/providers/ports/payment-method-types.js';
import { confirm, paymentIntentCheckout } from '../../factories/checkout.js';
import { fakeOpn, opnFixture, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Issue 40 against the fake Opn on loopback (live mode served by the real Opn adapter), for every
 * Opn source type: TrueMoney (`truemoney_jumpapp`), the five mobile banking apps and the card
 * installments of each issuer (with a term) create an Opn source charge with its return_uri (and
 * the platform, or the term); the buyer is sent to Opn's `authorize_uri`; `charge.complete` settles
 * it exactly once however often it is replayed; a lost webhook is recovered by the reconciliation
 * job; TrueMoney and installment charges are refunded at Opn, mobile banking ones are refused
 * (E7404) without a call.
 */
const OPN_LIVE = { secret: 'skey_5fakeopnlivesecret000', public: 'pkey_5fakeopnlivepublic000' };
const AMOUNT = 250_000;

interface Case {
  type: string;
  /** Opn's source type. */
  opn: string;
  /** The buyer's device, sent for the app's deep link (TrueMoney, mobile banking). */
  platform?: 'ios' | 'android';
  /** Installments: a term the issuer offers whose monthly amount (2,500 THB / term) reaches its minimum. */
  term?: number;
  /** Opn's fee with 7 % VAT: 1.65 % for mobile banking, 3.65 % for TrueMoney and installments. */
  fee: number;
  refund: 'a refund is made at Opn' | 'a refund is refused with E7404';
}
const MOBILE_BANKING_FEE = 4414; // 4,125 + 288.75
const CARD_RATE_FEE = 9764; // 9,125 + 638.75
const mobileBanking = (bank: string, platform: 'ios' | 'android'): Case => ({
  type: `mobile_banking_${bank}`,
  opn: `mobile_banking_${bank}`,
  platform,
  fee: MOBILE_BANKING_FEE,
  refund: 'a refund is refused with E7404',
});
const installment = (issuer: string, term: number): Case => ({
  type: `installment_${issuer}`,
  opn: `installment_${issuer}`,
  term,
  fee: CARD_RATE_FEE,
  refund: 'a refund is made at Opn',
});
const CASES: Case[] = [
  {
    type: 'truemoney',
    opn: 'truemoney_jumpapp',
    platform: 'ios',
    fee: CARD_RATE_FEE,
    refund: 'a refund is made at Opn',
  },
  mobileBanking('kbank', 'android'),
  mobileBanking('scb', 'ios'),
  mobileBanking('bay', 'android'),
  mobileBanking('bbl', 'ios'),
  mobileBanking('ktb', 'android'),
  installment('bay', 3),
  installment('bbl', 4),
  installment('first_choice', 6),
  installment('kbank', 6),
  installment('ktc', 8),
  installment('scb', 4),
  installment('ttb', 3),
  installment('uob', 4),
];

describe('Opn local methods: TrueMoney, mobile banking and installments (fake Opn, live mode)', () => {
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

  /**
   * A live checkout confirmed with the case's type at the fake Opn: the charge pending with Opn's
   * reference. Installments are opt-in, so their payment intent names the type.
   */
  async function pendingCharge(c: Case) {
    const reference = `chrg_5live${unique()}`;
    opn.on('POST /charges', { status: 200, json: opnCharge(reference, c.opn, false) });
    const target = { amount: AMOUNT, ...(c.term ? { payment_method_types: [c.type] } : {}) };
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, target, 'live');
    const res = await confirm(t, tenant, checkout, {
      payment_method_type: c.type,
      ...(c.platform ? { platform: c.platform } : {}),
      ...(c.term ? { installment_term: c.term } : {}),
    });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    const charge = res.body.charge;
    expect(charge).toMatchObject({ status: 'pending', provider: 'opn', reference_id: reference, livemode: true });
    expect(charge.next_action).toEqual([
      expect.objectContaining({ type: 'redirect_to_url', url: `https://pay.omise.co/payments/${reference}/authorize` }),
    ]);
    return { pi, checkout, charge: charge as { id: string }, reference };
  }

  it('offers the Opn types by default in live mode: card, PromptPay, TrueMoney and the five mobile banking apps', async () => {
    const { pi } = await paymentIntentCheckout(t, tenant, { amount: AMOUNT }, 'live');
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

  it('the cases below are every Opn source type of the registry', () => {
    expect(CASES.map((c) => c.type).sort()).toEqual(
      typesWithProviderLiteral('opn')
        .filter((type) => type !== 'card' && type !== 'promptpay')
        .sort(),
    );
  });

  it.each(CASES)(
    '$type: the Opn source charge, settled by charge.complete exactly once after replays; $refund',
    async (c) => {
      const { pi, checkout, charge, reference } = await pendingCharge(c);
      const sent = opn.last('POST /charges');
      expect(sent.form).toMatchObject({
        amount: String(AMOUNT),
        currency: 'thb',
        'source[type]': c.opn,
        return_uri: `http://localhost:3000/provider_returns/opn/${charge.id}`,
        'metadata[charge_id]': charge.id,
        ...(c.platform ? { 'source[platform_type]': c.platform.toUpperCase() } : {}),
        ...(c.term ? { 'source[installment_term]': String(c.term), 'source[zero_interest_installments]': 'true' } : {}),
      });
      if (!c.platform) expect(sent.form['source[platform_type]']).toBeUndefined();
      if (!c.term) expect(sent.form['source[installment_term]']).toBeUndefined();
      expect(sent.headers['idempotency-key']).toBe(`charge:${charge.id}`);
      expect(charge).toMatchObject({
        payment_method: { type: c.type },
        installment: c.term ? { term: c.term, monthly_amount: Math.floor(AMOUNT / c.term) } : null,
      });

      const event = `evnt_5live${unique()}`;
      opn.on(`GET /events/${event}`, { status: 200, json: opnEvent(event, opnCharge(reference, c.opn, true)) });
      for (const expected of ['applied', 'duplicate', 'duplicate']) {
        const hook = await t.http.post('/provider_webhooks/opn').send({ object: 'event', id: event });
        expect({ status: hook.status, result: hook.body.result }).toEqual({ status: 200, result: expected });
      }
      expect(await get(`/charges/${charge.id}`)).toMatchObject({
        status: 'succeeded',
        paid: true,
        payment_method: { type: c.type },
        provider_fee_amount: c.fee,
      });
      expect(await get(`/checkouts/${checkout.id}`)).toMatchObject({ status: 'complete' });
      expect(await get(`/payment_intents/${pi.id}`)).toMatchObject({ status: 'succeeded' });
      expect(await eventsAbout('charge.succeeded', charge.id)).toHaveLength(1);

      const before = opn.requests.length;
      if (c.refund === 'a refund is refused with E7404') {
        const refused = await t.http
          .post(tenant.path('/refunds'))
          .set(tenant.as('live'))
          .send({ charge_id: charge.id });
        expect(refused.status).toBe(400);
        expectErrorObject(refused.body, 'E7404');
        expect(opn.requests.slice(before).filter((r) => r.path.includes('/refunds'))).toEqual([]);
        return;
      }
      opn.on(`POST /charges/${reference}/refunds`, {
        status: 200,
        fixture: 'refund_partial',
        patch: { charge: reference, amount: 100_000, status: 'closed' },
      });
      const refund = await t.http
        .post(tenant.path('/refunds'))
        .set(tenant.as('live'))
        .send({ charge_id: charge.id, amount: 100_000 });
      expect({ status: refund.status, body: refund.body }).toMatchObject({
        status: 200,
        body: { status: 'succeeded', method: c.type, amount: 100_000 },
      });
      expect(opn.last(`POST /charges/${reference}/refunds`).form).toMatchObject({ amount: '100000' });
      expect(await get(`/charges/${charge.id}`)).toMatchObject({ amount_refunded: 100_000, refunded: false });
    },
  );

  it.each(CASES)(
    '$type: a lost webhook: the reconciliation job reads the charge back once the clock passes the delay, once',
    async (c) => {
      const { checkout, charge, reference } = await pendingCharge(c);
      opn.on(`GET /charges/${reference}`, { status: 200, json: opnCharge(reference, c.opn, true) });
      const job = t.app.get(ProviderReconciliationJob);
      await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
      expect(await get(`/charges/${charge.id}`)).toMatchObject({ status: 'pending' });
      t.clock.advance(6 * 60_000);
      const run = await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
      expect(run.charges_applied).toBe(1);
      expect(await get(`/charges/${charge.id}`)).toMatchObject({
        status: 'succeeded',
        payment_method: { type: c.type },
      });
      expect(await get(`/checkouts/${checkout.id}`)).toMatchObject({ status: 'complete' });
      await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
      expect(await eventsAbout('charge.succeeded', charge.id)).toHaveLength(1);
    },
  );
});
