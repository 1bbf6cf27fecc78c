import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { LEASE_MS } from '../../../src/common/idempotency/idempotency.guard.js';
import {
  CHARGE_UNANSWERED_AFTER_MS,
  ChargeReconciliationJob,
  SandboxCollectionProvider,
} from '../../../src/modules/checkout/index.js';
import { HoldReleaseJob } from '../../../src/modules/ledger/index.js';
import { PayoutSchedulesJob } from '../../../src/modules/payouts/index.js';
import { RefundReconciliationJob } from '../../../src/modules/refunds/index.js';
import { UNANSWERED_AFTER_MS } from '../../../src/modules/refunds/refund-reconciliation.job.js';
import {
  asSession,
  CARDS,
  card,
  cardToken,
  confirm,
  expectLedgerInvariants,
  paymentIntentCheckout,
  tokenize,
} from '../../factories/checkout.js';
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
  /** The credential when not the tenant's test key (a checkout's session for a card payment). */
  headers?: Record<string, string>;
}

/**
 * A small version of issue 33's outage mix: workers send keyed refunds, payouts, customers, card
 * payments (checkout confirmations) and test-mode disputes, the
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
      .set(
        req.headers
          ? { ...req.headers, 'Idempotency-Key': req.key }
          : tenant.as('test', { 'Idempotency-Key': req.key }),
      )
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

  /** A card charge, paid before the outage. */
  async function paidCharge(): Promise<string> {
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 10000 });
    const paid = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(paid.body.charge).toMatchObject({ status: 'succeeded' });
    return paid.body.charge.id;
  }

  /** A card payment to send keyed: a checkout and its vault token, made before the outage. */
  async function cardPayment(w: number): Promise<Keyed & { paymentIntent: string }> {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, { amount: 3000 + w });
    const token = await tokenize(t, tenant, checkout, card(CARDS.visa).card);
    expect(token.status).toBe(200);
    return {
      key: `card-${w}`,
      path: `/checkouts/${checkout.id}/confirm`,
      body: cardToken(token.body.id),
      headers: asSession(checkout.session),
      paymentIntent: pi.id,
    };
  }

  /** The work of one worker: a refund of its own card charge, a payout, a customer, a card payment and a dispute. */
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
    const disputed: string[] = [];
    const payments: Keyed[] = [];
    for (let w = 0; w < WORKERS; w++) {
      charges.push(await paidCharge());
      disputed.push(await paidCharge());
    }
    t.clock.advance(72 * HOUR);
    await t.app
      .get(HoldReleaseJob)
      .releaseDue(t.clock.now(), { applicationIds: [tenant.applicationId], modes: ['test'] });
    // Checkout sessions and vault tokens live minutes: made after the clock moved.
    for (let w = 0; w < WORKERS; w++) payments.push(await cardPayment(w));
    return charges.map((charge, w) => [
      { key: `refund-${w}`, path: '/refunds', body: { charge_id: charge, amount: 1000 + w } },
      {
        key: `payout-${w}`,
        path: '/payouts',
        body: { amount: 2000 + w, currency: 'THB', destination: bank.body.id },
      },
      { key: `customer-${w}`, path: '/customers', body: { name: `outage-customer-${w}` } },
      payments[w],
      { key: `dispute-${w}`, path: '/test_helpers/disputes', body: { charge_id: disputed[w], amount: 500 + w } },
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
      const payment = all.find((req) => req.key === `card-${w}`) as Keyed & { paymentIntent: string };
      expect(await modeCount('charges', 'payment_intent = $2', [payment.paymentIntent])).toBe(1);
      expect(finals.get(`card-${w}`)!.body.charge).toMatchObject({ status: 'succeeded', amount: 3000 + w });
      const dispute = finals.get(`dispute-${w}`)!.body;
      expect(await modeCount('disputes', 'charge_id = $2', [dispute.charge_id])).toBe(1);
      expect(dispute.amount).toBe(500 + w);
    }

    t.clock.advance(Math.max(UNANSWERED_AFTER_MS, CHARGE_UNANSWERED_AFTER_MS) + 1000);
    await t.app.get(RefundReconciliationJob).run({ applicationIds: [tenant.applicationId], modes: ['test'] });
    await t.app.get(ChargeReconciliationJob).run({ applicationIds: [tenant.applicationId], modes: ['test'] });
    await t.app.get(PayoutSchedulesJob).run(t.clock.now(), { applicationIds: [tenant.applicationId], modes: ['test'] });
    expect(await modeCount('refunds', `status = 'pending'`, [])).toBe(0);
    expect(await modeCount('payouts', `status = 'pending'`, [])).toBe(0);
    expect(await modeCount('charges', `status = 'pending'`, [])).toBe(0);
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

  it('finishes a card payment whose request lost the database after the provider charged, when the client never resends', async () => {
    tenant = await createTenant(t);
    const payment = await cardPayment(0);
    const gate = t.app.get(SandboxCollectionProvider).hold(tenant.applicationId);
    const first = send(payment).then((res) => res);
    // The attempt is committed pending, and its request waits for the provider's answer.
    const recordedBy = Date.now() + FINAL_WITHIN_MS;
    while ((await modeCount('charges', 'payment_intent = $2', [payment.paymentIntent])) === 0) {
      if (Date.now() > recordedBy) throw new Error('the charge was never recorded');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await proxy.close();
    gate.release();
    expect((await first).status).toBe(503);
    await proxy.open();

    const job = t.app.get(ChargeReconciliationJob);
    const scope = { applicationIds: [tenant.applicationId], modes: ['test' as const] };
    // Younger than CHARGE_UNANSWERED_AFTER_MS it may still be its request's own call: left alone.
    let young = await job.run(scope).catch(() => undefined);
    for (let i = 0; i < 5 && !young; i++) young = await job.run(scope).catch(() => undefined);
    expect(young).toEqual({ read: 0, applied: 0 });
    t.clock.advance(CHARGE_UNANSWERED_AFTER_MS + 1000);
    expect(await job.run(scope)).toEqual({ read: 1, applied: 1 });
    expect(await modeCount('charges', `status = 'succeeded' AND payment_intent = $2`, [payment.paymentIntent])).toBe(1);
    expect(
      await modeCount('charges', `reference_id LIKE 'ch_sbx_%' AND payment_intent = $2`, [payment.paymentIntent]),
    ).toBe(1);

    // A late resend gets that charge (the checkout is complete), not a second payment.
    t.clock.advance(LEASE_MS + 1000);
    const resent = await send(payment);
    expect(resent.status).toBe(200);
    expect(resent.body.charge).toMatchObject({ status: 'succeeded', amount: 3000 });
    expect(resent.body.checkout).toMatchObject({ status: 'complete' });
    expect(await modeCount('charges', 'payment_intent = $2', [payment.paymentIntent])).toBe(1);
    await expectLedgerInvariants(t, [tenant.applicationId]);
  });

  it('a resend after a lost card payment answer reads the charge back from the provider at once', async () => {
    tenant = await createTenant(t);
    const payment = await cardPayment(1);
    const gate = t.app.get(SandboxCollectionProvider).hold(tenant.applicationId);
    const first = send(payment).then((res) => res);
    const recordedBy = Date.now() + FINAL_WITHIN_MS;
    while ((await modeCount('charges', 'payment_intent = $2', [payment.paymentIntent])) === 0) {
      if (Date.now() > recordedBy) throw new Error('the charge was never recorded');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await proxy.close();
    gate.release();
    expect((await first).status).toBe(503);
    await proxy.open();
    t.clock.advance(LEASE_MS + 1000);
    let resent = await send(payment);
    for (let i = 0; i < 5 && resent.status === 503; i++) resent = await send(payment);
    expect(resent.status).toBe(200);
    expect(resent.body.charge).toMatchObject({ status: 'succeeded', amount: 3001 });
    expect(await modeCount('charges', 'payment_intent = $2', [payment.paymentIntent])).toBe(1);
    const replay = await send(payment);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // The paid checkout's session sends again only what it did: anything else is refused.
    const other = await send({ ...payment, key: 'another-key' });
    expect(other.status).toBe(401);
    expect(other.body.code).toBe('E1212');
    const otherBody = await send({ ...payment, body: { ...payment.body, token: 'tok_other' } });
    expect(otherBody.status).toBe(401);
    await expectLedgerInvariants(t, [tenant.applicationId]);
  });

  it('a resend of a card payment whose call never reached the provider sends the recorded charge again, under the same charge id', async () => {
    tenant = await createTenant(t);
    const payment = await cardPayment(2);
    const gate = t.app.get(SandboxCollectionProvider).hold(tenant.applicationId);
    const first = send(payment).then((res) => res);
    const recordedBy = Date.now() + FINAL_WITHIN_MS;
    while ((await modeCount('charges', 'payment_intent = $2', [payment.paymentIntent])) === 0) {
      if (Date.now() > recordedBy) throw new Error('the charge was never recorded');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The provider is unreachable and the database is gone: the attempt can be marked failed no
    // more than it can be answered, so the charge stays pending, and the provider made nothing.
    await proxy.close();
    gate.fail('connection refused');
    expect((await first).status).toBe(502);
    await proxy.open();
    t.clock.advance(LEASE_MS + 1000);
    let resent = await send(payment);
    for (let i = 0; i < 5 && resent.status === 503; i++) resent = await send(payment);
    expect(resent.status).toBe(200);
    expect(resent.body.charge).toMatchObject({ status: 'succeeded', amount: 3002 });
    expect(await modeCount('charges', 'payment_intent = $2', [payment.paymentIntent])).toBe(1);
    await expectLedgerInvariants(t, [tenant.applicationId]);
  });

  it('fails a card payment whose call never reached the provider, when the client never resends: nothing was charged', async () => {
    tenant = await createTenant(t);
    const payment = await cardPayment(3);
    const gate = t.app.get(SandboxCollectionProvider).hold(tenant.applicationId);
    const first = send(payment).then((res) => res);
    const recordedBy = Date.now() + FINAL_WITHIN_MS;
    while ((await modeCount('charges', 'payment_intent = $2', [payment.paymentIntent])) === 0) {
      if (Date.now() > recordedBy) throw new Error('the charge was never recorded');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await proxy.close();
    gate.fail('connection refused');
    expect((await first).status).toBe(502);
    await proxy.open();

    const job = t.app.get(ChargeReconciliationJob);
    const scope = { applicationIds: [tenant.applicationId], modes: ['test' as const] };
    t.clock.advance(CHARGE_UNANSWERED_AFTER_MS + 1000);
    let run = await job.run(scope).catch(() => undefined);
    for (let i = 0; i < 5 && !run; i++) run = await job.run(scope).catch(() => undefined);
    expect(run).toEqual({ read: 1, applied: 1 });
    expect(
      await modeCount(
        'charges',
        `status = 'failed' AND failure_reason = 'provider_unavailable' AND payment_intent = $2`,
        [payment.paymentIntent],
      ),
    ).toBe(1);
    expect(
      await modeCount('checkouts', 'pending_charge_id IS NOT NULL AND target_id = $2', [payment.paymentIntent]),
    ).toBe(0);
    expect(await job.run(scope)).toEqual({ read: 0, applied: 0 });
    await expectLedgerInvariants(t, [tenant.applicationId]);
  });
});
