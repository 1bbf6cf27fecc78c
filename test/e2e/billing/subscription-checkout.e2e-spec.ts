import { CARDS, card, confirm } from '../../factories/checkout.js';
import { createCustomer, createPrice } from '../../factories/subscriptions.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * The contract's subscription checkout through the API (docs/BILLING.md, "Subscription checkout"):
 * the first invoice priced exactly, paid by card, the card saved as the default, the subscription
 * active; a trial saves the card and charges nothing; every refusal has its code; promotion codes
 * hold max_redemptions under concurrent checkouts.
 */
describe('subscription checkout (API)', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    // liveDoubles: live mode has a provider (the local fake Opn), so the live refusal is this feature's.
    t = await startApp({ rateLimit: false, liveDoubles: true });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = async (path: string, body: object) => {
    const res = await t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
    expect({ path, status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };
  const get = async (path: string) => (await t.http.get(tenant.path(path)).set(tenant.as('test'))).body;
  const checkout = (body: object) => t.http.post(tenant.path('/checkouts')).set(tenant.as('test')).send(body);

  it('prices the first invoice exactly, collects it by card, saves the card as default and activates', async () => {
    const price = await createPrice(t, tenant, { unit_amount: 29_900 });
    const vat = await post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' });
    const coupon = await post('/coupons', { percent_off: 10, duration: 'forever' });
    const code = `TEN${Date.now()}`;
    await post('/promotion_codes', { coupon_id: coupon.id, code });
    const customer = await createCustomer(t, tenant);

    const created = await checkout({
      mode: 'subscription',
      target_type: 'customer',
      target_id: customer.id,
      line_items: [{ price: price.id, quantity: 2 }],
      promotion_code: code.toLowerCase(),
      subscription_data: { default_tax_rates: [vat.id], currency: 'THB', description: 'Pro plan' },
    });
    expect(created.status).toBe(200);
    // 299.00 x 2 = 598.00; -10% = 538.20; VAT 7% of 538.20 = 37.674 -> 37.67 (half-up); total 575.87.
    const subtotal = 29_900 * 2;
    const discount = Math.round(subtotal * 0.1);
    const tax = Math.round(((subtotal - discount) * 7) / 100);
    expect([subtotal, discount, tax]).toEqual([59_800, 5_980, 3_767]);
    const total = subtotal - discount + tax;
    expect(total).toBe(57_587);
    expect(created.body).toMatchObject({
      mode: 'subscription',
      target_type: 'customer',
      target_id: customer.id,
      customer_id: customer.id,
      amount: total,
      currency: 'THB',
      payment_method_types: ['card'],
      subscription: expect.any(String),
      invoice: expect.any(String),
    });
    const invoice = await get(`/invoices/${created.body.invoice}`);
    expect(invoice).toMatchObject({
      status: 'open',
      subtotal,
      total,
      customer_id: customer.id,
      subscription: created.body.subscription,
      billing_reason: 'subscription_create',
    });
    expect(invoice.line_items.map((l: { total: number }) => l.total)).toEqual([subtotal, -discount, tax]);
    expect(await get(`/subscriptions/${created.body.subscription}`)).toMatchObject({
      status: 'incomplete',
      customer_id: customer.id,
      default_tax_rates: [vat.id],
      discount: { coupon: coupon.id },
    });

    const paid = await confirm(t, tenant, created.body, card(CARDS.visa));
    expect(paid.status).toBe(200);
    expect(paid.body.checkout).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect(paid.body.charge).toMatchObject({ status: 'succeeded', amount: total });
    expect(await get(`/invoices/${invoice.id}`)).toMatchObject({ status: 'paid', amount_paid: total });
    const methods = await get(`/customers/${customer.id}/payment_methods`);
    expect(methods.data).toHaveLength(1);
    const pm = methods.data[0];
    expect(pm).toMatchObject({ card: { last4: '4242' } });
    expect(await get(`/subscriptions/${created.body.subscription}`)).toMatchObject({
      status: 'active',
      default_payment_method: pm.id,
    });
    expect((await get(`/customers/${customer.id}`)).invoice_settings).toMatchObject({
      default_payment_method: pm.id,
    });
    const events = await get(`/events?limit=50`);
    const types = events.data.map((e: { type: string }) => e.type);
    for (const type of [
      'checkout.completed',
      'invoice.paid',
      'customer.subscription.created',
      'customer.subscription.updated',
      'payment_method.attached',
    ])
      expect(types).toContain(type);
  });

  it('starts a trial: the card is saved, nothing is charged, the subscription is trialing', async () => {
    const price = await createPrice(t, tenant, { unit_amount: 10_000 });
    const customer = await createCustomer(t, tenant);
    const created = await checkout({
      mode: 'subscription',
      target_type: 'customer',
      target_id: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      subscription_data: {
        trial_period_days: 14,
        payment_settings: { save_default_payment_method: 'on_subscription' },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ amount: 0, invoice: null, subscription: expect.any(String) });
    const saved = await confirm(t, tenant, created.body, card(CARDS.visa));
    expect(saved.status).toBe(200);
    expect(saved.body.checkout).toMatchObject({ status: 'complete', payment_status: 'no_payment_required' });
    const sub = await get(`/subscriptions/${created.body.subscription}`);
    expect(sub).toMatchObject({ status: 'trialing', default_payment_method: saved.body.payment_method.id });
  });

  it('gives the redemption back when the checkout expires unpaid: invoice void, subscription incomplete_expired', async () => {
    const price = await createPrice(t, tenant);
    const coupon = await post('/coupons', { percent_off: 10, duration: 'forever' });
    const code = `ONCE${Date.now()}`;
    const promo = await post('/promotion_codes', { coupon_id: coupon.id, code, max_redemptions: 1 });
    const customer = await createCustomer(t, tenant);
    const body = {
      mode: 'subscription',
      target_type: 'customer',
      target_id: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      promotion_code: code,
    };
    const first = await checkout(body);
    expect(first.status).toBe(200);
    expect(await get(`/promotion_codes/${promo.id}`)).toMatchObject({ times_redeemed: 1 });
    expectErrorObject((await checkout(body)).body, 'E7634');

    const expired = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${first.body.id}/expire`))
      .set(tenant.as('test'))
      .send({});
    expect(expired.body).toMatchObject({ status: 'expired' });
    expect(await get(`/promotion_codes/${promo.id}`)).toMatchObject({ times_redeemed: 0 });
    expect(await get(`/coupons/${coupon.id}`)).toMatchObject({ times_redeemed: 0 });
    expect(await get(`/invoices/${first.body.invoice}`)).toMatchObject({ status: 'void' });
    expect(await get(`/subscriptions/${first.body.subscription}`)).toMatchObject({ status: 'incomplete_expired' });
    // The code is redeemable again; the expired checkout cannot be paid.
    expect((await checkout(body)).status).toBe(200);
    expectErrorObject((await confirm(t, tenant, first.body, card(CARDS.visa))).body, 'E7005');
  });

  it('refuses what it cannot honour, each with its code', async () => {
    const price = await createPrice(t, tenant);
    const yearly = await createPrice(t, tenant, { interval: 'year' });
    const usd = await createPrice(t, tenant, { currency: 'USD' });
    const oneTime = await createPrice(t, tenant, { one_time: true });
    const customer = await createCustomer(t, tenant);
    const other = await createCustomer(t, tenant);
    const base = {
      mode: 'subscription',
      target_type: 'customer',
      target_id: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
    };
    const cases: Array<[object, string]> = [
      [{ ...base, target_type: 'invoice' }, 'E7070'],
      [{ ...base, subscription_data: { customer_id: other.id } }, 'E7070'],
      [{ ...base, line_items: [] }, 'E7071'],
      [{ ...base, line_items: undefined }, 'E7071'],
      [{ ...base, subscription_data: { default_fees: ['fee_1'] } }, 'E7072'],
      [{ ...base, subscription_data: { collection_method: 'send_invoice' } }, 'E7072'],
      [{ ...base, subscription_data: { payment_settings: { save_default_payment_method: 'always' } } }, 'E7072'],
      [{ ...base, payment_method_collection: 'if_required' }, 'E7072'],
      [{ ...base, subscription_data: { currency: 'USD' } }, 'E7074'],
      [{ ...base, payment_method_types: ['promptpay'] }, 'E7007'],
      [{ ...base, line_items: [{ price: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', quantity: 1 }] }, 'E7710'],
      [{ ...base, line_items: [{ price: oneTime.id, quantity: 1 }] }, 'E7714'],
      [{ ...base, line_items: [...base.line_items, { price: usd.id, quantity: 1 }] }, 'E7712'],
      [{ ...base, line_items: [...base.line_items, { price: yearly.id, quantity: 1 }] }, 'E7713'],
      [{ ...base, promotion_code: 'NO-SUCH-CODE' }, 'E7631'],
      [{ ...base, target_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }, 'E7014'],
      [{ target_type: 'invoice', target_id: customer.id, subscription_data: {} }, 'E7075'],
    ];
    for (const [body, code] of cases) {
      const res = await checkout(body);
      expect({ body, status: res.status }).toMatchObject({ status: code === 'E7014' ? 404 : 400 });
      expectErrorObject(res.body, code);
    }
    // Nothing was created by a refused request.
    expect((await get(`/subscriptions?customer=${customer.id}`)).data).toHaveLength(0);
  });

  it('refuses subscription checkouts in live mode (E7073)', async () => {
    const price = await createPrice(t, tenant, { mode: 'live' });
    const customer = await createCustomer(t, tenant, {}, 'live');
    const res = await t.http
      .post(tenant.path('/checkouts'))
      .set(tenant.as('live'))
      .send({
        mode: 'subscription',
        target_type: 'customer',
        target_id: customer.id,
        line_items: [{ price: price.id, quantity: 1 }],
      });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E7073');
  });

  it('holds a promotion code to max_redemptions under 50 concurrent subscription checkouts', async () => {
    const price = await createPrice(t, tenant);
    const coupon = await post('/coupons', { percent_off: 10, duration: 'forever' });
    const code = `RACE${Date.now()}`;
    const promo = await post('/promotion_codes', { coupon_id: coupon.id, code, max_redemptions: 7 });
    const customers = [];
    for (let i = 0; i < 50; i += 1) customers.push(await createCustomer(t, tenant));
    const answers = await Promise.all(
      customers.map((c) =>
        checkout({
          mode: 'subscription',
          target_type: 'customer',
          target_id: c.id,
          line_items: [{ price: price.id, quantity: 1 }],
          promotion_code: code,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    for (const a of answers.filter((x) => x.status !== 200)) expectErrorObject(a.body, 'E7634');
    expect(await get(`/promotion_codes/${promo.id}`)).toMatchObject({ times_redeemed: 7 });
    expect((await get(`/subscriptions?limit=100&price=${price.id}`)).data).toHaveLength(7);
  });

  /** The hosted page's promotion code field: POST /pay/{slug}/checkouts/{id}/promotion_code with the page's session. */
  const enterCode = (c: { id: string; session: string }, code: string, session = c.session) =>
    t.http
      .post(`/pay/${tenant.slug}/checkouts/${c.id}/promotion_code`)
      .set({ 'X-Session-Token': session, 'Content-Type': 'application/json' })
      .send({ code });

  it('prices the first invoice again for a code entered on the page (allow_promotion_codes), once, and charges that', async () => {
    const price = await createPrice(t, tenant, { unit_amount: 29_900 });
    const vat = await post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' });
    const coupon = await post('/coupons', { percent_off: 10, duration: 'forever' });
    const code = `PAGE${Date.now()}`;
    const promo = await post('/promotion_codes', { coupon_id: coupon.id, code, max_redemptions: 1 });
    const customer = await createCustomer(t, tenant);
    const body = {
      mode: 'subscription',
      target_type: 'customer',
      target_id: customer.id,
      line_items: [{ price: price.id, quantity: 2 }],
      allow_promotion_codes: true,
      subscription_data: { default_tax_rates: [vat.id] },
    };
    const created = (await checkout(body)).body;
    // Before the code: 598.00 + VAT 41.86 = 639.86.
    expect(created).toMatchObject({ amount: 63_986, allow_promotion_codes: true });

    const applied = await enterCode(created, code.toLowerCase());
    expect(applied.status).toBe(200);
    // 598.00 - 10% = 538.20; VAT 7% = 37.674 -> 37.67; total 575.87.
    expect(applied.body).toMatchObject({
      object: 'checkout_promotion_code',
      code: code.toLowerCase(),
      promotion_code: promo.id,
      amount: 57_587,
      amount_discount: 5_980,
      currency: 'THB',
    });
    expect(await get(`/checkouts/${created.id}`)).toMatchObject({ amount: 57_587 });
    const invoice = await get(`/invoices/${created.invoice}`);
    expect(invoice).toMatchObject({ status: 'open', subtotal: 59_800, total: 57_587 });
    expect(invoice.line_items.map((l: { total: number }) => l.total)).toEqual([59_800, -5_980, 3_767]);
    expect(await get(`/subscriptions/${created.subscription}`)).toMatchObject({
      discount: { coupon: coupon.id, promotion_code: promo.id },
    });
    expect(await get(`/promotion_codes/${promo.id}`)).toMatchObject({ times_redeemed: 1 });
    const updated = (await get(`/events?limit=20`)).data.find(
      (e: { type: string; data: { object: { id: string } } }) =>
        e.type === 'invoice.updated' && e.data.object.id === created.invoice,
    );
    expect(updated.data).toMatchObject({ object: { total: 57_587 }, previous_attributes: { total: 63_986 } });

    // One code per checkout; the code's one redemption is taken.
    expectErrorObject((await enterCode(created, code)).body, 'E7076');
    const second = (await checkout({ ...body, target_id: (await createCustomer(t, tenant)).id })).body;
    expectErrorObject((await enterCode(second, code)).body, 'E7634');
    expectErrorObject((await enterCode(second, 'NO-SUCH-CODE')).body, 'E7631');
    expectErrorObject((await enterCode(second, '')).body, 'E2000');
    expectErrorObject((await enterCode(second, code, created.session)).body, 'E1212');
    const without = (await checkout({ ...body, allow_promotion_codes: false })).body;
    expectErrorObject((await enterCode(without, code)).body, 'E7076');
    expect(await get(`/checkouts/${second.id}`)).toMatchObject({ amount: 63_986 });

    const paid = await confirm(t, tenant, created, card(CARDS.visa));
    expect(paid.body.charge).toMatchObject({ status: 'succeeded', amount: 57_587 });
    expect(await get(`/invoices/${created.invoice}`)).toMatchObject({ status: 'paid', amount_paid: 57_587 });
    expectErrorObject((await enterCode(second, code)).body, 'E7634');
  });

  it('holds max_redemptions for codes entered on 10 pages at once, and gives one back when its checkout expires', async () => {
    const price = await createPrice(t, tenant);
    const coupon = await post('/coupons', { amount_off: 500, currency: 'THB', duration: 'once' });
    const code = `PAGES${Date.now()}`;
    const promo = await post('/promotion_codes', { coupon_id: coupon.id, code, max_redemptions: 3 });
    const pages = [];
    for (let i = 0; i < 10; i += 1) {
      const customer = await createCustomer(t, tenant);
      pages.push(
        (
          await checkout({
            mode: 'subscription',
            target_type: 'customer',
            target_id: customer.id,
            line_items: [{ price: price.id, quantity: 1 }],
            allow_promotion_codes: true,
          })
        ).body,
      );
    }
    const answers = await Promise.all(pages.map((p) => enterCode(p, code)));
    const won = pages.filter((_, n) => answers[n].status === 200);
    expect(won).toHaveLength(3);
    for (const a of answers.filter((x) => x.status !== 200)) expectErrorObject(a.body, 'E7634');
    expect(await get(`/promotion_codes/${promo.id}`)).toMatchObject({ times_redeemed: 3 });
    expect(await get(`/coupons/${coupon.id}`)).toMatchObject({ times_redeemed: 3 });

    await post(`/test_helpers/checkouts/${won[0].id}/expire`, {});
    expect(await get(`/promotion_codes/${promo.id}`)).toMatchObject({ times_redeemed: 2 });
    expect(await get(`/coupons/${coupon.id}`)).toMatchObject({ times_redeemed: 2 });
    expectErrorObject((await enterCode(won[0], code)).body, 'E7005');
  });
});
