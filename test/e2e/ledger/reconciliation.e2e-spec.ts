import { newId } from '../../../src/common/ids.js';
import { ReconciliationRunsJob } from '../../../src/modules/reconciliation/index.js';
import { fakeOpn, fakeStripe, type FakeProvider } from '../../support/fake-provider.js';
import {
  injectFaults,
  serveOpnSettlement,
  seedSettledCharges,
  serveStripeSettlement,
  type Fault,
  type SettledLine,
} from '../../support/fake-settlements.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Issue 38, part 2: provider settlements (the fake Opn's transfers and transactions, the fake
 * Stripe's payouts and balance transactions, in their own shapes) matched with the ledger by
 * provider reference. Clean settlements give no mismatch at all; each injected fault is flagged as
 * its own kind, every one of them, and nothing else is.
 */
const OPN = { secret: 'skey_test_5fakeopnreconcile00', public: 'pkey_test_5fakeopnreconcile00' };
const STRIPE = {
  secret: 'sk_test_51FakeStripeReconcile0000',
  publishable: 'pk_test_51FakeStripeReconcile0000',
  webhook: 'whsec_fakeStripeReconcileSecret000',
};
/** 10,000 in `npm run bench:reconciliation` (docs/BENCHMARKS.md); fewer here, where every second of CI counts. */
const CLEAN_ROWS = Number(process.env.RECONCILIATION_ROWS ?? 1_000);
const FAULTS: Fault[] = [
  'missing_in_ledger',
  'missing_at_provider',
  'amount_mismatch',
  'fee_mismatch',
  'duplicate',
  'missing_in_ledger',
  'missing_at_provider',
  'amount_mismatch',
  'fee_mismatch',
  'duplicate',
];

