import { HoldReleaseJob } from '../../../src/modules/ledger/index.js';
import { PayoutSchedulesJob } from '../../../src/modules/payouts/index.js';
import { card, CARDS, confirm, expectLedgerInvariants, paymentIntentCheckout } from '../../factories/checkout.js';
import { connectedAccount, ownAccount, setSandboxFailing } from '../../factories/payouts.js';
import {
  createTenant,
  expectErrorObject as expectErrorBody,
  startApp,
  type Tenant,
  type TestApp,
} from '../../support/harness.js';

const HOUR = 3600 * 1000;

function expectErrorObject(res: { status: number; body: unknown }, status: number, code: string) {
  expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({ status, code });
  expectErrorBody(res.body, code);
}

interface Entry {
  account: string;
  amount: number;
  state: string;
  event_type: string;
  transfer_id: string | null;
  transfer: { id: string; object: string } | null;
  journal_id: string;
}

describe('payouts', () => {
  let t: TestApp;
  let tenant: Tenant;
  let own: string;
  let bank: string;

  const as = () => tenant.as('test');
  const get = (path: string) => t.http.get(tenant.path(path)).set(as());
  const post = (path: string, body: object = {}, headers: Record<string, string> = {}) =>
    t.http
      .post(tenant.path(path))
      .set({ ...as(), ...headers })
      .send(body);

  /** A bookbank destination of the own account (the sandbox creates its recipient). */
  const bankAccount = async (accountNumber: string) => {
    const res = await post('/bank_accounts', {
      account: own,
      type: 'bookbank',
      account_holder_name: 'Somchai Jaidee',
      target: 'THB',
      extra_fields: { bankCode: '004', accountNumber },
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    return res.body.id as string;
  };

  const merchantBalance = async () => {
    const res = await get('/balances?filter[account]=merchant&filter[currency]=THB');
    return res.body.data[0] as { id: string; available: number; hold: number };
  };

  /** Pays a 1,250.00 THB checkout by card and releases its hold with the clock: available funds. */
  const fund = async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant);
    expect((await confirm(t, tenant, checkout, card(CARDS.visa))).status).toBe(200);
    t.clock.advance(72 * HOUR);
    await t.app
      .get(HoldReleaseJob)
      .releaseDue(t.clock.now(), { applicationIds: [tenant.applicationId], modes: ['test'] });
  };

  const entriesOf = async (payoutId: string): Promise<Entry[]> =>
    (await get(`/balance_transactions?limit=100&filter[source]=payout`)).body.data.filter(
      (e: Entry) => e.transfer_id === payoutId,
    );
  const eventTypes = async (payoutId: string) =>
    (await get('/events?limit=100')).body.data
      .filter((e: { data: { object: { id: string } } }) => e.data.object.id === payoutId)
      .map((e: { type: string }) => e.type)
      .sort();

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    own = await ownAccount(t, tenant);
    bank = await bankAccount('1234567890');
    await fund();
  });
  afterEach(() => expectLedgerInvariants(t, [tenant.applicationId]));
  afterAll(() => t.close());

  it('a payout goes pending -> in_transit -> paid: available -> payouts_in_transit -> out, each entry carrying the payout', async () => {
    const before = await merchantBalance();
    const res = await post(
      '/payouts',
      { amount: 50000, currency: 'THB', destination: bank, description: 'November', metadata: { batch: '11' } },
      { 'Idempotency-Key': 'payout-paid-1' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'payout',
      status: 'in_transit',
      amount: 50000,
      currency: 'THB',
      account: own,
      destination: bank,
      provider: 'sandbox',
      automatic: false,
      metadata: { batch: '11' },
    });
    expect(res.body.provider_reference).toMatch(/^trf_sbx_/);
    const replay = await post(
      '/payouts',
      { amount: 50000, currency: 'THB', destination: bank, description: 'November', metadata: { batch: '11' } },
      { 'Idempotency-Key': 'payout-paid-1' },
    );
    expect(replay.body.id).toBe(res.body.id);
    expect((await merchantBalance()).available).toBe(before.available - 50000);

    const paid = await post(`/test_helpers/payouts/${res.body.id}/paid`);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid' });
    expect(paid.body.paid_at).not.toBeNull();
    expect((await get(`/payouts/${res.body.id}`)).body.status).toBe('paid');

    const entries = await entriesOf(res.body.id);
    const summary = entries.map((e) => [e.event_type, e.account, e.amount, e.state]).sort();
    expect(summary).toEqual(
      [
        ['payout.created', 'merchant', -50000, 'available'],
        ['payout.created', 'payouts_in_transit', 50000, 'available'],
        ['payout.paid', 'payouts_in_transit', -50000, 'available'],
        ['payout.paid', 'provider_clearing', 50000, 'available'],
      ].sort(),
    );
    expect(entries.map((e) => e.transfer)).toEqual(
      entries.map(() => expect.objectContaining({ id: res.body.id, object: 'payout' })),
    );
    expect(await eventTypes(res.body.id)).toEqual(['payout.created', 'payout.paid', 'payout.updated']);
    expectErrorObject(await post(`/payouts/${res.body.id}/cancel`), 409, 'E6305');
  });

  it('a destination whose account number ends in 0002 fails (account_closed) and the amount returns to available', async () => {
    const closed = await bankAccount('1234560002');
    const before = await merchantBalance();
    const res = await post('/payouts', { amount: 20000, currency: 'THB', destination: closed });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', failure_code: 'account_closed' });
    expect((await merchantBalance()).available).toBe(before.available);
    const summary = (await entriesOf(res.body.id)).map((e) => [e.event_type, e.account, e.amount]).sort();
    expect(summary).toEqual(
      [
        ['payout.created', 'merchant', -20000],
        ['payout.created', 'payouts_in_transit', 20000],
        ['payout.failed', 'merchant', 20000],
        ['payout.failed', 'payouts_in_transit', -20000],
      ].sort(),
    );
    expect(await eventTypes(res.body.id)).toEqual(['payout.created', 'payout.failed']);
  });

  it('a payout in transit that the bank fails is reversed to available', async () => {
    const before = await merchantBalance();
    const res = await post('/payouts', { amount: 10000, currency: 'THB', destination: bank });
    expect(res.body.status).toBe('in_transit');
    const failed = await post(`/test_helpers/payouts/${res.body.id}/fail`);
    expect(failed.body).toMatchObject({ status: 'failed', failure_code: 'could_not_process' });
    expect((await merchantBalance()).available).toBe(before.available);
    expect(await eventTypes(res.body.id)).toEqual(['payout.created', 'payout.failed', 'payout.updated']);
  });

  it('a payout the provider could not take stays pending and can be canceled: the amount returns', async () => {
    const before = await merchantBalance();
    await setSandboxFailing(t, tenant, true);
    const res = await post('/payouts', { amount: 15000, currency: 'THB', destination: bank });
    await setSandboxFailing(t, tenant, false);
    expect(res.body).toMatchObject({ status: 'pending', provider_reference: null });
    expect((await merchantBalance()).available).toBe(before.available - 15000);
    const canceled = await post(`/payouts/${res.body.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled' });
    expect((await merchantBalance()).available).toBe(before.available);
    expectErrorObject(await post(`/payouts/${res.body.id}/cancel`), 409, 'E6305');
    expect(await eventTypes(res.body.id)).toEqual(['payout.canceled', 'payout.created']);
    const list = await get(`/payouts?filter[status]=canceled&filter[destination]=${bank}`);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([res.body.id]);
  });

  it('a destination ending in 0006 has its transfer held by the sandbox bank: the payout stays pending, and canceling it cancels the transfer', async () => {
    const held = await bankAccount('1234560006');
    const before = await merchantBalance();
    const res = await post('/payouts', { amount: 12000, currency: 'THB', destination: held });
    expect(res.body).toMatchObject({ status: 'pending', provider_reference: expect.stringMatching(/^trf_sbx_/) });
    expectErrorObject(await post(`/test_helpers/payouts/${res.body.id}/paid`), 409, 'E6305');
    const canceled = await post(`/payouts/${res.body.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', canceled_at: expect.any(String) });
    expect((await merchantBalance()).available).toBe(before.available);
    const summary = (await entriesOf(res.body.id)).map((e) => [e.event_type, e.account, e.amount]).sort();
    expect(summary).toEqual(
      [
        ['payout.created', 'merchant', -12000],
        ['payout.created', 'payouts_in_transit', 12000],
        ['payout.canceled', 'merchant', 12000],
        ['payout.canceled', 'payouts_in_transit', -12000],
      ].sort(),
    );
    expect(await eventTypes(res.body.id)).toEqual(['payout.canceled', 'payout.created']);
  });

  it('refuses more than the available balance (E6301), a foreign destination (E6302) and an unverified account (E1304)', async () => {
    const { available } = await merchantBalance();
    expectErrorObject(
      await post('/payouts', { amount: available + 1, currency: 'THB', destination: bank }),
      400,
      'E6301',
    );
    expect((await merchantBalance()).available).toBe(available);
    const pending = await connectedAccount(t, tenant, 'pending');
    expectErrorObject(
      await post('/payouts', { amount: 100, currency: 'THB', destination: bank, account: pending }),
      403,
      'E1304',
    );
    const verified = await connectedAccount(t, tenant, 'verified');
    expectErrorObject(
      await post('/payouts', { amount: 100, currency: 'THB', destination: bank, account: verified }),
      400,
      'E6302',
    );
    expectErrorObject(await post('/payouts', { amount: 100, currency: 'USD', destination: bank }), 400, 'E6304');
  });

  it('concurrent payouts never overdraw the available balance', async () => {
    const { available } = await merchantBalance();
    const half = Math.floor(available / 2) + 1;
    const results = await Promise.all(
      [1, 2].map(() => post('/payouts', { amount: half, currency: 'THB', destination: bank })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await merchantBalance()).available).toBe(available - half);
  });

  it('a daily schedule pays out once across two concurrent job runs', async () => {
    await fund();
    const set = await post('/payout_schedules', { interval: 'daily', destination: bank, minimum_amount: 1000 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ interval: 'daily', account: own, destination: bank, currency: 'THB' });
    expect((await get(`/payout_schedules/${own}`)).body.interval).toBe('daily');
    const { available } = await merchantBalance();
    expect(available).toBeGreaterThan(1000);
    const jobs = t.app.get(PayoutSchedulesJob);
    const now = t.clock.now();
    const scope = { applicationIds: [tenant.applicationId], modes: ['test' as const] };
    const runs = await Promise.all([jobs.run(now, scope), jobs.run(now, scope)]);
    expect(runs[0] + runs[1]).toBe(1);
    expect(await jobs.run(now, scope)).toBe(0);
    const automatic = (await get('/payouts?filter[automatic]=true')).body.data;
    expect(automatic).toHaveLength(1);
    expect(automatic[0]).toMatchObject({ amount: available, status: 'in_transit', automatic: true });
    expect((await merchantBalance()).available).toBe(0);
    // The next day has nothing above the minimum: no payout.
    t.clock.advance(24 * HOUR);
    expect(await jobs.run(t.clock.now(), scope)).toBe(0);
    expect((await post('/payout_schedules', { interval: 'manual' })).body.interval).toBe('manual');
    await fund();
    expect(await jobs.run(t.clock.now(), scope)).toBe(0);
  });
});
