import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { newId } from '../../../src/common/ids.js';
import { CreditBalanceService } from '../../../src/modules/billing/index.js';
import { expectLedgerInvariants } from '../../support/ledger-invariants.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { createCustomer } from '../../factories/subscriptions.js';

let meters = 0;

/**
 * Meters with `enforce_credit` (docs/BILLING.md, "Prepaid credit"): an event whose rated cost would
 * take the customer's unbilled usage past its remaining credit is refused at ingestion with E8030,
 * exactly, under concurrency.
 */
describe('metering: prepaid credit enforcement', () => {
  let t: TestApp;
  let tenant: Tenant;
  /** A second instance on the same database (started by the first test), closed last: Passport's strategies are process-wide. */
  let replica: TestApp | undefined;

  const post = (path: string, body: object = {}) => t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  const inTest = <T>(work: () => Promise<T>) => t.app.get(RequestContext).runInMode('test', work);

  /** An enforced meter, a metered monthly price on it and a customer subscribed to it (send_invoice: active at once). */
  async function prepaid(price: Record<string, unknown>, options: { formula?: string } = {}) {
    meters += 1;
    const eventName = `enforced_${meters}`;
    const meter = await post('/meters', {
      display_name: 'Enforced',
      event_name: eventName,
      value_settings: { event_payload_key: 'units' },
      default_aggregation: { formula: options.formula ?? 'sum' },
    });
    expect(meter.body.enforce_credit).toBe(false);
    const enforced = await post(`/meters/${meter.body.id}`, { enforce_credit: true });
    expect(enforced.body).toMatchObject({ id: meter.body.id, enforce_credit: true });
    const product = await post('/products', { name: 'Prepaid plan' });
    const created = await post('/prices', {
      product_id: product.body.id,
      currency: 'THB',
      ...price,
      recurring: { interval: 'month', usage_type: 'metered', meter_id: meter.body.id },
    });
    expect(created.status).toBe(200);
    const customer = await createCustomer(t, tenant);
    const subscription = await post('/subscriptions', {
      customer_id: customer.id,
      items: [{ price_id: created.body.id }],
      collection_method: 'send_invoice',
    });
    expect(subscription.body.status).toBe('active');
    return {
      meterId: meter.body.id as string,
      eventName,
      priceId: created.body.id as string,
      customerId: customer.id,
      subscription: subscription.body as { id: string; current_period_start: string },
    };
  }
  const grant = (customerId: string, amount: number, extra: object = {}) =>
    post(`/customers/${customerId}/credit_grants`, { amount, currency: 'THB', ...extra }).then((r) => {
      expect(r.status).toBe(200);
      return r.body as { id: string };
    });
  const send = (eventName: string, customerId: string, units = '1', identifier?: string) =>
    post('/meter_events', {
      event_name: eventName,
      customer_id: customerId,
      payload: { units },
      ...(identifier ? { identifier } : {}),
    });
  const creditBalance = async (customerId: string) => {
    const res = await get('/balances').query({
      'filter[customer_id]': customerId,
      'filter[account]': 'customer_credit',
    });
    return res.body.data.map((b: { available: string }) => Number(b.available));
  };
  const storedEvents = (customerId: string) =>
    inTest(() =>
      t.app
        .get(ModeDb)
        .manager.query(
          `SELECT count(*)::int AS n, coalesce(sum(value), 0)::text AS total FROM wallet_test.meter_events WHERE customer_id = $1`,
          [customerId],
        ),
    ).then((rows: Array<{ n: number; total: string }>) => rows[0]);

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await replica?.close();
    await t.close();
  });

  it('accepts exactly the events that fit when 64 clients send at once through two replicas, and refuses the rest with E8030', async () => {
    const { eventName, customerId } = await prepaid({ unit_amount: 250 });
    await grant(customerId, 10 * 250);
    // A second instance on the same database, with its own in-process queue: the two batch their
    // own requests, and only the database's row locks keep them from admitting the same credit twice.
    replica = await startApp({ rateLimit: false });
    const through = (app: TestApp) =>
      app.http
        .post(tenant.path('/meter_events'))
        .set(tenant.as('test'))
        .send({ event_name: eventName, customer_id: customerId, payload: { units: '1' } });
    const answers = await Promise.all(Array.from({ length: 64 }, (_, i) => through(i % 2 === 0 ? t : replica!)));
    const accepted = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status !== 200);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(54);
    for (const r of refused) {
      expect(r.status).toBe(402);
      expectErrorObject(r.body, 'E8030');
    }
    expect(await storedEvents(customerId)).toEqual({ n: 10, total: '10' });
    expect(await creditBalance(customerId)).toEqual([2_500]);
    const [usage] = await inTest(() =>
      t.app
        .get(ModeDb)
        .manager.query(`SELECT unbilled::int AS unbilled FROM wallet_test.credit_usage WHERE customer_id = $1`, [
          customerId,
        ]),
    );
    expect(usage).toEqual({ unbilled: 2_500 });
    // The credit is used up: one more unit is refused, a repeat of an accepted identifier still answers.
    expect((await send(eventName, customerId)).status).toBe(402);
  });

  it('answers a repeated identifier with the original event and counts its cost once', async () => {
    const { eventName, customerId } = await prepaid({ unit_amount: 100 });
    await grant(customerId, 300);
    const identifier = `once-${newId()}`;
    const [first, ...repeats] = await Promise.all(
      Array.from({ length: 8 }, () => send(eventName, customerId, '2', identifier)),
    );
    expect(first.status).toBe(200);
    for (const r of repeats) expect(r.body.id).toBe(first.body.id);
    // 200 of 300 used: one more unit fits, two do not.
    expect((await send(eventName, customerId, '2')).status).toBe(402);
    expect((await send(eventName, customerId, '1')).status).toBe(200);
  });

  it('rates a graduated price at the marginal cost of the tier each event lands in', async () => {
    const { eventName, customerId } = await prepaid({
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      tiers: [
        { up_to: 5, unit_amount: 100 },
        { up_to: 'inf', unit_amount: 10 },
      ],
    });
    await grant(customerId, 560);
    // 5 units cost 500; each unit beyond costs 10: 6 more fit in the 60 left, the 7th does not.
    expect((await send(eventName, customerId, '5')).status).toBe(200);
    expect((await send(eventName, customerId, '6')).status).toBe(200);
    const refused = await send(eventName, customerId, '1');
    expect(refused.status).toBe(402);
    expect(refused.body.message).toContain('costs 10 THB');
  });

  it('counts only credit usable for the price and not expired', async () => {
    const { eventName, customerId } = await prepaid({ unit_amount: 100 });
    const other = await prepaid({ unit_amount: 100 });
    await grant(customerId, 10_000, { applicability: { price_ids: [other.priceId] } });
    expect((await send(eventName, customerId)).status).toBe(402);
    await grant(customerId, 100, { expires_at: new Date(t.clock.nowMs() + 60_000).toISOString() });
    t.clock.advance(60_000);
    expect((await send(eventName, customerId)).status).toBe(402);
    await grant(customerId, 100);
    expect((await send(eventName, customerId)).status).toBe(200);
  });

  it('refuses an enforced event of a customer without a subscription price on the meter with E8031', async () => {
    const { eventName } = await prepaid({ unit_amount: 100 });
    const stranger = await createCustomer(t, tenant);
    await grant(stranger.id, 10_000);
    const res = await send(eventName, stranger.id);
    expect(res.status).toBe(402);
    expectErrorObject(res.body, 'E8031');
  });

  it('answers each event of a batch on its own, in order, against the credit left by the ones before', async () => {
    const { eventName, customerId } = await prepaid({ unit_amount: 100 });
    await grant(customerId, 250);
    const plainMeter = await post('/meters', {
      display_name: 'Plain',
      event_name: `plain_${newId()}`,
      value_settings: { event_payload_key: 'units' },
    });
    const event = (name: string, units: string) => ({ event_name: name, customer_id: customerId, payload: { units } });
    const res = await post('/meter_events/batch', {
      events: [
        event(eventName, '1'),
        event(plainMeter.body.event_name, '1000'),
        event(eventName, '2'),
        event(eventName, '1'),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { object: string; code?: string }) => d.code ?? d.object)).toEqual([
      'meter_event',
      'meter_event',
      'E8030',
      'meter_event',
    ]);
  });

  it("frees the period's reserved usage when its invoice draws the credit", async () => {
    const { eventName, customerId, priceId, subscription } = await prepaid({ unit_amount: 100 });
    await grant(customerId, 500);
    expect((await send(eventName, customerId, '5')).status).toBe(200);
    expect((await send(eventName, customerId, '1')).status).toBe(402);
    const applied = await inTest(() =>
      t.app.get(ModeDb).transaction((manager) =>
        t.app.get(CreditBalanceService).applyToInvoice(manager, {
          id: newId(),
          application_id: tenant.applicationId,
          customer_id: customerId,
          currency: 'THB',
          at: t.clock.now(),
          lines: [{ price_id: priceId, amount: 500 }],
          subscription_id: subscription.id,
          period_start: new Date(subscription.current_period_start),
        }),
      ),
    );
    expect(applied).toMatchObject({ amount_applied: 500, usage_released: 500 });
    expect(await creditBalance(customerId)).toEqual([0]);
    // Billed and paid: the next unit needs new credit.
    expect((await send(eventName, customerId, '1')).status).toBe(402);
    await grant(customerId, 100);
    expect((await send(eventName, customerId, '1')).status).toBe(200);
  });
});