describe('settlement reconciliation (fake Opn and Stripe on loopback)', () => {
  let opn: FakeProvider;
  let stripe: FakeProvider;
  let t: TestApp;
  let job: ReconciliationRunsJob;
  let n = 0;

  beforeAll(async () => {
    opn = await fakeOpn(OPN.secret).start();
    stripe = await fakeStripe(STRIPE.secret).start();
    t = await startApp({
      rateLimit: false,
      env: {
        OPN_SECRET_KEY_TEST: OPN.secret,
        OPN_PUBLIC_KEY_TEST: OPN.public,
        OPN_BASE_URL: opn.baseUrl,
        STRIPE_SECRET_KEY_TEST: STRIPE.secret,
        STRIPE_PUBLISHABLE_KEY_TEST: STRIPE.publishable,
        STRIPE_WEBHOOK_SECRET_TEST: STRIPE.webhook,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
      },
    });
    job = t.app.get(ReconciliationRunsJob);
  });
  afterAll(async () => {
    await t?.close();
    await opn?.stop();
    await stripe?.stop();
  });

  /** A reference no other charge of this file has (Opn `chrg_test_…`, Stripe `pi_…`). */
  const referenceOf = (provider: 'opn' | 'stripe') =>
    `${provider === 'opn' ? 'chrg_test_e2e' : 'pi_3E2e'}${process.pid}x${(n += 1).toString(36).padStart(6, '0')}`;

  const seedLedger = (tenant: Tenant, provider: 'opn' | 'stripe', count: number) =>
    seedSettledCharges(t.app, tenant.applicationId, provider, count, () => referenceOf(provider));

  const refused = (res: { status: number; body: unknown }, status: number, code: string) => {
    expect(res.status).toBe(status);
    expectErrorObject(res.body, code);
  };
  const post = (tenant: Tenant, body: object) =>
    t.http.post(tenant.path('/reconciliation_runs')).set(tenant.as('test')).send(body);
  const get = async (tenant: Tenant, path: string) => {
    const res = await t.http.get(tenant.path(path)).set(tenant.as('test'));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  /** Asks for a run of the payout, lets the job run it, answers the finished run. */
  async function reconcile(tenant: Tenant, provider: string, payout: string) {
    const created = await post(tenant, { provider, payout });
    expect({ status: created.status, body: created.body }).toMatchObject({
      status: 200,
      body: { object: 'reconciliation_run', status: 'pending', provider, payout, trigger: 'on_demand' },
    });
    expect(await job.runPending({ applicationIds: [tenant.applicationId], modes: ['test'] })).toBe(1);
    return get(tenant, `/reconciliation_runs/${created.body.id}`);
  }

  /** Every item of a run that is not `matched`, as reference -> outcome (cursor pages of 100). */
  async function mismatches(tenant: Tenant, runId: string): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const outcome of [
      'missing_in_ledger',
      'missing_at_provider',
      'amount_mismatch',
      'fee_mismatch',
      'duplicate',
    ]) {
      let after = '';
      for (;;) {
        const page = await get(
          tenant,
          `/reconciliation_runs/${runId}/items?filter[outcome]=${outcome}&limit=100&use-cursor=true${after}`,
        );
        for (const item of page.data as Array<{ reference: string; outcome: string }>) {
          found.set(item.reference, item.outcome);
        }
        if (!page.has_more) break;
        after = `&starting_after=${page.data[page.data.length - 1].id}`;
      }
    }
    return found;
  }

  const mismatchEvents = async (tenant: Tenant, runId: string) =>
    (
      (await get(tenant, '/events?filter[type]=reconciliation.mismatch&limit=100')).data as Array<{
        data: { object: { id: string; outcomes: Record<string, number> } };
      }>
    ).filter((e) => e.data.object.id === runId);

  const serve = (provider: 'opn' | 'stripe', payout: string, lines: SettledLine[]) =>
    provider === 'opn'
      ? serveOpnSettlement(opn, payout, lines, {
          id: `trsf_test_prev${payout.slice(-6)}`,
          created: lines[0].created - 3600,
        })
      : serveStripeSettlement(stripe, payout, lines);

  describe.each(['stripe', 'opn'] as const)('%s', (provider) => {
    const payoutId = (tag: string) =>
      provider === 'opn' ? `trsf_test_${tag}${Date.now().toString(36)}` : `po_${tag}${Date.now().toString(36)}`;

    it(`finds no mismatch in a clean settlement of ${CLEAN_ROWS} charges`, async () => {
      const tenant = await createTenant(t);
      const lines = await seedLedger(tenant, provider, CLEAN_ROWS);
      const payout = payoutId('clean');
      serve(provider, payout, lines);
      const run = await reconcile(tenant, provider, payout);
      expect(run).toMatchObject({
        status: 'succeeded',
        line_count: provider === 'opn' ? 2 * CLEAN_ROWS : CLEAN_ROWS,
        item_count: CLEAN_ROWS,
        mismatch_count: 0,
        outcomes: {
          matched: CLEAN_ROWS,
          missing_in_ledger: 0,
          missing_at_provider: 0,
          amount_mismatch: 0,
          fee_mismatch: 0,
          duplicate: 0,
        },
      });
      expect((await mismatches(tenant, run.id)).size).toBe(0);
      expect(await mismatchEvents(tenant, run.id)).toHaveLength(0);
      const matched = await get(tenant, `/reconciliation_runs/${run.id}/items?filter[outcome]=matched&limit=1`);
      expect(matched).toMatchObject({
        total_items: CLEAN_ROWS,
        data: [{ object: 'reconciliation_item', outcome: 'matched' }],
      });
    });

    it('flags every injected fault as its kind, and nothing else', async () => {
      const tenant = await createTenant(t);
      const lines = await seedLedger(tenant, provider, 200);
      const { served, expected } = injectFaults(lines, FAULTS, () => referenceOf(provider));
      const payout = payoutId('faults');
      serve(provider, payout, served);
      const run = await reconcile(tenant, provider, payout);
      expect(run).toMatchObject({
        status: 'succeeded',
        item_count: 202,
        mismatch_count: 10,
        outcomes: {
          matched: 192,
          missing_in_ledger: 2,
          missing_at_provider: 2,
          amount_mismatch: 2,
          fee_mismatch: 2,
          duplicate: 2,
        },
      });
      expect(Object.fromEntries(await mismatches(tenant, run.id))).toEqual(Object.fromEntries(expected));

      const [fee] = (await get(tenant, `/reconciliation_runs/${run.id}/items?filter[outcome]=fee_mismatch&limit=1`))
        .data;
      expect(fee.provider_fee).toBe(fee.ledger_fee + 1);
      expect(fee.provider_amount).toBe(fee.ledger_amount);
      const [missing] = (
        await get(tenant, `/reconciliation_runs/${run.id}/items?filter[outcome]=missing_at_provider&limit=1`)
      ).data;
      expect(missing).toMatchObject({ provider_amount: null, provider_lines: 0, type: 'charge' });
      expect(missing.record).toEqual(expect.any(String));

      const events = await mismatchEvents(tenant, run.id);
      expect(events).toHaveLength(1);
      expect(events[0].data.object.outcomes).toMatchObject({ duplicate: 2, fee_mismatch: 2 });
      const metrics = (await t.http.get('/metrics')).text;
      expect(metrics).toMatch(
        new RegExp(`wallet_reconciliation_items_total\\{provider="${provider}",outcome="fee_mismatch"\\} ([0-9]+)`),
      );
    });
  });

  it('makes one scheduled run per new payout for an application that reconciles the provider, however often it looks', async () => {
    const tenant = await createTenant(t);
    const lines = await seedLedger(tenant, 'stripe', 5);
    const payout = `po_sched${Date.now().toString(36)}`;
    serveStripeSettlement(stripe, payout, lines);
    await reconcile(tenant, 'stripe', payout);
    const scope = { applicationIds: [tenant.applicationId], modes: ['test' as const] };
    expect(await job.scheduleNew(scope)).toBe(1);
    expect(await job.scheduleNew(scope)).toBe(0);
    expect(await job.runPending(scope)).toBe(1);
    const list = await get(tenant, '/reconciliation_runs?filter[trigger]=scheduled');
    expect(list).toMatchObject({ total_items: 1, data: [{ payout, status: 'succeeded', mismatch_count: 0 }] });
  });

  it('runs a run once when two replicas claim at the same time', async () => {
    const tenant = await createTenant(t);
    const lines = await seedLedger(tenant, 'stripe', 40);
    const payout = `po_replicas${Date.now().toString(36)}`;
    serveStripeSettlement(stripe, payout, lines);
    const created = await post(tenant, { provider: 'stripe', payout });
    const scope = { applicationIds: [tenant.applicationId], modes: ['test' as const] };
    const done = await Promise.all([job.runPending(scope), job.runPending(scope)]);
    expect(done[0] + done[1]).toBe(1);
    expect(await get(tenant, `/reconciliation_runs/${created.body.id}`)).toMatchObject({
      status: 'succeeded',
      item_count: 40,
      outcomes: { matched: 40 },
    });
    const items = await get(tenant, `/reconciliation_runs/${created.body.id}/items?limit=1`);
    expect(items.total_items).toBe(40);
  });

  it('reconciles the payouts created in an interval', async () => {
    const tenant = await createTenant(t);
    const lines = await seedLedger(tenant, 'stripe', 3);
    const payout = `po_interval${Date.now().toString(36)}`;
    serveStripeSettlement(stripe, payout, lines);
    t.clock.advance(2_000); // the payout is created a second after its last line
    const created = await post(tenant, {
      provider: 'stripe',
      interval_start: new Date((lines[0].created - 60) * 1000).toISOString(),
      interval_end: t.clock.now().toISOString(),
    });
    expect(created.status).toBe(200);
    expect(await job.runPending({ applicationIds: [tenant.applicationId], modes: ['test'] })).toBe(1);
    expect(await get(tenant, `/reconciliation_runs/${created.body.id}`)).toMatchObject({
      status: 'succeeded',
      payout: null,
      outcomes: { matched: 3 },
      mismatch_count: 0,
    });
    t.clock.reset();
  });

  it('shows a sandbox payout with a charge the ledger never booked, in test mode only', async () => {
    const tenant = await createTenant(t);
    const run = await reconcile(tenant, 'sandbox', 'po_sandbox_e2e');
    expect(run).toMatchObject({ status: 'succeeded', mismatch_count: 1, outcomes: { missing_in_ledger: 1 } });
    expect(await mismatchEvents(tenant, run.id)).toHaveLength(1);
    const live = await t.http
      .post(tenant.path('/reconciliation_runs'))
      .set(tenant.as('live'))
      .send({ provider: 'sandbox', payout: 'po_sandbox_e2e' });
    refused(live, 400, 'E7960');
  });

  it('refuses an unknown provider, both or neither of payout and interval, and an unknown run', async () => {
    const tenant = await createTenant(t);
    refused(await post(tenant, { provider: 'paypal', payout: 'po_1' }), 400, 'E7960');
    refused(await post(tenant, { provider: 'stripe' }), 400, 'E7961');
    refused(
      await post(tenant, {
        provider: 'stripe',
        payout: 'po_1',
        interval_start: '2026-01-01T00:00:00Z',
        interval_end: '2026-01-02T00:00:00Z',
      }),
      400,
      'E7961',
    );
    refused(
      await post(tenant, {
        provider: 'stripe',
        interval_start: '2026-01-02T00:00:00Z',
        interval_end: '2026-01-01T00:00:00Z',
      }),
      400,
      'E7961',
    );
    refused(await post(tenant, { provider: 'stripe', payout: 'po 1' }), 400, 'E2000');
    const missing = await t.http.get(tenant.path(`/reconciliation_runs/${newId()}`)).set(tenant.as('test'));
    refused(missing, 404, 'E4004');
    const items = await t.http.get(tenant.path(`/reconciliation_runs/${newId()}/items`)).set(tenant.as('test'));
    refused(items, 404, 'E4004');
  });
});
