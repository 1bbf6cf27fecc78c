import { RequestContext } from '../../../src/common/context/request-context.js';
import { ChargesService } from '../../../src/modules/checkout/index.js';
import { BalancesService } from '../../../src/modules/ledger/index.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { OpenApiContract } from '../../support/openapi.js';
import { expectLedgerInvariants } from '../../support/ledger-invariants.js';
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

describe('dispute lifecycle', () => {
  let t: TestApp;
  let tenant: Tenant;
  let balanceId: string;
  let newCharge: (amount: number, extra?: Record<string, unknown>) => Promise<string>;
  const DAY = 24 * 3600 * 1000;

  const open = (chargeId: string, body: Record<string, unknown> = {}) =>
    t.http
      .post(tenant.path('/test_helpers/disputes'))
      .set(tenant.as('test'))
      .send({ charge_id: chargeId, ...body });
  const post = (path: string, body: Record<string, unknown> = {}) =>
    t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
  const balance = async (id: string) =>
    (await t.http.get(tenant.path(`/balances/${id}`)).set(tenant.as('test'))).body as Row;
  const balanceOf = async (account: string) =>
    (await getList(t, tenant, '/balances', { 'filter[account]': account, limit: '100' })).data.find(
      (b) => b.currency === 'THB',
    );
  /** The ledger entries of one dispute as [amount, account, type, category, event_type], in a canonical order. */
  const canonical = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();
  const entries = async (number: string) =>
    canonical(
      (await getList(t, tenant, '/balance_transactions', { q: number, limit: '100' })).data.map((e) => [
        e.amount,
        e.account,
        e.type,
        e.category,
        e.event_type,
      ]),
    );
  const eventsOf = async (type: string, disputeId: string) =>
    (
      await t.http.get(tenant.path('/events')).query({ 'filter[type]': type, limit: '100' }).set(tenant.as('test'))
    ).body.data.filter((e: Row) => (e.data as { object: Row }).object.id === disputeId);
  const invariants = () => expectLedgerInvariants(t, [tenant.applicationId]);

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t, { countries: ['TH'] });
    const ctx = t.app.get(RequestContext);
    const charges = t.app.get(ChargesService);
    const application_id = tenant.applicationId;
    const customerId = (await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Lifecycle' }))
      .body.id;
    const inTest = <T>(fn: () => Promise<T>) => ctx.runInMode('test', fn);
    balanceId = (
      await inTest(() =>
        t.app
          .get(BalancesService)
          .getOrCreate({ application_id, account: 'customer', currency: 'THB', customer_id: customerId }),
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
            balance_id: balanceId,
            provider: 'sandbox',
            ...extra,
          }),
        )
      ).id;
  });
  afterEach(() => invariants());
  afterAll(() => t.close());

  it('saves and submits evidence, then is won: the amount returns to the charge balance (reinstated)', async () => {
    const contract = await OpenApiContract.load(t);
    const start = (await balance(balanceId)).available as number;
    const d = (await open(await newCharge(20000), { reason: 'product_not_received' })).body;
    expect(d.status).toBe('needs_response');

    const saved = await post(`/disputes/${d.id}`, {
      evidence: { product_description: 'Premium plan', customer_name: 'Somchai', receipt: 'file_abc123' },
      metadata: { case: 'A-1' },
    });
    expect(saved.status).toBe(200);
    contract.assert('POST', `${DOC}/disputes/{id}`, saved);
    expect(saved.body).toMatchObject({
      status: 'needs_response',
      evidence: { product_description: 'Premium plan', customer_name: 'Somchai', receipt: 'file_abc123' },
      metadata: { case: 'A-1' },
      settled: false,
    });
    const submitted = await post(`/disputes/${d.id}`, {
      evidence: { customer_email_address: 'somchai@example.com', uncategorized_text: 'Used the plan.' },
      submit: true,
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({
      status: 'under_review',
      evidence: {
        product_description: 'Premium plan',
        customer_name: 'Somchai',
        receipt: 'file_abc123',
        customer_email_address: 'somchai@example.com',
        uncategorized_text: 'Used the plan.',
      },
      charge: { dispute_status: 'under_review', disputed: true },
    });
    const updated = await eventsOf('charge.dispute.updated', d.id);
    expect(updated.map((e: Row) => (e.data as { object: Row }).object.status).sort()).toEqual([
      'needs_response',
      'under_review',
    ]);
    const toReview = updated.find((e: Row) => (e.data as { object: Row }).object.status === 'under_review');
    expect(toReview.data.previous_attributes).toMatchObject({ status: 'needs_response' });

    const late = await post(`/disputes/${d.id}`, { evidence: { customer_name: 'Other' } });
    expect(late.status).toBe(409);
    expectErrorObject(late.body, 'E9505');
    const accept = await post(`/disputes/${d.id}/close`);
    expect(accept.status).toBe(409);
    expectErrorObject(accept.body, 'E9505');

    const won = await post(`/test_helpers/disputes/${d.id}/win`);
    expect(won.status).toBe(200);
    contract.assert('POST', `${DOC}/test_helpers/disputes/{id}/win`, won);
    expect(won.body).toMatchObject({
      status: 'won',
      reinstated: true,
      settled: true,
      charge: { dispute_status: 'won', disputed: true },
    });
    expect(won.body.closed_at).not.toBeNull();
    expect(await entries(d.number)).toEqual(
      canonical([
        [-20000, 'customer', 'dispute', 'dispute', 'dispute.opened'],
        [20000, 'disputes', 'dispute', 'dispute', 'dispute.opened'],
        [-20000, 'disputes', 'dispute', 'dispute_reversal', 'dispute.won'],
        [20000, 'customer', 'dispute', 'dispute_reversal', 'dispute.won'],
      ]),
    );
    expect((await balance(balanceId)).available).toBe(start);
    const closed = await eventsOf('charge.dispute.closed', d.id);
    expect(closed).toHaveLength(1);
    expect(closed[0].data.object).toMatchObject({ status: 'won', reinstated: true, settled: true });
    expect(closed[0].data.previous_attributes).toMatchObject({ status: 'under_review' });

    for (const path of [`/disputes/${d.id}/close`, `/test_helpers/disputes/${d.id}/lose`]) {
      const again = await post(path);
      expect(again.status).toBe(409);
      expectErrorObject(again.body, 'E9504');
    }
    const evidenceOnClosed = await post(`/disputes/${d.id}`, { evidence: { customer_name: 'x' } });
    expect(evidenceOnClosed.status).toBe(409);
    expectErrorObject(evidenceOnClosed.body, 'E9504');
  });

  it('is lost: the amount stays out (disputes -> provider_clearing) and the THB 500.00 fee is booked', async () => {
    const contract = await OpenApiContract.load(t);
    const start = (await balance(balanceId)).available as number;
    const feesBefore = ((await balanceOf('fees'))?.available as number | undefined) ?? 0;
    const d = (await open(await newCharge(30000))).body;
    const lost = await post(`/test_helpers/disputes/${d.id}/lose`);
    expect(lost.status).toBe(200);
    contract.assert('POST', `${DOC}/test_helpers/disputes/{id}/lose`, lost);
    expect(lost.body).toMatchObject({
      status: 'lost',
      reinstated: false,
      settled: true,
      charge: { dispute_status: 'lost' },
    });
    expect(await entries(d.number)).toEqual(
      canonical([
        [-30000, 'customer', 'dispute', 'dispute', 'dispute.opened'],
        [30000, 'disputes', 'dispute', 'dispute', 'dispute.opened'],
        [-30000, 'disputes', 'dispute', 'dispute_loss', 'dispute.lost'],
        [30000, 'provider_clearing', 'dispute', 'dispute_loss', 'dispute.lost'],
        [-50000, 'customer', 'dispute_fee', 'dispute_fee', 'dispute.lost'],
        [50000, 'fees', 'dispute_fee', 'dispute_fee', 'dispute.lost'],
      ]),
    );
    expect((await balance(balanceId)).available).toBe(start - 30000 - 50000);
    expect((await balanceOf('fees'))?.available).toBe(feesBefore + 50000);
    expect(await eventsOf('charge.dispute.closed', d.id)).toHaveLength(1);
  });

  it('is accepted with close (lost), and evidence after evidence_due_by is refused', async () => {
    const contract = await OpenApiContract.load(t);
    const d = (await open(await newCharge(1000))).body;
    t.clock.advance(7 * DAY + 1000);
    const late = await post(`/disputes/${d.id}`, { evidence: { customer_name: 'Late' }, submit: true });
    expect(late.status).toBe(422);
    expectErrorObject(late.body, 'E9503');
    const closed = await post(`/disputes/${d.id}/close`);
    expect(closed.status).toBe(200);
    contract.assert('POST', `${DOC}/disputes/{id}/close`, closed);
    expect(closed.body).toMatchObject({ status: 'lost', settled: true, reinstated: false });
    expect(await entries(d.number)).toEqual(
      canonical([
        [-1000, 'customer', 'dispute', 'dispute', 'dispute.opened'],
        [1000, 'disputes', 'dispute', 'dispute', 'dispute.opened'],
        [-1000, 'disputes', 'dispute', 'dispute_loss', 'dispute.lost'],
        [1000, 'provider_clearing', 'dispute', 'dispute_loss', 'dispute.lost'],
        [-50000, 'customer', 'dispute_fee', 'dispute_fee', 'dispute.lost'],
        [50000, 'fees', 'dispute_fee', 'dispute_fee', 'dispute.lost'],
      ]),
    );
  });

  it('refuses a second dispute on a charge, a dispute on a refunded charge, and bounds a partial one by what is left', async () => {
    const chargeId = await newCharge(5000);
    const first = await open(chargeId, { amount: 2000 });
    expect(first.status).toBe(200);
    expect(first.body.amount).toBe(2000);
    const second = await open(chargeId, { amount: 1000 });
    expect(second.status).toBe(409);
    expectErrorObject(second.body, 'E9501');
    expect((await post(`/test_helpers/disputes/${first.body.id}/win`)).status).toBe(200);
    const afterClose = await open(chargeId);
    expect(afterClose.status).toBe(409);
    expectErrorObject(afterClose.body, 'E9501');

    const refunded = await open(await newCharge(3000, { amount_refunded: 3000, refunded: true }));
    expect(refunded.status).toBe(422);
    expectErrorObject(refunded.body, 'E9506');
    const partlyRefunded = await newCharge(3000, { amount_refunded: 1000 });
    const tooMuch = await open(partlyRefunded, { amount: 2500 });
    expect(tooMuch.status).toBe(422);
    expectErrorObject(tooMuch.body, 'E9506');
    const rest = await open(partlyRefunded);
    expect(rest.status).toBe(200);
    expect(rest.body.amount).toBe(2000);
  });

  it('an inquiry moves no money: evidence, then warning_closed; it cannot be lost', async () => {
    const before = (await balance(balanceId)).available;
    const d = (await open(await newCharge(4000), { inquiry: true })).body;
    expect(d.status).toBe('warning_needs_response');
    expect((await balance(balanceId)).available).toBe(before);
    const ev = await post(`/disputes/${d.id}`, { evidence: { product_description: 'x' }, submit: true });
    expect(ev.body.status).toBe('warning_needs_response');
    const lose = await post(`/test_helpers/disputes/${d.id}/lose`);
    expect(lose.status).toBe(409);
    expectErrorObject(lose.body, 'E9507');
    const closed = await post(`/disputes/${d.id}/close`);
    expect(closed.body).toMatchObject({ status: 'warning_closed', settled: true, reinstated: false });
    expect(await entries(d.number)).toEqual([]);
    expect((await balance(balanceId)).available).toBe(before);
  });

  it('decides once under concurrent win and lose: one closes it, the other gets E9504, one final posting', async () => {
    const d = (await open(await newCharge(6000))).body;
    const [a, b] = await Promise.all([
      post(`/test_helpers/disputes/${d.id}/win`),
      post(`/test_helpers/disputes/${d.id}/lose`),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expectErrorObject(loser.body, 'E9504');
    const final = (await t.http.get(tenant.path(`/disputes/${d.id}`)).set(tenant.as('test'))).body;
    expect(final.settled).toBe(true);
    const decided = (await entries(d.number)).filter((e) => !e.includes('dispute.opened'));
    expect(decided).toHaveLength(final.status === 'won' ? 2 : 4);
    expect(await eventsOf('charge.dispute.closed', d.id)).toHaveLength(1);
  });

  it('replays a close sent again with the same Idempotency-Key', async () => {
    const d = (await open(await newCharge(800))).body;
    const send = () =>
      t.http
        .post(tenant.path(`/disputes/${d.id}/close`))
        .set(tenant.as('test', { 'Idempotency-Key': `close-${d.id}` }))
        .send({});
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await eventsOf('charge.dispute.closed', d.id)).toHaveLength(1);
  });

  it('refuses bad evidence with E2000, unknown ids with E4004, and the helpers in live mode with E4040', async () => {
    const d = (await open(await newCharge(700))).body;
    for (const body of [
      { evidence: { customer_name: 5 } },
      { evidence: { receipt: 'not a file id!' } },
      { evidence: { unknown_field: 'x' } },
      { evidence: null },
      { submit: 'yes' },
      { evidence: { uncategorized_text: 'x'.repeat(20001) } },
    ]) {
      const res = await post(`/disputes/${d.id}`, body);
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E2000');
    }
    const unknown = await post('/disputes/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b/close');
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4004');
    const live = await t.http.post(tenant.path(`/test_helpers/disputes/${d.id}/win`)).set(tenant.as('live'));
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4040');
  });
});
