import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { asSession, createCustomer, expectLedgerInvariants, tokenize, card } from '../../factories/checkout.js';
import { customerWithCard, saveCard, SAVED_CARDS, setupCheckout } from '../../factories/payment-methods.js';

/**
 * Saved payment methods (docs/COLLECTION.md, "Saved payment methods"): a setup checkout saves the
 * card the hosted page tokenized to the checkout's customer, charging nothing; the merchant lists,
 * reads and detaches them, and names one as the customer's default.
 */
describe('saved payment methods and setup checkouts', () => {
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

  const get = (path: string, who: Tenant = tenant) => t.http.get(who.path(path)).set(who.as('test'));
  const post = (path: string, body: object = {}, who: Tenant = tenant) =>
    t.http.post(who.path(path)).set(who.as('test')).send(body);
  const events = async (type: string) =>
    (await get('/events').query({ 'filter[type]': type, limit: 100 })).body.data as Array<{
      data: { object: Record<string, unknown> };
    }>;

  it('saves the card of a setup checkout to the customer, charging nothing, and completes the checkout', async () => {
    const customer = await createCustomer(t, tenant);
    const checkout = await setupCheckout(t, tenant, customer.id, { success_url: 'https://shop.example/saved' });
    expect(checkout).toMatchObject({
      mode: 'setup',
      target_type: 'customer',
      target_id: customer.id,
      customer_id: customer.id,
      amount: 0,
      currency: 'THB',
      payment_method_types: ['card'],
      status: 'open',
      setup_payment_method: null,
    });
    const saved = await saveCard(t, tenant, checkout, SAVED_CARDS.succeeds);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      object: 'checkout_setup',
      checkout: { id: checkout.id, status: 'complete', payment_status: 'no_payment_required', charge_id: null },
      payment_method: {
        object: 'payment_method',
        type: 'card',
        status: 'attached',
        customer_id: customer.id,
        provider: 'sandbox',
        last4: '4242',
        brand: 'visa',
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099, fingerprint: expect.any(String) },
        reference_id: expect.stringMatching(/^card_sbx_/),
      },
      redirect_url: 'https://shop.example/saved',
    });
    const pmId = saved.body.payment_method.id;
    expect(saved.body.checkout.setup_payment_method).toBe(pmId);
    expect(JSON.stringify(saved.body)).not.toContain('4242424242424242');

    // The first saved card becomes the default; no charge was made.
    expect((await get(`/customers/${customer.id}`)).body.invoice_settings.default_payment_method).toBe(pmId);
    expect((await get('/charges').query({ 'filter[customer_id]': customer.id })).body.data).toHaveLength(0);

    // Events in the same transaction: payment_method.attached and checkout.completed naming it.
    expect((await events('payment_method.attached')).map((e) => e.data.object.id)).toContain(pmId);
    const completed = (await events('checkout.completed')).find((e) => e.data.object.id === checkout.id);
    expect(completed?.data.object).toMatchObject({ setup_payment_method: pmId, mode: 'setup' });

    // The session is spent: the checkout cannot save a second card.
    const again = await tokenize(t, tenant, checkout, card(SAVED_CARDS.succeeds).card);
    expect(again.status).toBe(401);
  });

  it('refuses setup checkouts that name no customer, or a payment target, or anything to charge', async () => {
    const customer = await createCustomer(t, tenant);
    const pi = (await post('/payment_intents', { amount: 10000, currency: 'THB' })).body;
    const cases: Array<[object, string]> = [
      [{ mode: 'setup', target_type: 'payment_intent', target_id: pi.id }, 'E7033'],
      [{ mode: 'payment', target_type: 'customer', target_id: customer.id }, 'E7033'],
      [{ target_type: 'customer', target_id: customer.id }, 'E7033'],
      [{ mode: 'setup', target_type: 'customer', target_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }, 'E7014'],
      [
        { mode: 'setup', target_type: 'customer', target_id: customer.id, payment_method_types: ['promptpay'] },
        'E7007',
      ],
      [
        { mode: 'setup', target_type: 'customer', target_id: customer.id, line_items: [{ price: 'p', quantity: 1 }] },
        'E7033',
      ],
      // A subscription checkout without line items (docs/BILLING.md, "Subscription checkout").
      [{ mode: 'subscription', target_type: 'customer', target_id: customer.id }, 'E7071'],
    ];
    for (const [body, code] of cases) {
      const res = await post('/checkouts', body);
      expectErrorObject(res.body, code);
    }
    // Live mode saves cards through the country's live provider; this app configures none (E5003).
    const live = await t.http
      .post(tenant.path('/checkouts'))
      .set(tenant.as('live'))
      .send({ mode: 'setup', target_type: 'customer', target_id: customer.id });
    expectErrorObject(live.body, 'E5003');
  });

  it('refuses to pay a setup checkout through the payment paths, and a setup confirm without a token', async () => {
    const customer = await createCustomer(t, tenant);
    const checkout = await setupCheckout(t, tenant, customer.id);
    const promptpay = await t.http
      .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
      .set(asSession(checkout.session))
      .send({ payment_method_type: 'promptpay' });
    expectErrorObject(promptpay.body, 'E7008');
    expect(promptpay.status).toBe(400);
  });

  it('lists a customer’s saved methods with cursors, reads one, and detaches it at the provider and here', async () => {
    const { customer, paymentMethod } = await customerWithCard(t, tenant);
    const second = await saveCard(t, tenant, await setupCheckout(t, tenant, customer.id), SAVED_CARDS.declined);
    expect(second.status).toBe(200);
    // A second card does not replace the default.
    expect((await get(`/customers/${customer.id}`)).body.invoice_settings.default_payment_method).toBe(
      paymentMethod.id,
    );

    const first = await get(`/customers/${customer.id}/payment_methods`).query({ 'use-cursor': 'true', limit: 1 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ has_more: true, total_items: 2 });
    expect(first.body.data[0].id).toBe(second.body.payment_method.id);
    const next = await get(`/customers/${customer.id}/payment_methods`).query({
      'use-cursor': 'true',
      limit: 1,
      starting_after: first.body.data[0].id,
    });
    expect(next.body.data.map((p: { id: string }) => p.id)).toEqual([paymentMethod.id]);
    expect(next.body.has_more).toBe(false);

    const read = await get(`/payment_methods/${paymentMethod.id}`);
    expect(read.body).toMatchObject({ id: paymentMethod.id, status: 'attached', customer: { id: customer.id } });

    const detached = await post(`/payment_methods/${paymentMethod.id}/detach`);
    expect(detached.status).toBe(200);
    expect(detached.body).toMatchObject({ status: 'detached', detached_at: expect.any(String) });
    // Detaching the default clears it.
    expect((await get(`/customers/${customer.id}`)).body.invoice_settings.default_payment_method).toBeNull();
    expect((await events('payment_method.detached')).map((e) => e.data.object.id)).toContain(paymentMethod.id);
    expectErrorObject((await post(`/payment_methods/${paymentMethod.id}/detach`)).body, 'E7031');

    const filtered = await get(`/customers/${customer.id}/payment_methods`).query({ 'filter[status]': 'attached' });
    expect(filtered.body.data.map((p: { id: string }) => p.id)).toEqual([second.body.payment_method.id]);
  });

  it('sets the default payment method only to an attached method of that customer', async () => {
    const { customer, paymentMethod } = await customerWithCard(t, tenant);
    const other = await customerWithCard(t, tenant);
    const newer = await saveCard(t, tenant, await setupCheckout(t, tenant, customer.id), SAVED_CARDS.succeeds);

    const set = await post(`/customers/${customer.id}`, {
      name: 'Renamed',
      invoice_settings: { default_payment_method: newer.body.payment_method.id },
    });
    expect(set.status).toBe(200);
    expect(Date.parse(set.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(set.body.created_at));
    expect((await post(`/customers/${customer.id}`, {})).body).toMatchObject({ id: customer.id, name: 'Renamed' });
    expect(set.body).toMatchObject({
      name: 'Renamed',
      invoice_settings: { default_payment_method: newer.body.payment_method.id },
    });

    expectErrorObject(
      (
        await post(`/customers/${customer.id}`, {
          invoice_settings: { default_payment_method: other.paymentMethod.id },
        })
      ).body,
      'E7031',
    );
    expectErrorObject(
      (
        await post(`/customers/${customer.id}`, {
          invoice_settings: { default_payment_method: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' },
        })
      ).body,
      'E7030',
    );
    expect((await post(`/payment_methods/${paymentMethod.id}/detach`)).status).toBe(200);
    expectErrorObject(
      (await post(`/customers/${customer.id}`, { invoice_settings: { default_payment_method: paymentMethod.id } }))
        .body,
      'E7031',
    );
    const cleared = await post(`/customers/${customer.id}`, { invoice_settings: { default_payment_method: null } });
    expect(cleared.body.invoice_settings.default_payment_method).toBeNull();
    expectErrorObject(
      (await post(`/customers/${customer.id}`, { invoice_settings: { default_payment_method: 'x' } })).body,
      'E2000',
    );
  });

  it('keeps payment methods inside their application: another application’s are 404', async () => {
    const { customer, paymentMethod } = await customerWithCard(t, tenant);
    const stranger = await createTenant(t);
    expectErrorObject((await get(`/payment_methods/${paymentMethod.id}`, stranger)).body, 'E4004');
    expect((await get(`/payment_methods/${paymentMethod.id}`, stranger)).status).toBe(404);
    expectErrorObject((await post(`/payment_methods/${paymentMethod.id}/detach`, {}, stranger)).body, 'E4004');
    expectErrorObject((await get(`/customers/${customer.id}/payment_methods`, stranger)).body, 'E4004');
    const theirs = await createCustomer(t, stranger);
    expectErrorObject(
      (
        await post(
          `/customers/${theirs.id}`,
          { invoice_settings: { default_payment_method: paymentMethod.id } },
          stranger,
        )
      ).body,
      'E7030',
    );
    // Live mode does not see test-mode payment methods.
    const live = await t.http.get(tenant.path(`/payment_methods/${paymentMethod.id}`)).set(tenant.as('live'));
    expectErrorObject(live.body, 'E4004');
  });
});
