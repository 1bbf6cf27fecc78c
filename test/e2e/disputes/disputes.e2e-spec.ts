import { RequestContext } from '../../../src/common/context/request-context.js';
import { ChargesService } from '../../../src/modules/checkout/index.js';
import { BalancesService } from '../../../src/modules/ledger/index.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { OpenApiContract } from '../../support/openapi.js';
import {
  badParameters,
  byCreatedDesc,
  expectBadParameter,
  expectFilters,
  getList,
  ids,
  sqlInjections,
  walkForwards,
  type Row,
} from '../ledger/list-checks.js';

const LIST = '/disputes';
const DOC = '/api/v1/{app}/platform/wallet';
const MINUTE = 60_000;

describe('disputes', () => {
  let t: TestApp;
  let tenant: Tenant;
  let customerId: string;
  let balanceId: string;
  let paymentMethodId: string;
  let newCharge: (amount: number, extra?: Record<string, unknown>) => Promise<string>;
  let all: Row[];

  const open = (chargeId: string, body: Record<string, unknown> = {}, country = 'TH') =>
    t.http
      .post(tenant.path('/test_helpers/disputes'))
      .set(tenant.as('test', { 'X-Country': country }))
      .send({ charge_id: chargeId, ...body });

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t, { countries: ['TH', 'SG'] });
    const ctx = t.app.get(RequestContext);
    const charges = t.app.get(ChargesService);
    const application_id = tenant.applicationId;
    customerId = (await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Disputer' })).body
      .id;
    const inTest = <T>(fn: () => Promise<T>) => ctx.runInMode('test', fn);
    balanceId = (
      await inTest(() =>
        t.app
          .get(BalancesService)
          .getOrCreate({ application_id, account: 'customer', currency: 'THB', customer_id: customerId }),
      )
    ).id;
    paymentMethodId = (
      await inTest(() =>
        charges.createPaymentMethod({
          application_id,
          customer_id: customerId,
          type: 'card',
          brand: 'visa',
          last4: '0259',
          exp_month: 12,
          exp_year: 2030,
        }),
      )
    ).id;
    newCharge = async (amount, extra = {}) =>
      (
        await inTest(() =>
          charges.create({
            application_id,
            status: 'succeeded',
            currency: 'THB',
            amount,
            amount_captured: amount,
            paid: true,
            captured: true,
            customer_id: customerId,
            payment_method_id: paymentMethodId,
            balance_id: balanceId,
            provider: 'sandbox',
            reference_id: `ch_ref_${amount}`,
            ...extra,
          }),
        )
      ).id;
    const reasons = ['fraudulent', 'duplicate', 'product_not_received', 'general', 'fraudulent', 'unrecognized'];
    for (const [i, amount] of [1500, 300, 4200, 990, 2000, 750].entries()) {
      t.clock.advance(MINUTE);
      const res = await open(await newCharge(amount), { reason: reasons[i] });
      expect(res.status).toBe(200);
    }
    t.clock.advance(MINUTE);
    expect((await open(await newCharge(5000), {}, 'SG')).status).toBe(200);
    all = (await getList(t, tenant, LIST, { limit: '100' })).data;
  });
  afterAll(() => t.close());

  it('opens a dispute on a paid charge: embeds the charge, marks it and moves the money through the ledger', async () => {
    const contract = await OpenApiContract.load(t);
    const before = (await t.http.get(tenant.path(`/balances/${balanceId}`)).set(tenant.as('test'))).body;
    const chargeId = await newCharge(1234);
    const res = await open(chargeId, { reason: 'duplicate', amount: 1000 });
    expect(res.status).toBe(200);
    contract.assert('POST', `${DOC}/test_helpers/disputes`, res);
    expect(res.body).toMatchObject({
      object: 'dispute',
      livemode: false,
      country: 'TH',
      charge_id: chargeId,
      currency: 'THB',
      status: 'needs_response',
      reason: 'duplicate',
      network_reason_code: '12.6.1',
      amount: 1000,
      amount_from_merchant: 1000,
      settled: false,
      reinstated: false,
      scaling_factor: 100,
      closed_at: null,
      charge: {
        id: chargeId,
        object: 'charge',
        disputed: true,
        dispute_id: res.body.id,
        dispute_status: 'needs_response',
        dispute_amount: 1000,
        customer: { id: customerId, name: 'Disputer' },
        payment_method: { id: paymentMethodId, card: { brand: 'visa', last4: '0259' }, customer: { id: customerId } },
        balance: { id: balanceId, customer: { id: customerId } },
        invoice: null,
      },
    });
    expect(res.body.number).toMatch(/^DP-\d{8}-[0-9A-Z]{6}$/);
    expect(Date.parse(res.body.evidence_due_by) - Date.parse(res.body.opened_at)).toBe(7 * 24 * 3600 * 1000);
    const after = (await t.http.get(tenant.path(`/balances/${balanceId}`)).set(tenant.as('test'))).body;
    expect(after.available).toBe(before.available - 1000);
    const entries = await getList(t, tenant, '/balance_transactions', { q: res.body.number });
    expect(entries.data.map((e) => [e.amount, e.type, e.event_id])).toEqual(
      expect.arrayContaining([
        [-1000, 'dispute', res.body.id],
        [1000, 'dispute', res.body.id],
      ]),
    );

    const again = await open(chargeId);
    expect(again.status).toBe(409);
    expectErrorObject(again.body, 'E9501');
  });

  it('refuses the helper in live mode, for unknown or unpaid charges and for amounts above the charge', async () => {
    const live = await t.http
      .post(tenant.path('/test_helpers/disputes'))
      .set(tenant.as('live'))
      .send({ charge_id: all[0].charge_id });
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4040');
    const unknown = await open('0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b');
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4004');
    const unpaid = await open(await newCharge(100, { paid: false, status: 'pending' }));
    expect(unpaid.status).toBe(422);
    expectErrorObject(unpaid.body, 'E9502');
    const tooMuch = await open(await newCharge(100), { amount: 101 });
    expect(tooMuch.status).toBe(422);
    expectErrorObject(tooMuch.body, 'E9502');
    const bad = await open('not-a-charge', { reason: 'boredom' });
    expect(bad.status).toBe(400);
    expectErrorObject(bad.body, 'E2000');
  });

  it('lists only the disputes of the X-Country application country, in the list envelope', async () => {
    const contract = await OpenApiContract.load(t);
    const th = await t.http.get(tenant.path(LIST)).set(tenant.as('test'));
    contract.assert('GET', `${DOC}/disputes`, th);
    expect(th.body).toMatchObject({ object: 'list', page: 1, limit: 10, total_pages: 1 });
    expect(th.body.data.every((d: Row) => d.country === 'TH')).toBe(true);
    const sg = await getList(t, tenant, LIST, {});
    expect(sg.data.map((d) => d.country)).not.toContain('SG');
    const sgList = await t.http.get(tenant.path(LIST)).set(tenant.as('test', { 'X-Country': 'SG' }));
    expect(sgList.body.data.map((d: Row) => d.country)).toEqual(['SG']);
    expect(sgList.body.total_items).toBe(1);
    const sgId = sgList.body.data[0].id;
    const wrongCountry = await t.http.get(tenant.path(`${LIST}/${sgId}`)).set(tenant.as('test'));
    expect(wrongCountry.status).toBe(404);
    expectErrorObject(wrongCountry.body, 'E4004');
    const right = await t.http.get(tenant.path(`${LIST}/${sgId}`)).set(tenant.as('test', { 'X-Country': 'SG' }));
    expect(right.status).toBe(200);
    contract.assert('GET', `${DOC}/disputes/{id}`, right);
    expect(right.body).toEqual(sgList.body.data[0]);
    const other = await createTenant(t);
    const foreign = await t.http.get(other.path(`${LIST}/${sgId}`)).set(other.as('test'));
    expect(foreign.status).toBe(404);
    const noCountry = await t.http
      .get(tenant.path(LIST))
      .set({ Authorization: tenant.basic('test'), 'X-Test-Mode': 'true' });
    expect(noCountry.status).toBe(400);
    expectErrorObject(noCountry.body, 'E3002');
  });

  it('pages, sorts and walks with cursors forwards and backwards while disputes are opened', async () => {
    const rows = (await getList(t, tenant, LIST, { limit: '100' })).data;
    expect(rows.map((r) => r.id)).toEqual([...rows].sort(byCreatedDesc).map((r) => r.id));
    const page2 = await getList(t, tenant, LIST, { page: '2', limit: '3' });
    expect(page2.data.map((r) => r.id)).toEqual(rows.slice(3, 6).map((r) => r.id));
    expect(page2).toMatchObject({ total_items: rows.length, total_pages: Math.ceil(rows.length / 3) });
    const byAmount = await ids(t, tenant, LIST, { sort: 'amount:asc' });
    expect(byAmount).toEqual(
      [...rows].sort((a, b) => (a.amount as number) - (b.amount as number) || (a.id < b.id ? -1 : 1)).map((r) => r.id),
    );

    const walk = await walkForwards(t, tenant, LIST, 2, async () => {
      t.clock.advance(MINUTE);
      expect((await open(await newCharge(60))).status).toBe(200);
    });
    expect(walk.ids).toEqual(rows.map((r) => r.id));
    const now = (await getList(t, tenant, LIST, { limit: '100' })).data.map((r) => r.id);
    const back = await getList(t, tenant, LIST, { 'use-cursor': 'true', limit: '2', ending_before: now[6] });
    expect(back.data.map((r) => r.id)).toEqual(now.slice(4, 6));
    expect(back.has_more).toBe(true);
    const top = await getList(t, tenant, LIST, { 'use-cursor': 'true', limit: '5', ending_before: now[2] });
    expect(top.data.map((r) => r.id)).toEqual(now.slice(0, 2));
    expect(top.has_more).toBe(false);
  });

  it('filters on every allowed field with every operator, and searches with q', async () => {
    const rows = (await getList(t, tenant, LIST, { limit: '100' })).data;
    const pick = (pred: (r: Row) => boolean) => rows.filter(pred).map((r) => r.id);
    const mid = rows[Math.floor(rows.length / 2)];
    const s = (r: Row, f: string) => r[f] as string;
    const cases: Array<[Record<string, string>, (r: Row) => boolean]> = [
      [{ 'filter[amount]': '990' }, (r) => r.amount === 990],
      [{ 'filter[amount][ne]': '990' }, (r) => r.amount !== 990],
      [{ 'filter[amount][gt]': '990' }, (r) => (r.amount as number) > 990],
      [{ 'filter[amount][gte]': '990' }, (r) => (r.amount as number) >= 990],
      [{ 'filter[amount][lt]': '990' }, (r) => (r.amount as number) < 990],
      [{ 'filter[amount][lte]': '990' }, (r) => (r.amount as number) <= 990],
      [{ 'filter[amount][in]': '300,4200' }, (r) => [300, 4200].includes(r.amount as number)],
      [{ 'filter[charge_id]': s(mid, 'charge_id') }, (r) => r.charge_id === mid.charge_id],
      [{ 'filter[closed_at][lt]': mid.created_at }, () => false],
      [{ 'filter[created_at][gte]': mid.created_at }, (r) => r.created_at >= mid.created_at],
      [{ 'filter[created_at][lte]': mid.created_at }, (r) => r.created_at <= mid.created_at],
      [{ 'filter[currency]': 'THB' }, () => true],
      [
        { 'filter[evidence_due_by][gt]': s(mid, 'evidence_due_by') },
        (r) => s(r, 'evidence_due_by') > s(mid, 'evidence_due_by'),
      ],
      [{ 'filter[id][in]': `${rows[0].id},${rows[2].id}` }, (r) => r.id === rows[0].id || r.id === rows[2].id],
      [{ 'filter[labels]': 'vip' }, () => false],
      [{ 'filter[labels][ne]': 'vip' }, () => true],
      [{ 'filter[network_reason_code]': '10.4' }, (r) => r.network_reason_code === '10.4'],
      [{ 'filter[number]': s(mid, 'number') }, (r) => r.id === mid.id],
      [{ 'filter[opened_at][lt]': s(mid, 'opened_at') }, (r) => s(r, 'opened_at') < s(mid, 'opened_at')],
      [{ 'filter[provider_id]': s(mid, 'provider_id') }, (r) => r.id === mid.id],
      [{ 'filter[reason]': 'fraudulent' }, (r) => r.reason === 'fraudulent'],
      [{ 'filter[reason][in]': 'duplicate,general' }, (r) => ['duplicate', 'general'].includes(s(r, 'reason'))],
      [{ 'filter[reference_id]': 'ch_ref_300' }, (r) => r.reference_id === 'ch_ref_300'],
      [{ 'filter[reinstated]': 'false' }, () => true],
      [{ 'filter[settled][eq]': 'true' }, () => false],
      [{ 'filter[status]': 'needs_response' }, () => true],
      [{ 'filter[status][ne]': 'needs_response' }, () => false],
      [{ 'filter[updated_at][gt]': mid.updated_at as string }, (r) => s(r, 'updated_at') > s(mid, 'updated_at')],
    ];
    await expectFilters(t, tenant, LIST, rows, cases);
    expect(await ids(t, tenant, LIST, { q: 'FRAUD' })).toEqual(pick((r) => r.reason === 'fraudulent'));
    expect(await ids(t, tenant, LIST, { q: s(mid, 'number').toLowerCase() })).toEqual([mid.id]);
    expect(await ids(t, tenant, LIST, { q: s(mid, 'charge_id') })).toEqual([mid.id]);
    expect(await ids(t, tenant, LIST, { q: 'ch_ref_4200' })).toEqual(pick((r) => r.reference_id === 'ch_ref_4200'));
  });

  it('refuses every kind of bad parameter, and SQL in any parameter, with a 400 naming it', async () => {
    for (const [query, param] of badParameters()) await expectBadParameter(t, tenant, LIST, query, param);
    await expectBadParameter(t, tenant, LIST, { sort: 'reason:asc' }, 'sort');
    await expectBadParameter(t, tenant, LIST, { balance_id: all[0].id }, 'balance_id');
    await expectBadParameter(t, tenant, LIST, { 'filter[settled][lt]': 'true' }, 'filter[settled][lt]');
    const extra = { 'filter[reason]': "fraud' OR 1=1 --", 'filter[labels]': '"]\' OR 1=1 --x' };
    for (const [query, param] of sqlInjections(extra)) await expectBadParameter(t, tenant, LIST, query, param);
  });
});
