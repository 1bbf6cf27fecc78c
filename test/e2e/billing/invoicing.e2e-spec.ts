import { advanceClock, createClock, createCustomer, createPrice, eventsOf } from '../../factories/subscriptions.js';
import {
  DAY_MS,
  daysAgo,
  meterTime,
  runInvoicingJob,
  testSql,
  usageDigest,
  verifyInvoice,
} from '../../factories/invoicing.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * The life of a period (docs/BILLING.md): a weekly subscription on a test clock with one licensed
 * and one metered price (graduated tiers) and Thai VAT, events across the period (a duplicate, one
 * out of order, one in the grace window), the close, the grace finalization, a late event billed on
 * the next invoice, each total against a hand computation.
 */

/** The invoices a period close made (not a subscription's first, `subscription_create`). */
interface ListedInvoice {
  id: string;
  billing_reason: string | null;
  total: number;
  [field: string]: unknown;
}
const cycle = (invoices: ListedInvoice[]): ListedInvoice[] =>
  invoices.filter((i) => i.billing_reason === 'subscription_cycle');

describe('invoicing: period close', () => {
  let t: TestApp;
  let tenant: Tenant;

  const get = (path: string, query: Record<string, string | number> = {}) =>
    t.http.get(tenant.path(path)).query(query).set(tenant.as('test'));
  const post = (path: string, body: object) => t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
  });
  afterAll(() => t.close());

  /** Graduated: the first 10 units free, 5.00 THB each up to 100, 2.00 THB beyond. */
  const TIERS = [
    { up_to: 10, unit_amount: 0 },
    { up_to: 100, unit_amount: 500 },
    { up_to: 'inf', unit_amount: 200 },
  ];

  it('closes a week into one invoice, takes grace-window events, bills a late event on the next invoice', async () => {
    const start = daysAgo(t, 10);
    const at = (days: number) => new Date(start.getTime() + days * DAY_MS);
    const clock = await createClock(t, tenant, start.toISOString());
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const licensed = await createPrice(t, tenant, { interval: 'week', unit_amount: 10_000 });
    const metered = (await createPrice(t, tenant, {
      interval: 'week',
      usage_type: 'metered',
      extra: { billing_scheme: 'tiered', tiers_mode: 'graduated', tiers: TIERS },
    })) as { id: string; recurring: { meter_id: string } };
    const meter = (await get(`/meters/${metered.recurring.meter_id}`)).body as { event_name: string };
    const vat = (await post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' }))
      .body as { id: string };
    const created = await post('/subscriptions', {
      customer_id: customer.id,
      items: [{ price_id: licensed.id, quantity: 2 }, { price_id: metered.id }],
      collection_method: 'send_invoice',
      default_tax_rates: [vat.id],
    });
    expect(created.status).toBe(200);
    const sub = created.body as { id: string; current_period_end: string };
    expect(sub.current_period_end).toBe(at(7).toISOString());

    const accepted: Array<{ id: string; value: string }> = [];
    const send = async (identifier: string, when: Date, calls: string) => {
      const res = await post('/meter_events', {
        event_name: meter.event_name,
        customer_id: customer.id,
        identifier: `${identifier}-${customer.id}`,
        timestamp: meterTime(when),
        payload: { calls },
      });
      expect(res.status).toBe(200);
      return res.body as { id: string };
    };
    for (const [identifier, day, calls] of [
      ['a1', 1, '30'],
      ['a2', 2, '50'],
      ['a3', 3, '25'],
      ['a4', 0.5, '5'], // out of order
    ] as const) {
      accepted.push({ id: (await send(identifier, at(day), calls)).id, value: calls });
    }
    const repeat = await send('a2', at(2), '999'); // same identifier: the original, not a second event
    expect(repeat.id).toBe(accepted[1].id);

    // The upcoming invoice shows the usage so far: 110 calls.
    const upcoming = await get('/invoices/upcoming', { subscription_id: sub.id });
    expect(upcoming.status).toBe(200);
    const upcomingUsage = upcoming.body.lines.find((l: { type: string }) => l.type === 'metered');
    expect(upcomingUsage).toMatchObject({ amount: 47_000, usage: { event_count: 4, quantity: '110' } });

    // The clock passes the period end: the close makes one draft invoice.
    await advanceClock(t, tenant, clock.id, new Date(at(7).getTime() + 30 * 60_000).toISOString());
    // The subscription's first invoice (subscription_create, billed when it was created) is
    // collection's; this file follows the period's invoices.
    const listed = cycle((await get('/invoices', { 'filter[customer_id]': customer.id })).body.data);
    expect(listed).toHaveLength(1);
    const draft = listed[0];
    expect(draft).toMatchObject({
      status: 'draft',
      subscription: sub.id,
      billing_reason: 'subscription_cycle',
      period_start: at(0).toISOString(),
      period_end: at(7).toISOString(),
    });
    expect((await eventsOf(t, tenant, 'invoice.created')).map((e) => e.data.object.id)).toContain(draft.id);

    // An event of the closed period arriving within the grace window lands on this invoice.
    accepted.push({ id: (await send('a5', at(6), '10')).id, value: '10' });
    expect((await runInvoicingJob(t, tenant)).finalized).toBe(0); // the grace hour has not passed
    await advanceClock(t, tenant, clock.id, new Date(at(7).getTime() + 2 * 3_600_000).toISOString());
    expect((await runInvoicingJob(t, tenant)).finalized).toBe(1);

    // 120 calls: 10 free + 90 x 5.00 + 20 x 2.00 = 490.00; 2 x 100.00 for the next week; VAT 7% per line.
    const licensedAmount = 20_000;
    const usageAmount = 90 * 500 + 20 * 200;
    const tax = Math.round(licensedAmount * 0.07) + Math.round(usageAmount * 0.07);
    const first = (await get(`/invoices/${draft.id}`)).body;
    expect(first).toMatchObject({ status: 'open', subtotal: licensedAmount + usageAmount });
    expect(first.total).toBe(licensedAmount + usageAmount + tax);
    expect(first.total).toBe(73_830);

    const lines = (await get(`/invoices/${draft.id}/lines`, { 'use-cursor': 'true', limit: 10 })).body;
    expect(lines.data).toHaveLength(2);
    const usageLine = lines.data.find((l: { type: string }) => l.type === 'metered');
    expect(usageLine).toMatchObject({
      object: 'line_item',
      amount: usageAmount,
      quantity: 120,
      period: { start: at(0).toISOString(), end: at(7).toISOString() },
      usage: { aggregation: 'sum', event_count: 5, quantity: '120', digest: usageDigest(accepted) },
    });
    expect(lines.data.find((l: { type: string }) => l.type === 'subscription')).toMatchObject({
      amount: licensedAmount,
      quantity: 2,
      period: { start: at(7).toISOString(), end: at(14).toISOString() },
    });

    // The line's meter events, two at a time by cursor: exactly the accepted ones.
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await get(`/invoices/${draft.id}/lines/${usageLine.id}/meter_events`, {
        'use-cursor': 'true',
        limit: 2,
        ...(after ? { starting_after: after } : {}),
      });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((e: { id: string }) => e.id));
      if (!page.body.has_more) break;
      after = page.body.data.at(-1).id;
    }
    expect(seen.sort()).toEqual(accepted.map((e) => e.id).sort());
    expect((await verifyInvoice(t, draft.id)).differences).toEqual([]);

    // A late event of the finalized week goes on the next invoice, on its own line.
    const late = await send('late', at(4), '7');
    await send('b1', at(8), '3');
    await advanceClock(t, tenant, clock.id, new Date(at(14).getTime() + 2 * 3_600_000).toISOString());
    expect((await runInvoicingJob(t, tenant)).finalized).toBe(1);
    const both = cycle(
      (await get('/invoices', { 'filter[customer_id]': customer.id, sort: 'created_at:asc' })).body.data,
    );
    expect(both).toHaveLength(2);
    const second = both[1];
    expect(second).toMatchObject({
      status: 'open',
      period_start: at(7).toISOString(),
      period_end: at(14).toISOString(),
    });
    const secondLines = (await get(`/invoices/${second.id}/lines`)).body.data as Array<
      Record<string, unknown> & { type: string }
    >;
    const earlier = secondLines.find((l) => l.type === 'metered_earlier')!;
    // 7 more calls on top of the 120 billed: all in the 2.00 tier.
    expect(earlier).toMatchObject({
      amount: 1_400,
      earlier_line: usageLine.id,
      period: { start: at(0).toISOString(), end: at(7).toISOString() },
      usage: { event_count: 1, quantity: '7', digest: usageDigest([{ id: late.id, value: '7' }]) },
    });
    expect(secondLines.find((l) => l.type === 'metered')).toMatchObject({ amount: 0, usage: { quantity: '3' } });
    expect(second.total).toBe(20_000 + 1_400 + 1_400 + 98);
    // The first invoice did not change.
    expect((await get(`/invoices/${draft.id}`)).body.total).toBe(73_830);
    for (const id of [draft.id, second.id]) expect((await verifyInvoice(t, id)).differences).toEqual([]);

    // The database refuses to count an event in a second line.
    await expect(
      testSql(
        t,
        `INSERT INTO wallet_test.meter_event_billings (event_id, application_id, line_id, invoice_id, created_at)
         VALUES ($1, $2, $3, $4, now())`,
        [late.id, tenant.applicationId, usageLine.id, draft.id],
      ),
    ).rejects.toThrow();
  });

  it('finalizes an invoice of zero and marks it paid without a charge', async () => {
    const start = daysAgo(t, 10);
    const clock = await createClock(t, tenant, start.toISOString());
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const metered = await createPrice(t, tenant, { interval: 'week', usage_type: 'metered', unit_amount: 100 });
    const created = await post('/subscriptions', {
      customer_id: customer.id,
      items: [{ price_id: metered.id }],
      collection_method: 'send_invoice',
    });
    expect(created.status).toBe(200);
    await advanceClock(t, tenant, clock.id, new Date(start.getTime() + 7 * DAY_MS + 2 * 3_600_000).toISOString());
    await runInvoicingJob(t, tenant);
    const [invoice] = cycle((await get('/invoices', { 'filter[customer_id]': customer.id })).body.data);
    expect(invoice).toMatchObject({ status: 'paid', total: 0, amount_paid: 0, charge_id: null });
    const paid = await eventsOf(t, tenant, 'invoice.paid');
    expect(paid.map((e) => e.data.object.id)).toContain(invoice.id);
  });

  it('billing:verify reports a tampered line', async () => {
    const [invoice] = cycle((await get('/invoices', { 'filter[status]': 'open' })).body.data);
    const [line] = (await get(`/invoices/${invoice.id}/lines`, { 'filter[type]': 'metered' })).body.data;
    await testSql(t, `UPDATE wallet_test.invoice_lines SET usage_quantity = usage_quantity + 1 WHERE id = $1`, [
      line.id,
    ]);
    const report = await verifyInvoice(t, invoice.id);
    expect(report.differences).toEqual([
      expect.objectContaining({ invoice: invoice.id, line: line.id, field: 'usage.quantity' }),
    ]);
  });

  it('invoices an always_invoice update at once, and a cancel with invoice_now: usage to the cancel, prorated credit', async () => {
    const start = daysAgo(t, 20);
    const at = (days: number) => new Date(start.getTime() + days * DAY_MS);
    const clock = await createClock(t, tenant, start.toISOString());
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const licensed = await createPrice(t, tenant, { unit_amount: 30_000 });
    const metered = (await createPrice(t, tenant, { usage_type: 'metered', unit_amount: 100 })) as {
      id: string;
      recurring: { meter_id: string };
    };
    const meter = (await get(`/meters/${metered.recurring.meter_id}`)).body as { event_name: string };
    const created = await post('/subscriptions', {
      customer_id: customer.id,
      items: [{ price_id: licensed.id }, { price_id: metered.id }],
      collection_method: 'send_invoice',
    });
    expect(created.status).toBe(200);
    const sub = created.body as {
      id: string;
      items: { data: Array<{ id: string; price_id: string }> };
      current_period_end: string;
    };
    const periodMs = Date.parse(sub.current_period_end) - start.getTime();
    // round_half_up(amount x remaining / period), whole seconds (docs/BILLING.md, "Changes and prorations").
    const prorated = (amount: number, from: Date) => {
      const remaining = BigInt(Date.parse(sub.current_period_end) - from.getTime()) / 1000n;
      const n = BigInt(amount) * remaining;
      const d = BigInt(periodMs) / 1000n;
      return Number((2n * n + d) / (2n * d));
    };
    for (const [day, calls] of [
      [2, '5'],
      [12, '7'],
    ] as const) {
      const res = await post('/meter_events', {
        event_name: meter.event_name,
        customer_id: customer.id,
        identifier: `cancel-${day}-${customer.id}`,
        timestamp: meterTime(at(day)),
        payload: { calls },
      });
      expect(res.status).toBe(200);
    }

    // Day 10: 1 -> 3 licensed units, invoiced at once.
    await advanceClock(t, tenant, clock.id, at(10).toISOString());
    const itemId = sub.items.data.find((i) => i.price_id === licensed.id)!.id;
    const updated = await post(`/subscriptions/${sub.id}`, {
      items: [{ id: itemId, quantity: 3 }],
      proration_behavior: 'always_invoice',
    });
    expect(updated.status).toBe(200);
    const updateTotal = -prorated(30_000, at(10)) + prorated(90_000, at(10));
    const updateInvoice = (await get(`/invoices/${updated.body.latest_invoice}`)).body;
    expect(updateInvoice).toMatchObject({
      billing_reason: 'subscription_update',
      status: 'open',
      total: updateTotal,
      amount_due: updateTotal,
      period_start: at(10).toISOString(),
      collection_method: 'send_invoice',
    });
    const billed = (await get(`/subscriptions/${sub.id}/pending_items`)).body.data as Array<{ invoice_id: string }>;
    expect(billed.map((p) => p.invoice_id)).toEqual([updateInvoice.id, updateInvoice.id]);

    // Day 15: canceled with a final invoice: 12 calls x 1.00 until now, credit for 3 units' unused time.
    await advanceClock(t, tenant, clock.id, at(15).toISOString());
    const canceled = await post(`/subscriptions/${sub.id}/cancel`, { invoice_now: true, prorate: true });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', latest_invoice: expect.any(String) });
    const cancelTotal = 1_200 - prorated(90_000, at(15));
    const final = (await get(`/invoices/${canceled.body.latest_invoice}`)).body;
    expect(final).toMatchObject({
      billing_reason: 'subscription_cancel',
      period_start: start.toISOString(),
      period_end: at(15).toISOString(),
      total: cancelTotal,
      amount_due: 0,
      status: 'paid',
    });
    const lines = (await get(`/invoices/${final.id}/lines`)).body.data as Array<Record<string, unknown>>;
    expect(lines.find((l) => l.type === 'metered')).toMatchObject({
      amount: 1_200,
      usage: { event_count: 2, quantity: '12' },
    });
    expect(lines.find((l) => l.type === 'proration')).toMatchObject({ amount: -prorated(90_000, at(15)) });
    for (const id of [updateInvoice.id, final.id]) expect((await verifyInvoice(t, id)).differences).toEqual([]);
  });

  it('answers 404 for the lines of an unknown invoice and the upcoming invoice of an unknown subscription', async () => {
    const unknown = '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b';
    const lines = await get(`/invoices/${unknown}/lines`);
    expect(lines.status).toBe(404);
    expectErrorObject(lines.body, 'E4004');
    const upcoming = await get('/invoices/upcoming', { subscription_id: unknown });
    expect(upcoming.status).toBe(404);
    expectErrorObject(upcoming.body, 'E4004');
  });
});
