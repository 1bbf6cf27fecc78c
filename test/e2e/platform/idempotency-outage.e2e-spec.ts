import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { LEASE_MS } from '../../../src/common/idempotency/idempotency.interceptor.js';
import { SandboxCollectionProvider } from '../../../src/modules/checkout/index.js';
import { HoldReleaseJob } from '../../../src/modules/ledger/index.js';
import { PayoutSchedulesJob } from '../../../src/modules/payouts/index.js';
import { RefundReconciliationJob } from '../../../src/modules/refunds/index.js';
import { UNANSWERED_AFTER_MS } from '../../../src/modules/refunds/refund-reconciliation.job.js';
import { CARDS, card, confirm, expectLedgerInvariants, paymentIntentCheckout } from '../../factories/checkout.js';
import { ownAccount } from '../../factories/payouts.js';
import { DatabaseProxy } from '../../support/database-proxy.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';

const WORKERS = 6;
const FINAL_WITHIN_MS = 30_000;
const HOUR = 3600 * 1000;

interface Keyed {
  key: string;
  path: string;
  body: Record<string, unknown>;
}

/**
 * A small version of issue 33's outage mix: workers send keyed refunds, payouts and customers, the
 * database is cut under them (every connection dropped, new ones refused) and restored, and every
 * key is sent again with its body until it gets a final answer.
 */
