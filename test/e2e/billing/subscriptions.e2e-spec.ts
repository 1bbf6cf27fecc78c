import {
  advanceClock,
  createClock,
  createCustomer,
  createPrice,
  eventsOf,
  runSubscriptionsJob,
} from '../../factories/subscriptions.js';
import { asSession, card, tokenize } from '../../factories/checkout.js';
import { customerWithCard, SAVED_CARDS, setupCheckout } from '../../factories/payment-methods.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/** Subscriptions (docs/BILLING.md, "Subscriptions"), on test clocks and on the service clock. */
describe('subscriptions', () => {
  let t: TestApp;
  let tenant: Tenant;
  let monthly: { id: string };

  const subscribe = (body: Record<string, unknown>, on = tenant, mode: 'test' | 'live' = 'test') =>
    t.http.post(on.path('/subscriptions')).set(on.as(mode)).send(body);
  const update = (id: string, body: Record<string, unknown>) =>
    t.http
      .post(tenant.path(`/subscriptions/${id}`))
      .set(tenant.as('test'))
      .send(body);
  const read = async (id: string) =>
    (await t.http.get(tenant.path(`/subscriptions/${id}`)).set(tenant.as('test'))).body;
  const pending = async (id: string) => {
    const res = await t.http
      .get(tenant.path(`/subscriptions/${id}/pending_items`))
      .query({ sort: 'created_at:asc', limit: 100 })
      .set(tenant.as('test'));
    expect(res.status).toBe(200);
    return res.body.data as Array<{ amount: number; quantity: number; kind: string; price_id: string }>;
  };

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    monthly = await createPrice(t, tenant);
  });
  afterAll(() => t.close());

  it('moves a trial subscription on a test clock from trialing to active, trial_will_end three days before', async () => {
    const clock = await createClock(t, tenant, '2026-01-01T00:00:00.000Z');
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const created = await subscribe({
      customer_id: customer.id,
      items: [{ price_id: monthly.id, quantity: 2 }],
      trial_period_days: 14,
    });
    expect(created.status).toBe(200);
    const sub = created.body;
    expect(sub).toMatchObject({
      object: 'subscription',
      livemode: false,
      status: 'trialing',
      currency: 'THB',
      test_clock: clock.id,
      created: '2026-01-01T00:00:00.000Z',
      trial_start: '2026-01-01T00:00:00.000Z',
      trial_end: '2026-01-15T00:00:00.000Z',
      current_period_start: '2026-01-01T00:00:00.000Z',
      current_period_end: '2026-01-15T00:00:00.000Z',
      billing_cycle_anchor: '2026-01-15T00:00:00.000Z',
      collection_method: 'charge_automatically',
      latest_invoice: null,
      items: { object: 'list', data: [{ object: 'subscription_item', price_id: monthly.id, quantity: 2 }] },
    });
    const [createdEvent] = await eventsOf(t, tenant, 'customer.subscription.created');
    expect(createdEvent.data.object).toEqual(sub);

    // Two days before the trial ends: the notice (due on Jan 12) went out, the trial goes on.
    await advanceClock(t, tenant, clock.id, '2026-01-13T00:00:00.000Z');
    const notices = await eventsOf(t, tenant, 'customer.subscription.trial_will_end');
    expect(notices.map((e) => e.data.object.id)).toEqual([sub.id]);
    expect((await read(sub.id)).status).toBe('trialing');

    // Past trial_end: active, its first paid period from trial_end; the notice is not sent twice.
    await advanceClock(t, tenant, clock.id, '2026-01-16T00:00:00.000Z');
    const active = await read(sub.id);
    expect(active).toMatchObject({
      status: 'active',
      current_period_start: '2026-01-15T00:00:00.000Z',
      current_period_end: '2026-02-15T00:00:00.000Z',
    });
    expect(await eventsOf(t, tenant, 'customer.subscription.trial_will_end')).toHaveLength(1);
    const [trialEnded] = await eventsOf(t, tenant, 'customer.subscription.updated');
    expect(trialEnded.data.object).toMatchObject({ id: sub.id, status: 'active' });
    expect(trialEnded.data.previous_attributes).toMatchObject({ status: 'trialing' });
    const ready = await eventsOf(t, tenant, 'test_helpers.test_clock.ready');
    expect(ready.length).toBe(2);

    // Two more months: two renewals, in order.
    await advanceClock(t, tenant, clock.id, '2026-03-20T00:00:00.000Z');
    expect(await read(sub.id)).toMatchObject({
      current_period_start: '2026-03-15T00:00:00.000Z',
      current_period_end: '2026-04-15T00:00:00.000Z',
    });
    const updates = (await eventsOf(t, tenant, 'customer.subscription.updated')).filter(
      (e) => e.data.object.id === sub.id,
    );
    expect(updates.map((e) => e.data.object.current_period_end).reverse()).toEqual([
      '2026-02-15T00:00:00.000Z',
      '2026-03-15T00:00:00.000Z',
      '2026-04-15T00:00:00.000Z',
    ]);
  });

  it('takes each step once when two replicas run the job at the same time', async () => {
    const clock = await createClock(t, tenant, '2026-10-01T00:00:00.000Z');
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const sub = (await subscribe({ customer_id: customer.id, items: [{ price_id: monthly.id }], trial_period_days: 7 }))
      .body;
    const started = await t.http
      .post(tenant.path(`/test_helpers/test_clocks/${clock.id}/advance`))
      .set(tenant.as('test'))
      .send({ frozen_time: '2026-12-20T00:00:00.000Z' });
    expect(started.status).toBe(200);
    await Promise.all([runSubscriptionsJob(t, tenant), runSubscriptionsJob(t, tenant)]);
    const mine = async (type: string) =>
      (await eventsOf(t, tenant, type)).filter((e) => e.data.object.id === sub.id).map((e) => e.data.object);
    expect(await mine('customer.subscription.trial_will_end')).toHaveLength(1);
    // Trial end (Oct 8), then renewals on Nov 8 and Dec 8: three updates, one each.
    expect((await mine('customer.subscription.updated')).map((o) => o.current_period_end)).toEqual([
      '2027-01-08T00:00:00.000Z',
      '2026-12-08T00:00:00.000Z',
      '2026-11-08T00:00:00.000Z',
    ]);
    expect(await read(sub.id)).toMatchObject({ status: 'active', current_period_start: '2026-12-08T00:00:00.000Z' });
  });

  it('creates one subscription for a repeated Idempotency-Key', async () => {
    const customer = await createCustomer(t, tenant);
    const body = { customer_id: customer.id, items: [{ price_id: monthly.id }], collection_method: 'send_invoice' };
    const key = `sub-${Date.now()}`;
    const first = await t.http
      .post(tenant.path('/subscriptions'))
      .set(tenant.as('test', { 'Idempotency-Key': key }))
      .send(body);
    const again = await t.http
      .post(tenant.path('/subscriptions'))
      .set(tenant.as('test', { 'Idempotency-Key': key }))
      .send(body);
    expect(again.body).toEqual(first.body);
    const list = await t.http
      .get(tenant.path('/subscriptions'))
      .query({ customer: customer.id })
      .set(tenant.as('test'));
    expect(list.body.data).toHaveLength(1);
  });

  it('clamps month ends on a clock: anchored Jan 31, periods end Feb 28 and Mar 31', async () => {
    const clock = await createClock(t, tenant, '2026-01-31T09:00:00.000Z');
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const sub = (
      await subscribe({
        customer_id: customer.id,
        items: [{ price_id: monthly.id }],
        collection_method: 'send_invoice',
      })
    ).body;
    expect(sub).toMatchObject({ status: 'active', days_until_due: 30, current_period_end: '2026-02-28T09:00:00.000Z' });
    await advanceClock(t, tenant, clock.id, '2026-03-01T00:00:00.000Z');
    expect(await read(sub.id)).toMatchObject({
      current_period_start: '2026-02-28T09:00:00.000Z',
      current_period_end: '2026-03-31T09:00:00.000Z',
    });
  });

  it('follows the service clock for customers without a test clock: trial end, and incomplete expiry after 23 h', async () => {
    const own = await createTenant(t);
    const price = await createPrice(t, own);
    const customer = await createCustomer(t, own);
    const trial = (
      await subscribe({ customer_id: customer.id, items: [{ price_id: price.id }], trial_period_days: 1 }, own)
    ).body;
    const incomplete = (await subscribe({ customer_id: customer.id, items: [{ price_id: price.id }] }, own)).body;
    expect(trial.status).toBe('trialing');
    expect(incomplete).toMatchObject({ status: 'incomplete', test_clock: null });
    await runSubscriptionsJob(t, own);
    const get = async (id: string) => (await t.http.get(own.path(`/subscriptions/${id}`)).set(own.as('test'))).body;
    // A one-day trial is shorter than three days: its notice goes at once.
    expect((await eventsOf(t, own, 'customer.subscription.trial_will_end')).length).toBe(1);
    expect((await get(incomplete.id)).status).toBe('incomplete');
    t.clock.advance(23 * 3_600_000 + 1_000);
    await runSubscriptionsJob(t, own);
    expect((await get(incomplete.id)).status).toBe('incomplete_expired');
    expect((await get(trial.id)).status).toBe('trialing');
    t.clock.advance(3_600_000);
    await runSubscriptionsJob(t, own);
    expect((await get(trial.id)).status).toBe('active');
    t.clock.reset();
  });

  it('refuses bad items and settings with precise codes', async () => {
    const customer = await createCustomer(t, tenant);
    const usd = await createPrice(t, tenant, { currency: 'USD', unit_amount: 1000 });
    const yearly = await createPrice(t, tenant, { interval: 'year' });
    const twoMonthly = await createPrice(t, tenant, { interval_count: 2 });
    const oneTime = await createPrice(t, tenant, { one_time: true });
    const metered = await createPrice(t, tenant, { usage_type: 'metered', unit_amount: 10 });
    const inactive = await createPrice(t, tenant);
    expect(
      (
        await t.http
          .post(tenant.path(`/prices/${inactive.id}`))
          .set(tenant.as('test'))
          .send({ active: false })
      ).status,
    ).toBe(200);
    const thbCustomer = await createCustomer(t, tenant, { currency: 'USD' });
    const item = (price_id: string, quantity?: number) => ({
      price_id,
      ...(quantity === undefined ? {} : { quantity }),
    });
    const cases: Array<[string, Record<string, unknown>]> = [
      ['E7710', { customer_id: customer.id, items: [item('0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b')] }],
      ['E7711', { customer_id: customer.id, items: [item(inactive.id)] }],
      ['E7712', { customer_id: customer.id, items: [item(monthly.id), item(usd.id)] }],
      ['E7712', { customer_id: thbCustomer.id, items: [item(monthly.id)] }],
      ['E7713', { customer_id: customer.id, items: [item(monthly.id), item(yearly.id)] }],
      ['E7713', { customer_id: customer.id, items: [item(monthly.id), item(twoMonthly.id)] }],
      ['E7714', { customer_id: customer.id, items: [item(oneTime.id)] }],
      ['E7715', { customer_id: customer.id, items: [item(metered.id, 1)] }],
      ['E7716', { customer_id: customer.id, items: [item(monthly.id), item(monthly.id, 2)] }],
      ['E7717', { customer_id: customer.id, items: [item(monthly.id)], trial_end: '2020-01-01T00:00:00Z' }],
      ['E7718', { customer_id: customer.id, items: [item(monthly.id)], days_until_due: 10 }],
      [
        'E7719',
        {
          customer_id: customer.id,
          items: [item(monthly.id)],
          trial_period_days: 3,
          trial_end: '2099-01-01T00:00:00Z',
        },
      ],
      [
        'E7720',
        {
          customer_id: customer.id,
          items: [item(monthly.id)],
          coupon: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
          promotion_code: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6c',
        },
      ],
      ['E7721', { customer_id: customer.id, items: [item(monthly.id)], billing_cycle_anchor: '2020-01-01T00:00:00Z' }],
      ['E7723', { customer_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', items: [item(monthly.id)] }],
      ['E7727', { customer_id: customer.id, items: [item(monthly.id, 0)] }],
      ['E2000', { customer_id: customer.id, items: [] }],
      ['E2000', { customer_id: customer.id, items: [item(monthly.id)], collection_method: 'cash' }],
    ];
    for (const [code, body] of cases) {
      const res = await subscribe(body);
      expect({ code, body: res.body.code, status: res.status }).toEqual({ code, body: code, status: 400 });
      expectErrorObject(res.body, code);
    }
    const meteredOk = await subscribe({ customer_id: customer.id, items: [item(metered.id)] });
    expect(meteredOk.status).toBe(200);
    expect(meteredOk.body.items.data[0].quantity).toBeNull();
  });

  it('redeems a coupon or promotion code and checks default tax rates when created', async () => {
    const post = async (path: string, body: object) => {
      const res = await t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
      expect(res.status).toBe(200);
      return res.body as { id: string };
    };
    const vat = await post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' });
    const once = await post('/coupons', { percent_off: 10, duration: 'once', max_redemptions: 1 });
    const tenOff = await post('/coupons', { percent_off: 10, duration: 'forever' });
    const promo = await post('/promotion_codes', { coupon_id: tenOff.id, code: `SUBS${Date.now()}` });
    const customer = await createCustomer(t, tenant);
    const base = { customer_id: customer.id, items: [{ price_id: monthly.id }], collection_method: 'send_invoice' };

    const withCoupon = await subscribe({ ...base, coupon: once.id, default_tax_rates: [vat.id] });
    expect(withCoupon.status).toBe(200);
    expect(withCoupon.body).toMatchObject({
      discount: { coupon: once.id, promotion_code: null, start: expect.any(String) },
      default_tax_rates: [vat.id],
    });
    // max_redemptions 1: the second subscription is refused, by the catalog's code.
    expectErrorObject((await subscribe({ ...base, coupon: once.id })).body, 'E7636');
    const withCode = await subscribe({ ...base, promotion_code: promo.id });
    expect(withCode.body.discount).toMatchObject({ coupon: tenOff.id, promotion_code: promo.id });
    expectErrorObject((await subscribe({ ...base, promotion_code: vat.id })).body, 'E7729');
    expectErrorObject((await subscribe({ ...base, coupon: vat.id })).body, 'E7625');
    expectErrorObject((await subscribe({ ...base, default_tax_rates: [once.id] })).body, 'E7652');
  });

  it('keeps subscriptions to their application', async () => {
    const other = await createTenant(t);
    const theirPrice = await createPrice(t, other);
    const theirCustomer = await createCustomer(t, other);
    const theirs = (await subscribe({ customer_id: theirCustomer.id, items: [{ price_id: theirPrice.id }] }, other))
      .body;
    const mine = await createCustomer(t, tenant);
    expectErrorObject((await subscribe({ customer_id: mine.id, items: [{ price_id: theirPrice.id }] })).body, 'E7710');
    expectErrorObject(
      (await subscribe({ customer_id: theirCustomer.id, items: [{ price_id: monthly.id }] })).body,
      'E7723',
    );
    const peek = await t.http.get(tenant.path(`/subscriptions/${theirs.id}`)).set(tenant.as('test'));
    expect(peek.status).toBe(404);
    expectErrorObject(peek.body, 'E4004');
    expectErrorObject((await update(theirs.id, { metadata: { a: '1' } })).body, 'E4004');
    const list = await t.http.get(tenant.path('/subscriptions')).set(tenant.as('test'));
    expect(list.body.data.map((s: { id: string }) => s.id)).not.toContain(theirs.id);
    // Live mode has its own: the test-mode subscription is unknown there.
    const live = await t.http.get(other.path(`/subscriptions/${theirs.id}`)).set(other.as('live'));
    expectErrorObject(live.body, 'E4004');
  });

  it('stores prorations of a mid-period quantity change as pending items, and none with proration_behavior none', async () => {
    const clock = await createClock(t, tenant, '2026-04-01T00:00:00.000Z');
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const sub = (
      await subscribe({
        customer_id: customer.id,
        items: [{ price_id: monthly.id }],
        collection_method: 'send_invoice',
      })
    ).body;
    expect(sub).toMatchObject({ status: 'active', current_period_end: '2026-05-01T00:00:00.000Z' });
    await advanceClock(t, tenant, clock.id, '2026-04-16T00:00:00.000Z');
    const itemId = sub.items.data[0].id;
    const changed = await update(sub.id, { items: [{ id: itemId, quantity: 3 }] });
    expect(changed.status).toBe(200);
    expect(changed.body.items.data).toEqual([expect.objectContaining({ id: itemId, quantity: 3 })]);
    // 300.00 THB a month, half of April left: credit 1 × 15,000, charge 3 × 15,000.
    expect((await pending(sub.id)).map((p) => [p.kind, p.quantity, p.amount])).toEqual([
      ['proration', 1, -15_000],
      ['proration', 3, 45_000],
    ]);
    const [event] = (await eventsOf(t, tenant, 'customer.subscription.updated')).filter(
      (e) => e.data.object.id === sub.id,
    );
    expect(event.data.previous_attributes).toEqual({ items: sub.items });

    const quiet = await update(sub.id, { items: [{ id: itemId, quantity: 4 }], proration_behavior: 'none' });
    expect(quiet.status).toBe(200);
    expect(await pending(sub.id)).toHaveLength(2);

    const second = await createPrice(t, tenant, { unit_amount: 9_999 });
    const added = await update(sub.id, { items: [{ price_id: second.id }] });
    expect(added.body.items.data).toHaveLength(2);
    // 9,999 × 15/30 = 4,999.5 -> 5,000 (half up).
    expect((await pending(sub.id)).slice(2).map((p) => p.amount)).toEqual([5_000]);
    const removed = await update(sub.id, { items: [{ id: added.body.items.data[1].id, deleted: true }] });
    expect(removed.body.items.data).toHaveLength(1);
    expect((await pending(sub.id)).slice(3).map((p) => p.amount)).toEqual([-5_000]);

    // A tiered (volume) price is costed by the catalog's rating: 1 unit at 10.00, 10 units at 8.00 each.
    const volume = await createPrice(t, tenant, {
      extra: {
        billing_scheme: 'tiered',
        tiers_mode: 'volume',
        tiers: [
          { up_to: 5, unit_amount: 1_000 },
          { up_to: 'inf', unit_amount: 800 },
        ],
      },
    });
    const tiered = await update(sub.id, { items: [{ price_id: volume.id }] });
    const tieredItem = tiered.body.items.data.find((i: { price_id: string }) => i.price_id === volume.id);
    await update(sub.id, { items: [{ id: tieredItem.id, quantity: 10 }] });
    // Half the period: +500 for the added unit; then -500 for 1 unit and +4,000 for 10 units.
    expect((await pending(sub.id)).slice(4).map((p) => p.amount)).toEqual([500, -500, 4_000]);
    await update(sub.id, { items: [{ id: tieredItem.id, deleted: true }] });

    expectErrorObject((await update(sub.id, { items: [{ id: itemId, deleted: true }] })).body, 'E7724');
    expectErrorObject((await update(sub.id, { items: [{ id: sub.id, quantity: 2 }] })).body, 'E7725');
    const yearly = await createPrice(t, tenant, { interval: 'year' });
    expectErrorObject((await update(sub.id, { items: [{ price_id: yearly.id }] })).body, 'E7713');
    expectErrorObject((await update(sub.id, { items: [{ price_id: monthly.id }] })).body, 'E7716');
  });

  it('cancels now (E7722 after), and credits unused time with prorate', async () => {
    const clock = await createClock(t, tenant, '2026-06-01T00:00:00.000Z');
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const sub = (
      await subscribe({
        customer_id: customer.id,
        items: [{ price_id: monthly.id }],
        collection_method: 'send_invoice',
      })
    ).body;
    await advanceClock(t, tenant, clock.id, '2026-06-16T00:00:00.000Z');
    const cancel = (body: object) =>
      t.http
        .post(tenant.path(`/subscriptions/${sub.id}/cancel`))
        .set(tenant.as('test'))
        .send(body);
    const canceled = await cancel({ prorate: true });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      status: 'canceled',
      canceled_at: '2026-06-16T00:00:00.000Z',
      ended_at: '2026-06-16T00:00:00.000Z',
    });
    expect((await pending(sub.id)).map((p) => p.amount)).toEqual([-15_000]);
    const [deleted] = await eventsOf(t, tenant, 'customer.subscription.deleted');
    expect(deleted.data.object).toEqual(canceled.body);
    const again = await cancel({});
    expect(again.status).toBe(409);
    expectErrorObject(again.body, 'E7722');
    expectErrorObject((await update(sub.id, { metadata: { a: 'b' } })).body, 'E7722');
  });

  it('cancels at period end on the clock, and refuses changes while the clock advances', async () => {
    const clock = await createClock(t, tenant, '2026-07-01T00:00:00.000Z');
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const sub = (
      await subscribe({
        customer_id: customer.id,
        items: [{ price_id: monthly.id }],
        collection_method: 'send_invoice',
      })
    ).body;
    const set = await update(sub.id, { cancel_at_period_end: true, metadata: { reason: 'too expensive' } });
    expect(set.body).toMatchObject({
      cancel_at_period_end: true,
      canceled_at: '2026-07-01T00:00:00.000Z',
      metadata: { reason: 'too expensive' },
    });
    const started = await t.http
      .post(tenant.path(`/test_helpers/test_clocks/${clock.id}/advance`))
      .set(tenant.as('test'))
      .send({ frozen_time: '2026-08-05T00:00:00.000Z' });
    expect(started.body.status).toBe('advancing');
    const busy = await update(sub.id, { metadata: { x: '1' } });
    expect(busy.status).toBe(409);
    expectErrorObject(busy.body, 'E7702');
    expectErrorObject((await subscribe({ customer_id: customer.id, items: [{ price_id: monthly.id }] })).body, 'E7702');
    await runSubscriptionsJob(t, tenant);
    expect(await read(sub.id)).toMatchObject({ status: 'canceled', ended_at: '2026-08-01T00:00:00.000Z' });
  });

  it('cancels the subscriptions of a deleted test clock, keeping them', async () => {
    const clock = await createClock(t, tenant, '2026-09-01T00:00:00.000Z');
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const sub = (
      await subscribe({ customer_id: customer.id, items: [{ price_id: monthly.id }], trial_period_days: 30 })
    ).body;
    expect(
      (await t.http.delete(tenant.path(`/test_helpers/test_clocks/${clock.id}`)).set(tenant.as('test'))).status,
    ).toBe(200);
    expect(await read(sub.id)).toMatchObject({ status: 'canceled', ended_at: '2026-09-01T00:00:00.000Z' });
  });

  it('lists by customer, status and price', async () => {
    const own = await createTenant(t);
    const a = await createPrice(t, own);
    const b = await createPrice(t, own);
    const c1 = await createCustomer(t, own);
    const c2 = await createCustomer(t, own);
    const s1 = (await subscribe({ customer_id: c1.id, items: [{ price_id: a.id }], trial_period_days: 7 }, own)).body;
    const s2 = (await subscribe({ customer_id: c2.id, items: [{ price_id: b.id }] }, own)).body;
    const list = async (query: Record<string, string>) =>
      (await t.http.get(own.path('/subscriptions')).query(query).set(own.as('test'))).body.data.map(
        (s: { id: string }) => s.id,
      );
    expect(await list({ customer: c1.id })).toEqual([s1.id]);
    expect(await list({ status: 'incomplete' })).toEqual([s2.id]);
    expect(await list({ price: b.id })).toEqual([s2.id]);
    expect(await list({ 'filter[status]': 'trialing' })).toEqual([s1.id]);
    expect((await list({})).sort()).toEqual([s1.id, s2.id].sort());
    const bad = await t.http.get(own.path('/subscriptions')).query({ status: 'sleeping' }).set(own.as('test'));
    expect(bad.status).toBe(400);
  });

  it('serves live mode with live records, and a live customer has no test clock', async () => {
    const livePrice = await createPrice(t, tenant, { mode: 'live' });
    const customer = await createCustomer(t, tenant, {}, 'live');
    const res = await subscribe({ customer_id: customer.id, items: [{ price_id: livePrice.id }] }, tenant, 'live');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ livemode: true, test_clock: null, status: 'incomplete' });
  });

  it('takes as default_payment_method only an attached, unexpired card of the customer (E7030, E7031, E7077)', async () => {
    const { customer, paymentMethod } = await customerWithCard(t, tenant);
    const other = await customerWithCard(t, tenant);
    // A card valid through this month next year, saved through a setup checkout's page.
    const now = t.clock.now();
    const checkout = await setupCheckout(t, tenant, customer.id);
    const token = await tokenize(
      t,
      tenant,
      checkout,
      card(SAVED_CARDS.succeeds, { exp_month: now.getUTCMonth() + 1, exp_year: now.getUTCFullYear() + 1 }).card,
    );
    const shortLived = (
      await t.http
        .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
        .set(asSession(checkout.session))
        .send({ payment_method_type: 'card', token: token.body.id })
    ).body.payment_method as { id: string };
    const items = [{ price_id: monthly.id }];
    const base = { customer_id: customer.id, items, collection_method: 'send_invoice' };

    const unknown = await subscribe({ ...base, default_payment_method: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' });
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E7030');
    expectErrorObject((await subscribe({ ...base, default_payment_method: other.paymentMethod.id })).body, 'E7031');

    const created = await subscribe({ ...base, default_payment_method: paymentMethod.id });
    expect(created.body).toMatchObject({ status: 'active', default_payment_method: paymentMethod.id });
    const id = created.body.id as string;
    expectErrorObject((await update(id, { default_payment_method: other.paymentMethod.id })).body, 'E7031');
    expect((await update(id, { default_payment_method: shortLived.id })).body).toMatchObject({
      default_payment_method: shortLived.id,
    });

    // Past the end of its expiry month, the card is no default any more, here or on the customer.
    t.clock.advance(400 * 86_400_000);
    expectErrorObject((await update(id, { default_payment_method: shortLived.id })).body, 'E7077');
    expectErrorObject((await subscribe({ ...base, default_payment_method: shortLived.id })).body, 'E7077');
    const onCustomer = await t.http
      .post(tenant.path(`/customers/${customer.id}`))
      .set(tenant.as('test'))
      .send({ invoice_settings: { default_payment_method: shortLived.id } });
    expectErrorObject(onCustomer.body, 'E7077');
    t.clock.reset();

    const detached = await t.http
      .post(tenant.path(`/payment_methods/${paymentMethod.id}/detach`))
      .set(tenant.as('test'))
      .send({});
    expect(detached.status).toBe(200);
    expectErrorObject((await update(id, { default_payment_method: paymentMethod.id })).body, 'E7031');
    expect(await read(id)).toMatchObject({ default_payment_method: shortLived.id });
  });
});
