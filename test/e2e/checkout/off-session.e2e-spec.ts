import type { Principal } from '../../../src/common/context/principal.js';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { ApplicationsService } from '../../../src/modules/applications/index.js';
import { OffSessionPaymentsService } from '../../../src/modules/checkout/index.js';
import { PROVIDER_TIMEOUT_MS } from '../../../src/modules/checkout/payments/provider-call.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { asSession, createCustomer, createPaymentIntent, expectLedgerInvariants } from '../../factories/checkout.js';
import { chargeOffSession, customerWithCard, SAVED_CARDS } from '../../factories/payment-methods.js';

/**
 * Off-session payments (docs/COLLECTION.md, "Saved payment methods"): a payment intent confirmed
 * with a customer's saved card while the customer is absent succeeds, is declined
 * (`last_payment_error`), or needs authentication: `requires_action` with a link to a hosted page
 * where the customer completes the payment with the same card.
 */
describe('off-session payment intents (test mode, sandbox)', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await t?.close();
  });

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  const events = async (type: string) =>
    (await get('/events').query({ 'filter[type]': type, limit: 100 })).body.data as Array<{
      data: { object: Record<string, unknown> };
    }>;

  it('charges a saved card at once: succeeded, with a charge booked like any card charge', async () => {
    const { customer, paymentMethod } = await customerWithCard(t, tenant);
    const res = await chargeOffSession(t, tenant, customer.id, paymentMethod.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'payment_intent',
      status: 'succeeded',
      amount_received: 125000,
      customer_id: customer.id,
      payment_method: paymentMethod.id,
      next_action: null,
      last_payment_error: null,
    });
    const charge = (await get(`/charges/${res.body.latest_charge}`)).body;
    expect(charge).toMatchObject({
      status: 'succeeded',
      paid: true,
      payment_intent: res.body.id,
      payment_method_id: paymentMethod.id,
      customer_id: customer.id,
      provider: 'sandbox',
      captured: true,
      amount_captured: 125000,
      provider_fee_amount: expect.any(Number),
    });
    expect((await events('payment_intent.succeeded')).map((e) => e.data.object.id)).toContain(res.body.id);
    expect((await events('charge.succeeded')).map((e) => e.data.object.id)).toContain(charge.id);
  });

  it('a declined saved card leaves the intent requires_payment_method with last_payment_error', async () => {
    const { customer, paymentMethod } = await customerWithCard(t, tenant, SAVED_CARDS.insufficient);
    const res = await chargeOffSession(t, tenant, customer.id, paymentMethod.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'requires_payment_method',
      amount_received: 0,
      last_payment_error: {
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: expect.any(String),
        charge: res.body.latest_charge,
      },
    });
    expect((await get(`/charges/${res.body.latest_charge}`)).body).toMatchObject({
      status: 'failed',
      failure_code: 'card_declined',
    });
    expect((await events('payment_intent.payment_failed')).map((e) => e.data.object.id)).toContain(res.body.id);
  });

  it('authentication required: requires_action with a hosted page where the customer pays with the same card', async () => {
    const { customer, paymentMethod } = await customerWithCard(t, tenant, SAVED_CARDS.authentication);
    const res = await chargeOffSession(t, tenant, customer.id, paymentMethod.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'requires_action',
      last_payment_error: { code: 'authentication_required', charge: res.body.latest_charge },
      next_action: { type: 'redirect_to_url', redirect_to_url: { url: expect.stringContaining('#session=') } },
    });
    expect((await events('payment_intent.requires_action')).map((e) => e.data.object.id)).toContain(res.body.id);

    // The link: the hosted checkout of the intent, its session in the fragment.
    const url = new URL(res.body.next_action.redirect_to_url.url);
    const session = new URLSearchParams(url.hash.slice(1)).get('session')!;
    const checkoutId = url.pathname.split('/').pop()!;
    const page = await t.http.get(url.pathname);
    expect(page.status).toBe(200);
    const checkout = (await get(`/checkouts/${checkoutId}`)).body;
    expect(checkout).toMatchObject({
      target_type: 'payment_intent',
      target_id: res.body.id,
      payment_method_types: ['card'],
    });

    // Another customer's saved card cannot pay it.
    const other = await customerWithCard(t, tenant);
    const refused = await t.http
      .post(tenant.path(`/checkouts/${checkoutId}/confirm`))
      .set(asSession(session))
      .send({ payment_method_type: 'card', payment_method: other.paymentMethod.id });
    expectErrorObject(refused.body, 'E7031');

    // On the page, the customer authenticates the same saved card: the intent succeeds.
    const paid = await t.http
      .post(tenant.path(`/checkouts/${checkoutId}/confirm`))
      .set(asSession(session))
      .send({ payment_method_type: 'card', payment_method: paymentMethod.id });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      checkout: { status: 'complete' },
      charge: { status: 'succeeded', payment_method_id: paymentMethod.id },
    });
    expect((await get(`/payment_intents/${res.body.id}`)).body).toMatchObject({
      status: 'succeeded',
      next_action: null,
      amount_received: 125000,
    });
  });

  it('refuses incomplete or foreign off-session confirmations with precise codes', async () => {
    const { customer, paymentMethod } = await customerWithCard(t, tenant);
    const other = await customerWithCard(t, tenant);
    const stranger = await createTenant(t);
    const cases: Array<[object, string]> = [
      [{ confirm: true, off_session: true, amount: 1000, currency: 'THB', customer_id: customer.id }, 'E7032'],
      [{ confirm: true, off_session: true, amount: 1000, currency: 'THB', payment_method: paymentMethod.id }, 'E7032'],
      [{ amount: 1000, currency: 'THB', payment_method: paymentMethod.id, customer_id: customer.id }, 'E7032'],
      [
        { confirm: true, amount: 1000, currency: 'THB', payment_method: paymentMethod.id, customer_id: customer.id },
        'E7032',
      ],
    ];
    for (const [body, code] of cases) {
      const res = await t.http.post(tenant.path('/payment_intents')).set(tenant.as('test')).send(body);
      expectErrorObject(res.body, code);
    }
    // A payment method of another customer, and one of another application.
    expectErrorObject((await chargeOffSession(t, tenant, customer.id, other.paymentMethod.id)).body, 'E7031');
    const theirs = await createCustomer(t, stranger);
    expectErrorObject((await chargeOffSession(t, stranger, theirs.id, paymentMethod.id)).body, 'E7030');
    // A detached method can no longer be charged.
    await t.http.post(tenant.path(`/payment_methods/${paymentMethod.id}/detach`)).set(tenant.as('test'));
    expectErrorObject((await chargeOffSession(t, tenant, customer.id, paymentMethod.id)).body, 'E7031');
  });

  it('answers a resent keyed request with the same intent and one charge', async () => {
    const { customer, paymentMethod } = await customerWithCard(t, tenant);
    const send = () =>
      t.http
        .post(tenant.path('/payment_intents'))
        .set({ ...tenant.as('test'), 'Idempotency-Key': `off-session-${customer.id}` })
        .send({
          amount: 5000,
          currency: 'THB',
          customer_id: customer.id,
          payment_method: paymentMethod.id,
          off_session: true,
          confirm: true,
        });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    const charges = await get('/charges').query({ 'filter[customer_id]': customer.id });
    expect(charges.body.data).toHaveLength(1);
  });

  it('other modules charge a customer’s default method through OffSessionPaymentsService', async () => {
    const { customer } = await customerWithCard(t, tenant);
    const pi = await createPaymentIntent(t, tenant, { customer_id: customer.id, amount: 7000 });
    const application = (await t.app.get(ApplicationsService).bySlug(tenant.slug))!;
    const principal: Principal = {
      credential: {
        applicationId: application.id,
        mode: 'test',
        privilege: 'machine',
        method: 'secret_key',
        subject: 'test:invoicing',
      },
      application,
      mode: 'test',
      livemode: false,
      country: 'TH',
    };
    const bound = { application, country: 'TH', credential: principal.credential, principal };
    const paid = await t.app
      .get(RequestContext)
      .runInMode('test', () => t.app.get(OffSessionPaymentsService).confirmOffSession(principal, pi.id), bound);
    expect(paid).toMatchObject({ status: 'succeeded', amount_received: 7000 });
  });
  it('an attempt whose process died is E7035 until the provider timeout, then abandoned and charged again', async () => {
    const { customer } = await customerWithCard(t, tenant);
    const pi = await createPaymentIntent(t, tenant, { customer_id: customer.id, amount: 7000 });
    const application = (await t.app.get(ApplicationsService).bySlug(tenant.slug))!;
    const principal: Principal = {
      credential: {
        applicationId: application.id,
        mode: 'test',
        privilege: 'machine',
        method: 'secret_key',
        subject: 'test:invoicing',
      },
      application,
      mode: 'test',
      livemode: false,
      country: 'TH',
    };
    const bound = { application, country: 'TH', credential: principal.credential, principal };
    const service = t.app.get(OffSessionPaymentsService);
    const confirm = () =>
      t.app.get(RequestContext).runInMode('test', () => service.confirmOffSession(principal, pi.id), bound);
    // The process dies between recording the attempt and applying the provider's answer.
    const crashing = service as unknown as { applyAnswer: (...args: unknown[]) => Promise<unknown> };
    const applyAnswer = crashing.applyAnswer;
    crashing.applyAnswer = () => Promise.reject(new Error('process died'));
    try {
      await expect(confirm()).rejects.toThrow('process died');
    } finally {
      crashing.applyAnswer = applyAnswer;
    }
    const dead = (await get(`/payment_intents/${pi.id}`)).body;
    expect(dead).toMatchObject({ status: 'processing' });
    // Still within the time a provider call may take: the payment is in progress.
    t.clock.advance(PROVIDER_TIMEOUT_MS - 1_000);
    await expect(confirm()).rejects.toMatchObject({ name: 'AppError(E7035)' });
    // Past it: the dead attempt is failed (processing_error) and a new one charges the card.
    t.clock.advance(1_000);
    expect(await confirm()).toMatchObject({ status: 'succeeded', amount_received: 7000 });
    const charges = (await get('/charges').query({ 'filter[payment_intent]': pi.id })).body.data as Array<{
      id: string;
      status: string;
      failure_code: string | null;
    }>;
    expect(charges.find((c) => c.id === dead.latest_charge)).toMatchObject({
      status: 'failed',
      failure_code: 'processing_error',
    });
    expect(charges.filter((c) => c.status === 'succeeded')).toHaveLength(1);
    t.clock.reset();
  });
});