describe('keyed requests through a database outage', () => {
  let t: TestApp;
  let proxy: DatabaseProxy;
  let tenant: Tenant;

  beforeAll(async () => {
    proxy = await DatabaseProxy.inFrontOf(process.env.DATABASE_URL!);
    t = await startApp({ rateLimit: false, env: { DATABASE_URL: proxy.url } });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await proxy.open().catch(() => undefined);
    await t.close();
    await proxy.close();
  });

  const send = (req: Keyed) =>
    t.http
      .post(tenant.path(req.path))
      .set(tenant.as('test', { 'Idempotency-Key': req.key }))
      .send(req.body);
  const platformCount = async (sql: string, params: unknown[]) => {
    const rows: Array<{ n: number }> = await t.app.get<DataSource>(getDataSourceToken('platform')).query(sql, params);
    return Number(rows[0].n);
  };
  const modeCount = (table: string, where: string, params: unknown[]) =>
    platformCount(`SELECT count(*) AS n FROM wallet_test.${table} WHERE application_id = $1 AND ${where}`, [
      tenant.applicationId,
      ...params,
    ]);

  /** The work of one worker: a refund of its own card charge, a payout and a customer. */
  async function keyedWork(): Promise<Keyed[][]> {
    const own = await ownAccount(t, tenant);
    const bank = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(tenant.as('test'))
      .send({
        account: own,
        type: 'bookbank',
        account_holder_name: 'Somchai Jaidee',
        target: 'THB',
        extra_fields: { bankCode: '004', accountNumber: '1234567890' },
      });
    expect(bank.status).toBe(200);
    const charges: string[] = [];
    for (let i = 0; i < WORKERS; i++) {
      const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 10000 });
      const paid = await confirm(t, tenant, checkout, card(CARDS.visa));
      expect(paid.body.charge).toMatchObject({ status: 'succeeded' });
      charges.push(paid.body.charge.id);
    }
    t.clock.advance(72 * HOUR);
    await t.app
      .get(HoldReleaseJob)
      .releaseDue(t.clock.now(), { applicationIds: [tenant.applicationId], modes: ['test'] });
    return charges.map((charge, w) => [
      { key: `refund-${w}`, path: '/refunds', body: { charge_id: charge, amount: 1000 + w } },
      {
        key: `payout-${w}`,
        path: '/payouts',
        body: { amount: 2000 + w, currency: 'THB', destination: bank.body.id },
      },
      { key: `customer-${w}`, path: '/customers', body: { name: `outage-customer-${w}` } },
    ]);
  }

  it('answers every resend finally, leaves no key processing, one row per key, and nothing pending once reconciled', async () => {
    const work = await keyedWork();
    const all = work.flat();

    // The database is cut as soon as the first request is answered, with the others under way.
    let cut: Promise<void> | undefined;
    const firstAnswers = await Promise.all(
      work.map(async (requests) => {
        const statuses: number[] = [];
        for (const req of requests) {
          const res = await send(req);
          statuses.push(res.status);
          cut ??= proxy.close();
        }
        return statuses;
      }),
    );
    await cut;
    // Every answer during the outage is the work's own or a retryable 503, never an opaque 500.
    for (const status of firstAnswers.flat()) expect([200, 503]).toContain(status);

    await proxy.open();
    const restoredAt = Date.now();
    // Leases of attempts that lost the database lapse with the service clock, not the wall clock.
    t.clock.advance(LEASE_MS + 1000);

    const finals = new Map<string, { status: number; body: Record<string, unknown> }>();
    await Promise.all(
      all.map(async (req) => {
        for (;;) {
          const res = await send(req);
          const retryable = res.status === 503 || (res.status === 409 && res.body.code === 'E2007');
          if (!retryable) {
            finals.set(req.key, { status: res.status, body: res.body });
            return;
          }
          if (Date.now() - restoredAt > FINAL_WITHIN_MS) throw new Error(`${req.key}: still ${res.status}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
    );
    expect(Date.now() - restoredAt).toBeLessThan(FINAL_WITHIN_MS);
    for (const [key, final] of finals) expect({ key, status: final.status }).toEqual({ key, status: 200 });

    expect(
      await platformCount(
        `SELECT count(*) AS n FROM platform.idempotency_keys WHERE application_id = $1 AND status = 'processing'`,
        [tenant.applicationId],
      ),
    ).toBe(0);
    for (let w = 0; w < WORKERS; w++) {
      const refund = finals.get(`refund-${w}`)!.body;
      expect(await modeCount('refunds', 'charge_id = $2', [refund.charge_id])).toBe(1);
      expect(await modeCount('payouts', 'amount = $2', [2000 + w])).toBe(1);
      expect(await modeCount('customers', 'name = $2', [`outage-customer-${w}`])).toBe(1);
      expect(finals.get(`payout-${w}`)!.body.amount).toBe(2000 + w);
    }

    t.clock.advance(UNANSWERED_AFTER_MS + 1000);
    await t.app.get(RefundReconciliationJob).run({ applicationIds: [tenant.applicationId], modes: ['test'] });
    await t.app.get(PayoutSchedulesJob).run(t.clock.now(), { applicationIds: [tenant.applicationId], modes: ['test'] });
    expect(await modeCount('refunds', `status = 'pending'`, [])).toBe(0);
    expect(await modeCount('payouts', `status = 'pending'`, [])).toBe(0);
    await expectLedgerInvariants(t, [tenant.applicationId]);
  });

  it('finishes a refund whose request lost the database after the provider answered, when the client never resends', async () => {
    tenant = await createTenant(t);
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 10000 });
    const charge = (await confirm(t, tenant, checkout, card(CARDS.visa))).body.charge;
    const gate = t.app.get(SandboxCollectionProvider).hold(tenant.applicationId);
    const request: Keyed = { key: 'lost-refund', path: '/refunds', body: { charge_id: charge.id, amount: 2500 } };
    const first = send(request).then((res) => res);
    // The refund is committed pending, and its request waits for the provider's answer.
    const recordedBy = Date.now() + FINAL_WITHIN_MS;
    while ((await modeCount('refunds', 'charge_id = $2', [charge.id])) === 0) {
      if (Date.now() > recordedBy) throw new Error('the refund was never recorded');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await proxy.close();
    gate.release();
    expect((await first).status).toBe(503);
    await proxy.open();

    const job = t.app.get(RefundReconciliationJob);
    const scope = { applicationIds: [tenant.applicationId], modes: ['test' as const] };
    // Younger than a minute it may still be its request's own call: left alone.
    expect(await job.run(scope)).toEqual({ read: 0, applied: 0 });
    t.clock.advance(UNANSWERED_AFTER_MS + 1000);
    let run = await job.run(scope).catch(() => undefined);
    // The pool may still hand out a connection cut during the outage once.
    for (let i = 0; i < 5 && !run; i++) run = await job.run(scope).catch(() => undefined);
    expect(run).toEqual({ read: 1, applied: 1 });
    expect(await modeCount('refunds', `status = 'succeeded' AND charge_id = $2`, [charge.id])).toBe(1);

    // A late resend gets that refund, not a second one.
    t.clock.advance(LEASE_MS + 1000);
    const resent = await send(request);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ charge_id: charge.id, amount: 2500, status: 'succeeded' });
    expect(await modeCount('refunds', 'charge_id = $2', [charge.id])).toBe(1);
    await expectLedgerInvariants(t, [tenant.applicationId]);
  });
});
