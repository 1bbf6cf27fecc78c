import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { BalancesService, PostingService, type Posting } from '../../../src/modules/ledger/index.js';
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
} from './list-checks.js';

const LIST = '/balance_transactions';
const DOC = '/api/v1/{app}/platform/wallet/balance_transactions';
const MINUTE = 60_000;

describe('GET /balance_transactions and /balances', () => {
  let t: TestApp;
  let tenant: Tenant;
  let post: (p: Omit<Posting, 'application_id'>) => Promise<void>;
  let platform: string;
  let alice: { customer: string; balance: string };
  let bob: { customer: string; balance: string };
  let usd: { platform: string; alice: string };
  let all: Row[];
  let n = 0;

  /** Customer pays `amount` into their balance; the application's balance is the other side. */
  const pay = async (who: { balance: string }, amount: number, state: 'available' | 'hold' = 'available') => {
    n += 1;
    t.clock.advance(MINUTE);
    await post({
      description: `Payment for order ${1000 + n}`,
      event_type: 'charge.succeeded',
      event_id: `ord_${1000 + n}`,
      entries: [
        { balance_id: who.balance, amount, currency: 'THB', state, type: 'charge', source: 'payment' },
        {
          balance_id: platform,
          amount: -amount,
          currency: 'THB',
          state: 'available',
          type: 'charge',
          source: 'funding',
        },
      ],
    });
  };

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    const ctx = t.app.get(RequestContext);
    const posting = t.app.get(PostingService);
    const balances = t.app.get(BalancesService);
    const app = { application_id: tenant.applicationId };
    post = (p) => ctx.runInMode('test', () => posting.post({ ...p, ...app }).then(() => undefined));
    const balance = (account: string, currency: string, customer_id?: string) =>
      ctx.runInMode('test', () => balances.getOrCreate({ ...app, account, currency, customer_id })).then((b) => b.id);
    const customer = async (name: string) =>
      (await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name })).body.id as string;
    platform = await balance('application', 'THB');
    const aliceId = await customer('Alice');
    const bobId = await customer('Bob');
    alice = { customer: aliceId, balance: await balance('customer', 'THB', aliceId) };
    bob = { customer: bobId, balance: await balance('customer', 'THB', bobId) };
    usd = { platform: await balance('application', 'USD'), alice: await balance('customer', 'USD', aliceId) };
    for (const [i, amount] of [500, 1200, 300, 4500, 800, 2500, 700, 999].entries()) {
      await pay(i % 2 ? bob : alice, amount, i % 3 === 2 ? 'hold' : 'available');
    }
    t.clock.advance(MINUTE);
    await post({
      description: 'Refund of order 1003',
      event_type: 'refund.created',
      event_id: 'ref_1',
      entries: [
        { balance_id: usd.alice, amount: -250, currency: 'USD', state: 'available', type: 'refund', source: 'refund' },
        {
          balance_id: usd.platform,
          amount: 250,
          currency: 'USD',
          state: 'available',
          type: 'refund',
          source: 'refund',
        },
      ],
    });
    all = (await getList(t, tenant, LIST, { limit: '100' })).data;
  });
  afterAll(() => t.close());

  it('answers the list envelope with entries that embed their balance, its customer and the transfer', async () => {
    const contract = await OpenApiContract.load(t);
    const res = await t.http.get(tenant.path(LIST)).set(tenant.as('test'));
    expect(res.status).toBe(200);
    contract.assert('GET', DOC, res);
    expect(res.body).toEqual({
      object: 'list',
      data: expect.any(Array),
      page: 1,
      limit: 10,
      total_items: 18,
      total_pages: 2,
    });
    expect(res.body.data).toHaveLength(10);
    const aliceEntry = all.find((r) => r.balance_id === alice.balance)!;
    expect(aliceEntry).toMatchObject({
      object: 'balance_transaction',
      livemode: false,
      currency: 'THB',
      account: 'customer',
      scaling_factor: 100,
      net: aliceEntry.amount,
      gross_amount: aliceEntry.amount,
      transfer: null,
      balance: {
        id: alice.balance,
        object: 'balance',
        customer_id: alice.customer,
        customer: { id: alice.customer, name: 'Alice' },
      },
    });
    expect(all.find((r) => r.balance_id === platform)!.balance).toMatchObject({ customer_id: null, customer: null });
    const cursor = await t.http.get(tenant.path(LIST)).query({ 'use-cursor': 'true' }).set(tenant.as('test'));
    contract.assert('GET', DOC, cursor);
    expect(cursor.body).toMatchObject({ page: 1, limit: 10, total_items: 18, total_pages: 2, has_more: true });
  });

  it('retrieves one entry by id, and 404s for unknown ids, other applications and the other mode', async () => {
    const contract = await OpenApiContract.load(t);
    const one = await t.http.get(tenant.path(`${LIST}/${all[3].id}`)).set(tenant.as('test'));
    expect(one.status).toBe(200);
    contract.assert('GET', `${DOC}/{id}`, one);
    expect(one.body).toEqual(all[3]);
    for (const [who, id, mode] of [
      [tenant, '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', 'test'],
      [tenant, 'nope', 'test'],
      [tenant, all[3].id, 'live'],
      [await createTenant(t), all[3].id, 'test'],
    ] as const) {
      const res = await t.http.get(who.path(`${LIST}/${id}`)).set(who.as(mode));
      expect(res.status).toBe(404);
      expectErrorObject(res.body, 'E4004');
    }
  });

  it('sorts by created_at desc with id as tie-breaker by default, and pages with page/limit', async () => {
    expect(all.map((r) => r.id)).toEqual([...all].sort(byCreatedDesc).map((r) => r.id));
    const page2 = await getList(t, tenant, LIST, { page: '2', limit: '5' });
    expect(page2.data.map((r) => r.id)).toEqual(all.slice(5, 10).map((r) => r.id));
    expect(page2).toMatchObject({ page: 2, limit: 5, total_items: 18, total_pages: 4 });
    const beyond = await getList(t, tenant, LIST, { page: '9', limit: '5' });
    expect(beyond.data).toEqual([]);
  });

  it('sorts by amount and created_at in both directions, ties broken by id', async () => {
    const amounts = (await getList(t, tenant, LIST, { sort: 'amount:asc', limit: '100' })).data;
    const expected = [...all].sort((a, b) =>
      a.amount !== b.amount ? (a.amount as number) - (b.amount as number) : a.id < b.id ? -1 : 1,
    );
    expect(amounts.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(await ids(t, tenant, LIST, { sort: 'amount:desc' })).toEqual(expected.reverse().map((r) => r.id));
    expect(await ids(t, tenant, LIST, { sort: 'created_at:asc' })).toEqual([...all].reverse().map((r) => r.id));
  });

  it('walks forwards and backwards with cursors while new entries are posted between pages', async () => {
    const before = (await getList(t, tenant, LIST, { limit: '100' })).data.map((r) => r.id);
    const walk = await walkForwards(t, tenant, LIST, 4, () => pay(alice, 111));
    // Newer entries land before the cursor: the walk sees exactly the entries that existed when it began.
    expect(walk.ids).toEqual(before);
    expect(walk.hasMore.slice(0, -1).every(Boolean)).toBe(true);
    expect(walk.hasMore[walk.hasMore.length - 1]).toBe(false);

    const now = (await getList(t, tenant, LIST, { limit: '100' })).data.map((r) => r.id);
    const anchor = now[12];
    const back = await getList(t, tenant, LIST, { 'use-cursor': 'true', limit: '4', ending_before: anchor });
    expect(back.data.map((r) => r.id)).toEqual(now.slice(8, 12));
    expect(back.has_more).toBe(true);
    await pay(bob, 222);
    const back2 = await getList(t, tenant, LIST, {
      'use-cursor': 'true',
      limit: '4',
      ending_before: back.data[0].id,
    });
    expect(back2.data.map((r) => r.id)).toEqual(now.slice(4, 8));
    const first = await getList(t, tenant, LIST, { 'use-cursor': 'true', limit: '4', ending_before: now[2] });
    // Walking back to the top also shows the entries posted meanwhile.
    const newest = (await getList(t, tenant, LIST, { limit: '100' })).data.map((r) => r.id);
    expect(first.data.map((r) => r.id)).toEqual(newest.slice(newest.indexOf(now[2]) - 4, newest.indexOf(now[2])));
    expect(newest.indexOf(now[2])).toBe(4);
    expect(first.has_more).toBe(false);
    const top = await getList(t, tenant, LIST, { 'use-cursor': 'true', limit: '4', ending_before: newest[1] });
    expect(top.data.map((r) => r.id)).toEqual([newest[0]]);
    expect(top.has_more).toBe(false);
    const after = await getList(t, tenant, LIST, {
      'use-cursor': 'true',
      limit: '3',
      sort: 'amount:desc',
      starting_after: newest[5],
    });
    const byAmount = await ids(t, tenant, LIST, { sort: 'amount:desc' });
    expect(after.data.map((r) => r.id)).toEqual(byAmount.slice(byAmount.indexOf(newest[5]) + 1).slice(0, 3));
  });

  it('filters on every allowed field with every operator', async () => {
    const rows = (await getList(t, tenant, LIST, { limit: '100' })).data;
    const pick = (pred: (r: Row) => boolean) => rows.filter(pred).map((r) => r.id);
    const mid = rows[Math.floor(rows.length / 2)];
    const num = (r: Row, f: string) => r[f] as number;
    const cases: Array<[Record<string, string>, (r: Row) => boolean]> = [
      [{ 'filter[amount]': '1200' }, (r) => r.amount === 1200],
      [{ 'filter[amount][eq]': '-1200' }, (r) => r.amount === -1200],
      [{ 'filter[amount][ne]': '1200' }, (r) => r.amount !== 1200],
      [{ 'filter[amount][gt]': '800' }, (r) => num(r, 'amount') > 800],
      [{ 'filter[amount][gte]': '800' }, (r) => num(r, 'amount') >= 800],
      [{ 'filter[amount][lt]': '-800' }, (r) => num(r, 'amount') < -800],
      [{ 'filter[amount][lte]': '-800' }, (r) => num(r, 'amount') <= -800],
      [{ 'filter[amount][in]': '500,999,-250' }, (r) => [500, 999, -250].includes(num(r, 'amount'))],
      [
        { 'filter[amount][gte]': '300', 'filter[amount][lt]': '1200' },
        (r) => num(r, 'amount') >= 300 && num(r, 'amount') < 1200,
      ],
      [{ 'filter[balance_id]': alice.balance }, (r) => r.balance_id === alice.balance],
      [
        { 'filter[balance_id][in]': `${bob.balance},${usd.alice}` },
        (r) => [bob.balance, usd.alice].includes(r.balance_id as string),
      ],
      [{ 'filter[balance_id][ne]': platform }, (r) => r.balance_id !== platform],
      [{ 'filter[created_at][gte]': mid.created_at }, (r) => r.created_at >= mid.created_at],
      [{ 'filter[created_at][gt]': mid.created_at }, (r) => r.created_at > mid.created_at],
      [{ 'filter[created_at][lt]': mid.created_at }, (r) => r.created_at < mid.created_at],
      [{ 'filter[created_at][lte]': mid.created_at }, (r) => r.created_at <= mid.created_at],
      [{ 'filter[created_at]': mid.created_at }, (r) => r.created_at === mid.created_at],
      [
        { 'filter[updated_at][gte]': mid.updated_at as string },
        (r) => (r.updated_at as string) >= (mid.updated_at as string),
      ],
      [{ 'filter[currency]': 'USD' }, (r) => r.currency === 'USD'],
      [{ 'filter[currency][ne]': 'USD' }, (r) => r.currency !== 'USD'],
      [{ 'filter[id]': mid.id }, (r) => r.id === mid.id],
      [{ 'filter[id][in]': `${rows[0].id},${rows[4].id}` }, (r) => r.id === rows[0].id || r.id === rows[4].id],
      [{ 'filter[original_amount][gt]': '0' }, () => false],
      [{ 'filter[original_currency]': 'EUR' }, () => false],
      [{ 'filter[original_currency][ne]': 'EUR' }, () => true],
      [{ 'filter[record_only]': 'false' }, (r) => r.record_only === false],
      [{ 'filter[record_only][eq]': 'true' }, () => false],
      [{ 'filter[running_balance][lt]': '0' }, (r) => num(r, 'running_balance') < 0],
      [{ 'filter[running_balance][gte]': '1000' }, (r) => num(r, 'running_balance') >= 1000],
      [{ 'filter[source]': 'funding' }, (r) => r.source === 'funding'],
      [{ 'filter[source][in]': 'payment,refund' }, (r) => ['payment', 'refund'].includes(r.source as string)],
      [{ 'filter[state]': 'hold' }, (r) => r.state === 'hold'],
      [{ 'filter[state][ne]': 'hold' }, (r) => r.state !== 'hold'],
      [{ 'filter[type]': 'refund' }, (r) => r.type === 'refund'],
      [{ 'filter[type][in]': 'charge,refund' }, () => true],
    ];
    await expectFilters(t, tenant, LIST, rows, cases);
    const counted = await getList(t, tenant, LIST, { 'filter[state]': 'hold', limit: '1' });
    expect(counted.total_items).toBe(pick((r) => r.state === 'hold').length);
  });

  it('takes balance_id, customer_id, state and process_type as plain parameters', async () => {
    const rows = (await getList(t, tenant, LIST, { limit: '100' })).data;
    const pick = (pred: (r: Row) => boolean) => rows.filter(pred).map((r) => r.id);
    expect(await ids(t, tenant, LIST, { balance_id: bob.balance })).toEqual(pick((r) => r.balance_id === bob.balance));
    expect(await ids(t, tenant, LIST, { customer_id: alice.customer })).toEqual(
      pick((r) => r.balance_id === alice.balance || r.balance_id === usd.alice),
    );
    expect(await ids(t, tenant, LIST, { state: 'available' })).toEqual(pick((r) => r.state === 'available'));
    expect(await ids(t, tenant, LIST, { process_type: 'credit' })).toEqual(pick((r) => (r.amount as number) > 0));
    expect(await ids(t, tenant, LIST, { process_type: 'debit', customer_id: alice.customer })).toEqual(
      pick((r) => (r.amount as number) < 0 && (r.balance as { customer_id: string }).customer_id === alice.customer),
    );
    await expectBadParameter(t, tenant, LIST, { process_type: 'sideways' }, 'process_type');
    await expectBadParameter(t, tenant, LIST, { state: 'pending' }, 'state');
    await expectBadParameter(t, tenant, LIST, { customer_id: 'alice' }, 'customer_id');
  });

  it('searches descriptions, references and ids with q, case-insensitively', async () => {
    const rows = (await getList(t, tenant, LIST, { limit: '100' })).data;
    const pick = (pred: (r: Row) => boolean) => rows.filter(pred).map((r) => r.id);
    expect(await ids(t, tenant, LIST, { q: 'REFUND' })).toEqual(pick((r) => r.event_type === 'refund.created'));
    expect(await ids(t, tenant, LIST, { q: 'order 1003' })).toEqual(
      pick((r) => /order 1003/.test(r.description as string)),
    );
    expect(await ids(t, tenant, LIST, { q: 'ord_1002' })).toEqual(pick((r) => r.event_id === 'ord_1002'));
    // Search as you type: the last word may be a word's beginning, the others are whole words.
    expect(await ids(t, tenant, LIST, { q: 'Order 100' })).toEqual(
      pick((r) => /order 100/.test(r.description as string)),
    );
    expect(await ids(t, tenant, LIST, { q: 'orde 1003' })).toEqual([]);
    expect(await ids(t, tenant, LIST, { q: rows[2].id })).toEqual([rows[2].id]);
    expect(await ids(t, tenant, LIST, { q: rows[2].journal_id as string })).toEqual(
      pick((r) => r.journal_id === rows[2].journal_id),
    );
    expect(await ids(t, tenant, LIST, { q: 'nothing-like-this' })).toEqual([]);
    const counted = await getList(t, tenant, LIST, { q: 'order', limit: '2' });
    expect(counted.total_items).toBe(pick((r) => /order/i.test(r.description as string)).length);
  });

  it('refuses every kind of bad parameter with a 400 naming it', async () => {
    for (const [query, param] of badParameters()) await expectBadParameter(t, tenant, LIST, query, param);
    await expectBadParameter(t, tenant, LIST, { sort: 'description:asc' }, 'sort');
    await expectBadParameter(t, tenant, LIST, { 'filter[state]': 'pending' }, 'filter[state]');
    await expectBadParameter(t, tenant, LIST, { 'filter[record_only][gt]': 'true' }, 'filter[record_only][gt]');
    // A cursor from another list (here: a balance id) is not a record of this list.
    await expectBadParameter(t, tenant, LIST, { 'use-cursor': 'true', starting_after: platform }, 'starting_after');
  });

  it('refuses SQL in any parameter with a 400 naming it, and the data is intact', async () => {
    const extra = { balance_id: "' OR 1=1 --", state: "available' --", 'filter[source]': "x'); DROP TABLE y; --" };
    for (const [query, param] of sqlInjections(extra)) await expectBadParameter(t, tenant, LIST, query, param);
    expect((await getList(t, tenant, LIST, { limit: '1' })).total_items).toBeGreaterThan(18);
  });

  it('lists and retrieves balances with their customer', async () => {
    const list = await getList(t, tenant, '/balances', { limit: '100' });
    expect(list.total_items).toBe(5);
    const a = list.data.find((b) => b.id === alice.balance)!;
    expect(a).toMatchObject({
      object: 'balance',
      account: 'customer',
      currency: 'THB',
      customer: { id: alice.customer },
    });
    const entries = (await getList(t, tenant, LIST, { balance_id: alice.balance, limit: '100' })).data;
    const sum = (state: string) =>
      entries.filter((e) => e.state === state).reduce((s, e) => s + (e.amount as number), 0);
    expect(a.available).toBe(sum('available'));
    expect(a.hold).toBe(sum('hold'));
    const one = await t.http.get(tenant.path(`/balances/${platform}`)).set(tenant.as('test'));
    expect(one.status).toBe(200);
    (await OpenApiContract.load(t)).assert('GET', '/api/v1/{app}/platform/wallet/balances/{id}', one);
    expect(one.body).toMatchObject({ id: platform, customer: null, customer_id: null });
    expect(await ids(t, tenant, '/balances', { 'filter[customer_id]': bob.customer })).toEqual([bob.balance]);
    expect(await ids(t, tenant, '/balances', { 'filter[currency]': 'USD', sort: 'created_at:asc' })).toEqual([
      usd.platform,
      usd.alice,
    ]);
    const missing = await t.http.get(tenant.path(`/balances/${all[0].id}`)).set(tenant.as('test'));
    expect(missing.status).toBe(404);
    expectErrorObject(missing.body, 'E4004');
  });

  (process.env.WALLET_TEST_DATABASE === 'postgresql' ? it : it.skip)(
    "plans the service's queries without parallel workers on every pooled session (PostgreSQL)",
    async () => {
      const ctx = t.app.get(RequestContext);
      const db = t.app.get(ModeDb);
      // Several at once, so that more than one pooled connection answers.
      const settings = await Promise.all(
        Array.from({ length: 4 }, () =>
          ctx.runInMode('test', () =>
            db.manager.query('SELECT current_setting($1) AS v, pg_sleep(0.01)', ['max_parallel_workers_per_gather']),
          ),
        ),
      );
      expect(settings.map((rows: Array<{ v: string }>) => rows[0].v)).toEqual(['0', '0', '0', '0']);
    },
  );
});
