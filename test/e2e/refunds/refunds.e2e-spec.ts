import { HoldReleaseJob } from '../../../src/modules/ledger/index.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { OpenApiContract } from '../../support/openapi.js';
import {
  CARDS,
  card,
  confirm,
  connectedAccount,
  createCheckout,
  createPaymentIntent,
  expectLedgerInvariants,
  paymentIntentCheckout,
} from '../../factories/checkout.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies, inspected field by field
type Row = Record<string, any>;
const DOC = '/api/v1/{app}/platform/wallet';
const cardFee = (amount: number) => Math.floor((amount * 365 + 5000) / 10000);

describe('refunds', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
  });
  beforeEach(async () => {
    tenant = await createTenant(t);
  });
  afterEach(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    t.clock.reset();
  });
  afterAll(() => t.close());

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  const refund = (body: object, headers: Record<string, string> = {}) =>
    t.http
      .post(tenant.path('/refunds'))
      .set({ ...tenant.as('test'), ...headers })
      .send(body);
  const cardCharge = async (amount: number): Promise<Row> => {
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount });
    const res = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(res.body.charge).toMatchObject({ status: 'succeeded' });
    return res.body.charge;
  };
  const promptPayCharge = async (amount: number): Promise<Row> => {
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount });
    await confirm(t, tenant, checkout, { payment_method_type: 'promptpay' });
    const paid = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${checkout.id}/pay_promptpay`))
      .set(tenant.as('test'));
    expect(paid.body.charge).toMatchObject({ status: 'succeeded' });
    return paid.body.charge;
  };
  const balance = async (id: string) => (await get(`/balances/${id}`)).body as { available: number; hold: number };
  const entriesOf = async (refundId: string) =>
    ((await get(`/balance_transactions?limit=100&q=${encodeURIComponent(`Refund ${refundId}`)}`)).body.data as Row[])
      .filter((e) => e.event_id === refundId)
      .map((e) => [e.event_type, e.account, e.state, e.amount])
      .sort();
  const eventTypes = async (objectId: string) =>
    ((await get('/events?limit=100')).body.data as Row[])
      .filter((e) => e.data.object.id === objectId)
      .map((e) => e.type)
      .sort();

  it('refunds a card charge in part, then the rest by default; the charge, ledger and events follow', async () => {
    const contract = await OpenApiContract.load(t);
    const charge = await cardCharge(10000);
    const merchantBefore = await balance(charge.balance.id);
    expect(merchantBefore).toMatchObject({ available: 0, hold: 10000 - cardFee(10000) });

    const part = await refund({
      charge_id: charge.id,
      amount: 3000,
      reason: 'requested_by_customer',
      metadata: { t: 'x' },
    });
    expect(part.status).toBe(200);
    contract.assert('POST', `${DOC}/refunds`, part);
    expect(part.body).toMatchObject({
      object: 'refund',
      livemode: false,
      charge_id: charge.id,
      status: 'succeeded',
      amount: 3000,
      currency: 'THB',
      reason: 'requested_by_customer',
      method: 'card',
      provider: 'sandbox',
      amount_from_available: 0,
      amount_from_hold: 3000,
      failure_code: null,
      metadata: { t: 'x' },
    });
    expect(part.body.reference_id).toMatch(/^re_sbx_/);
    expect((await get(`/charges/${charge.id}`)).body).toMatchObject({ amount_refunded: 3000, refunded: false });
    expect(await entriesOf(part.body.id)).toEqual(
      [
        ['refund.created', 'merchant', 'hold', -3000],
        ['refund.created', 'refunds_pending', 'available', 3000],
        ['refund.succeeded', 'refunds_pending', 'available', -3000],
        ['refund.succeeded', 'provider_clearing', 'available', 3000],
      ].sort(),
    );
    expect(await eventTypes(part.body.id)).toEqual(['refund.created', 'refund.succeeded', 'refund.updated']);

    // Funds released: the rest comes from available first.
    await t.http.post(tenant.path('/test_helpers/holds/release')).set(tenant.as('test'));
    const rest = await refund({ charge_id: charge.id });
    expect(rest.body).toMatchObject({ status: 'succeeded', amount: 7000, reason: null });
    // The release moved what was left held (the first refund's hold debit shrank the queued release):
    // 6635 are available and none held, so the rest comes from available, 365 of it below zero.
    expect(rest.body).toMatchObject({ amount_from_available: 7000, amount_from_hold: 0 });
    const refunded = (await get(`/charges/${charge.id}`)).body;
    expect(refunded).toMatchObject({ amount_refunded: 10000, refunded: true });
    // Fees are not returned: the merchant side is down by exactly the fee.
    const after = await balance(charge.balance.id);
    expect(after.available + after.hold).toBe(-cardFee(10000));
    const chargeEvents = ((await get('/events?limit=100&filter[type]=charge.refunded')).body.data as Row[]).map(
      (e) => e.data.object.amount_refunded,
    );
    expect(chargeEvents.sort()).toEqual([10000, 3000]);

    const again = await refund({ charge_id: charge.id, amount: 1 });
    expect(again.status).toBe(409);
    expectErrorObject(again.body, 'E7503');

    const one = await get(`/refunds/${part.body.id}`);
    expect(one.status).toBe(200);
    contract.assert('GET', `${DOC}/refunds/{id}`, one);
    expect(one.body).toEqual(part.body);
    const list = await get(`/refunds?filter[charge_id]=${charge.id}&filter[status]=succeeded`);
    contract.assert('GET', `${DOC}/refunds`, list);
    expect(list.body.data.map((r: Row) => r.id).sort()).toEqual([part.body.id, rest.body.id].sort());
    const none = await get(`/refunds?filter[status]=pending`);
    expect(none.body.data).toEqual([]);
  });

  it('a refund of held funds shrinks the queued release: the release job moves only what is left', async () => {
    const charge = await cardCharge(10000);
    const net = 10000 - cardFee(10000);
    const part = await refund({ charge_id: charge.id, amount: 3000 });
    expect(part.body).toMatchObject({ status: 'succeeded', amount_from_available: 0, amount_from_hold: 3000 });
    expect(await balance(charge.balance.id)).toMatchObject({ available: 0, hold: net - 3000 });

    t.clock.advance(8 * 24 * 3600 * 1000);
    const released = await t.app
      .get(HoldReleaseJob)
      .releaseDue(t.clock.now(), { applicationIds: [tenant.applicationId], modes: ['test'] });
    expect(released).toBe(1);
    expect(await balance(charge.balance.id)).toMatchObject({ available: net - 3000, hold: 0 });
    const releases = ((await get('/balance_transactions?limit=100&filter[type]=charge')).body.data as Row[])
      .filter((e) => e.event_type === 'hold_release')
      .map((e) => [e.state, e.amount])
      .sort();
    expect(releases).toEqual(
      [
        ['available', net - 3000],
        ['hold', -(net - 3000)],
      ].sort(),
    );

    // The rest: all of what is available, then below zero by the fee (never from an empty hold).
    const rest = await refund({ charge_id: charge.id });
    expect(rest.body).toMatchObject({
      status: 'succeeded',
      amount: 7000,
      amount_from_available: 7000,
      amount_from_hold: 0,
    });
    expect(await balance(charge.balance.id)).toMatchObject({ available: -cardFee(10000), hold: 0 });
  });

  it('refuses more than what is left, unknown and unpaid charges, and bad input with precise codes', async () => {
    const charge = await cardCharge(5000);
    const over = await refund({ charge_id: charge.id, amount: 5001 });
    expect(over.status).toBe(400);
    expectErrorObject(over.body, 'E7501');
    expect((await refund({ charge_id: charge.id, amount: 2000 })).status).toBe(200);
    const over2 = await refund({ charge_id: charge.id, amount: 3001 });
    expectErrorObject(over2.body, 'E7501');
    expect((await get(`/charges/${charge.id}`)).body.amount_refunded).toBe(2000);
    const unknown = await refund({ charge_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' });
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4004');
    for (const body of [
      {},
      { charge_id: charge.id, amount: 0 },
      { charge_id: charge.id, reason: 'boredom' },
      { charge_id: charge.id, metadata: null },
    ]) {
      const bad = await refund(body);
      expect(bad.status).toBe(400);
      expectErrorObject(bad.body, 'E2000');
    }
    const missing = await get('/refunds/not-an-id');
    expect(missing.status).toBe(404);
    expectErrorObject(missing.body, 'E4004');
  });

  it('refuses a refund that would take the balance below the policy, and a refund of a disputed charge', async () => {
    const a = await cardCharge(10000);
    const b = await cardCharge(10000);
    const disputed = await t.http
      .post(tenant.path('/test_helpers/disputes'))
      .set(tenant.as('test', { 'X-Country': 'TH' }))
      .send({ charge_id: b.id });
    expect(disputed.status).toBe(200);
    const onDisputed = await refund({ charge_id: b.id });
    expect(onDisputed.status).toBe(409);
    expectErrorObject(onDisputed.body, 'E7505');
    // The merchant side holds 2 nets less the disputed 10000: refunding all of a would go below -fee.
    const before = await balance(a.balance.id);
    const tooMuch = await refund({ charge_id: a.id });
    expect(tooMuch.status).toBe(422);
    expectErrorObject(tooMuch.body, 'E7504');
    expect(await balance(a.balance.id)).toEqual(before);
    expect((await get(`/charges/${a.id}`)).body.amount_refunded).toBe(0);
    expect((await get('/refunds')).body.data).toEqual([]);
    // What fits is refunded.
    const fits = before.available + before.hold + cardFee(10000);
    expect((await refund({ charge_id: a.id, amount: fits })).body).toMatchObject({ status: 'succeeded', amount: fits });
  });

  it('the sandbox failing amount (4004) fails the refund and returns the debit', async () => {
    const charge = await cardCharge(20000);
    const before = await balance(charge.balance.id);
    const res = await refund({ charge_id: charge.id, amount: 4004 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', failure_code: 'refund_declined', amount: 4004 });
    expect((await get(`/charges/${charge.id}`)).body).toMatchObject({ amount_refunded: 0, refunded: false });
    const after = await balance(charge.balance.id);
    expect(after.available + after.hold).toBe(before.available + before.hold);
    expect(await eventTypes(res.body.id)).toEqual(['refund.created', 'refund.failed', 'refund.updated']);
    expect((await get(`/refunds?filter[status]=failed`)).body.data.map((r: Row) => r.id)).toEqual([res.body.id]);
    // The whole charge is still refundable.
    expect((await refund({ charge_id: charge.id })).body).toMatchObject({ status: 'succeeded', amount: 20000 });
  });

  it('a PromptPay refund is pending until the provider settles it', async () => {
    const charge = await promptPayCharge(45075);
    const res = await refund({ charge_id: charge.id, amount: 5000 });
    expect(res.body).toMatchObject({ status: 'pending', method: 'promptpay', amount: 5000 });
    expect((await get(`/charges/${charge.id}`)).body).toMatchObject({ amount_refunded: 5000, refunded: false });
    // Pending refunds count against what is left.
    const over = await refund({ charge_id: charge.id, amount: 40076 });
    expectErrorObject(over.body, 'E7501');
    expect(await entriesOf(res.body.id)).toEqual(
      [
        ['refund.created', 'merchant', 'hold', -5000],
        ['refund.created', 'refunds_pending', 'available', 5000],
      ].sort(),
    );
    const settled = await t.http
      .post(tenant.path(`/test_helpers/refunds/${res.body.id}/settle`))
      .set(tenant.as('test'));
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ id: res.body.id, status: 'succeeded' });
    expect((await entriesOf(res.body.id)).length).toBe(4);
    expect(await eventTypes(res.body.id)).toEqual(['refund.created', 'refund.succeeded', 'refund.updated']);
    const twice = await t.http.post(tenant.path(`/test_helpers/refunds/${res.body.id}/settle`)).set(tenant.as('test'));
    expect(twice.status).toBe(409);
    expectErrorObject(twice.body, 'E4090');
    const live = await t.http.post(tenant.path(`/test_helpers/refunds/${res.body.id}/settle`)).set(tenant.as('live'));
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4040');
  });

  it.each([
    ['TH', 'THB', 'truemoney', {}],
    ['TH', 'THB', 'installment_kbank', { installment_term: 3 }],
    ['SG', 'SGD', 'paynow', {}],
    ['SG', 'SGD', 'grabpay', {}],
    ['MY', 'MYR', 'fpx', { bank: 'maybank2u' }],
    ['MY', 'MYR', 'grabpay', {}],
  ])(
    "a refund of a %s %s charge paid with %s carries the charge's type as its method, as the OpenAPI document says",
    async (country, currency, type, extra) => {
      const local = await createTenant(t, { countries: [country] });
      const pi = await createPaymentIntent(t, local, { amount: 100_000, currency, payment_method_types: [type] });
      const checkout = await createCheckout(t, local, { target_type: 'payment_intent', target_id: pi.id });
      const pending = await confirm(
        t,
        local,
        checkout,
        { payment_method_type: type, ...extra },
        { 'X-Country': country },
      );
      expect(pending.body.charge).toMatchObject({ status: 'pending', payment_method: { type } });
      const paid = await t.http
        .post(local.path(`/test_helpers/charges/${pending.body.charge.id}/succeed`))
        .set(local.as('test'));
      expect(paid.body).toMatchObject({ status: 'succeeded' });
      const res = await t.http
        .post(local.path('/refunds'))
        .set(local.as('test'))
        .send({ charge_id: paid.body.id, amount: 1_000 });
      expect({ status: res.status, body: res.body }).toMatchObject({
        status: 200,
        body: { method: type, amount: 1_000, currency },
      });
      const contract = await OpenApiContract.load(t);
      contract.assert('POST', `${DOC}/refunds`, res);
      const read = await t.http.get(local.path(`/refunds/${res.body.id}`)).set(local.as('test'));
      contract.assert('GET', `${DOC}/refunds/{id}`, read);
      await expectLedgerInvariants(t, [local.applicationId]);
    },
  );

  it('destination charges: the platform pays, or reverse_transfer takes the connected share back (with or without the fee share)', async () => {
    const seller = await connectedAccount(t, tenant);
    const pi = await createPaymentIntent(t, tenant, {
      amount: 100000,
      transfer_data: { destination: seller.id },
      application_fee_amount: 5000,
    });
    const checkout = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: pi.id });
    const charge = (await confirm(t, tenant, checkout, card(CARDS.visa))).body.charge;
    const fee = cardFee(100000);
    const connectedId = charge.transfer_data.balance_id;
    const platformId = ((await get('/balances?limit=100')).body.data as Row[]).find(
      (b) => b.account === 'merchant',
    )!.id;
    const total = async (id: string) => {
      const b = await balance(id);
      return b.available + b.hold;
    };
    expect(await total(connectedId)).toBe(100000 - 5000 - fee);
    expect(await total(platformId)).toBe(5000);

    const reversed = await refund({ charge_id: charge.id, amount: 10000, reverse_transfer: true });
    const connectedShare = Math.floor(((100000 - 5000 - fee) * 10000) / 100000);
    expect(reversed.body).toMatchObject({
      status: 'succeeded',
      reverse_transfer: true,
      refund_application_fee: false,
      transfer_reversal_amount: connectedShare + 500,
    });
    expect(await total(connectedId)).toBe(100000 - 5000 - fee - connectedShare - 500);
    expect(await total(platformId)).toBe(5000 - (10000 - connectedShare - 500));

    const feeBack = await refund({
      charge_id: charge.id,
      amount: 10000,
      reverse_transfer: true,
      refund_application_fee: true,
    });
    expect(feeBack.body).toMatchObject({ status: 'succeeded', transfer_reversal_amount: connectedShare });
    expect(await total(platformId)).toBe(5000 - (10000 - connectedShare - 500) - (10000 - connectedShare));

    const platformPays = await refund({ charge_id: charge.id, amount: 1000 });
    expect(platformPays.body).toMatchObject({
      status: 'succeeded',
      transfer_reversal_amount: 0,
      balance_id: platformId,
    });
    const failed = await refund({ charge_id: charge.id, amount: 4004, reverse_transfer: true });
    expect(failed.body.status).toBe('failed');
    expect(await total(connectedId)).toBe(100000 - 5000 - fee - 2 * connectedShare - 500);
    expect((await get(`/charges/${charge.id}`)).body.amount_refunded).toBe(21000);

    const own = await cardCharge(5000);
    const wrong = await refund({ charge_id: own.id, reverse_transfer: true });
    expect(wrong.status).toBe(422);
    expectErrorObject(wrong.body, 'E7506');
  });

  it('an Idempotency-Key retry replays the refund instead of refunding twice', async () => {
    const charge = await cardCharge(8000);
    const key = { 'Idempotency-Key': `refund-${charge.id}` };
    const first = await refund({ charge_id: charge.id, amount: 1000 }, key);
    const second = await refund({ charge_id: charge.id, amount: 1000 }, key);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect((await get(`/charges/${charge.id}`)).body.amount_refunded).toBe(1000);
    expect((await get('/refunds')).body.data).toHaveLength(1);
    const otherBody = await refund({ charge_id: charge.id, amount: 2000 }, key);
    expectErrorObject(otherBody.body, 'E2006');
  });
});
