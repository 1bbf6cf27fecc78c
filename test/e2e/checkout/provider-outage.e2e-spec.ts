import { SandboxCollectionProvider } from '../../../src/modules/checkout/index.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { CARDS, card, confirm, expectLedgerInvariants, paymentIntentCheckout } from '../../factories/checkout.js';

/**
 * A payment attempt is recorded, the provider is called with no transaction open, and its answer is
 * applied in a new transaction: a slow or dead provider never holds the checkout's or the target's
 * row lock, and an attempt it never answers fails without blocking the next one.
 */
describe('payment attempts and a provider that does not answer', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await t.close();
  });

  /** The attempt's charge, once the attempt is recorded (it is, before the provider is called). */
  async function attemptCharge(paymentIntentId: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 400; i++) {
      const res = await t.http
        .get(tenant.path('/charges'))
        .query({ 'filter[payment_intent]': paymentIntentId })
        .set(tenant.as('test'));
      if (res.body.data?.length) return res.body.data[0];
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error('the payment attempt was never recorded');
  }

  it('leaves the checkout and its target unlocked while the provider holds its answer', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, { amount: 125000 });
    const gate = t.app.get(SandboxCollectionProvider).hold(tenant.applicationId);
    const paying = confirm(t, tenant, checkout, card(CARDS.visa)).then((res) => res);
    expect(await attemptCharge(pi.id)).toMatchObject({ status: 'pending', reference_id: null });

    // Both take the checkout's and the payment intent's row locks; neither waits for the provider.
    const again = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(again.status).toBe(409);
    expectErrorObject(again.body, 'E4090');
    const canceled = await t.http
      .post(tenant.path(`/payment_intents/${pi.id}/cancel`))
      .set(tenant.as('test'))
      .send({});
    expect(canceled.status).toBe(200);

    gate.release();
    const res = await paying;
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E7003');
    expect(await attemptCharge(pi.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'target_not_payable',
      paid: false,
    });
  });

  it('fails the attempt with E5002 when the provider errs, and the checkout can be paid right after', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, { amount: 5000 });
    const gate = t.app.get(SandboxCollectionProvider).hold(tenant.applicationId);
    const paying = confirm(t, tenant, checkout, card(CARDS.visa)).then((res) => res);
    await attemptCharge(pi.id);
    gate.fail('sandbox acquirer unreachable');
    const res = await paying;
    expect(res.status).toBe(502);
    expectErrorObject(res.body, 'E5002');
    const failed = await attemptCharge(pi.id);
    expect(failed).toMatchObject({
      status: 'failed',
      failure_code: 'processing_error',
      failure_reason: 'provider_unavailable',
      paid: false,
    });

    const paid = await confirm(t, tenant, checkout, card(CARDS.visa));
    expect(paid.status).toBe(200);
    expect(paid.body.charge).toMatchObject({ status: 'succeeded', paid: true });
    expect(paid.body.checkout.status).toBe('complete');
  });
});
