import fc from 'fast-check';
import { createClock, createCustomer, createPrice, runSubscriptionsJob } from '../../factories/subscriptions.js';
import { DAY_MS, daysAgo, meterTime, runInvoicingJob, usageDigest, verifyInvoice } from '../../factories/invoicing.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';

type Command =
  { kind: 'send'; identifier: number; hours: number; value: number } | { kind: 'close' } | { kind: 'restart' };

const HOURS = 19 * 24; // event timestamps in the first 19 days after the start (the service clock's past)

/**
 * Random event streams against the period close (docs/BILLING.md, "Each event in exactly one
 * line"): events with repeated identifiers and out-of-order timestamps, late ones for periods already
 * finalized, period closes run twice at once, and (on PostgreSQL) restarts of the service between
 * steps. Afterwards every accepted event is counted by exactly one invoice line, and every metered
 * line's count, quantity and digest recompute from the events it lists.
 */
describe('invoicing: each accepted event in exactly one line (property)', () => {
  let t: TestApp;
  let tenant: Tenant;
  const restartable = Boolean(process.env.DATABASE_URL);

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
  });
  afterAll(() => t.close());

  const get = (path: string, query: Record<string, string | number> = {}) =>
    t.http.get(tenant.path(path)).query(query).set(tenant.as('test'));

  const command: fc.Arbitrary<Command> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('send' as const),
        identifier: fc.integer({ min: 0, max: 7 }),
        hours: fc.integer({ min: 0, max: HOURS }),
        value: fc.integer({ min: 1, max: 20 }),
      }),
    },
    { weight: 2, arbitrary: fc.constant({ kind: 'close' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
  );

  it('bills every accepted event once, with recomputable quantities and digests', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 4, maxLength: 10 }), async (commands) => {
        run += 1;
        const start = daysAgo(t, 20);
        const clock = await createClock(t, tenant, start.toISOString());
        const customer = await createCustomer(t, tenant, { test_clock: clock.id });
        const price = (await createPrice(t, tenant, { interval: 'week', usage_type: 'metered', unit_amount: 100 })) as {
          id: string;
          recurring: { meter_id: string };
        };
        const meter = (await get(`/meters/${price.recurring.meter_id}`)).body as { event_name: string };
        const sub = await t.http
          .post(tenant.path('/subscriptions'))
          .set(tenant.as('test'))
          .send({ customer_id: customer.id, items: [{ price_id: price.id }], collection_method: 'send_invoice' });
        expect(sub.status).toBe(200);

        const accepted = new Map<string, string>(); // event id -> value
        let closes = 0;
        const close = async () => {
          closes += 1;
          const to = new Date(start.getTime() + closes * 7 * DAY_MS + 2 * 3_600_000).toISOString();
          const res = await t.http
            .post(tenant.path(`/test_helpers/test_clocks/${clock.id}/advance`))
            .set(tenant.as('test'))
            .send({ frozen_time: to });
          expect(res.status).toBe(200);
          // Two replicas at once: claims are SKIP LOCKED, the period's invoice is unique.
          await Promise.all([runSubscriptionsJob(t, tenant), runSubscriptionsJob(t, tenant)]);
          await Promise.all([runInvoicingJob(t, tenant), runInvoicingJob(t, tenant)]);
        };
        for (const c of commands) {
          if (c.kind === 'send') {
            const res = await t.http
              .post(tenant.path('/meter_events'))
              .set(tenant.as('test'))
              .send({
                event_name: meter.event_name,
                customer_id: customer.id,
                identifier: `r${run}-${c.identifier}-${customer.id}`,
                timestamp: meterTime(new Date(start.getTime() + c.hours * 3_600_000)),
                payload: { calls: String(c.value) },
              });
            expect(res.status).toBe(200);
            if (!accepted.has(res.body.id)) accepted.set(res.body.id, String(c.value));
          } else if (c.kind === 'close' && closes < 2) {
            await close();
          } else if (c.kind === 'restart' && restartable) {
            await t.close();
            t = await startApp({ rateLimit: false });
          }
        }
        // Every event is at most 19 days after the start: closing the first four weeks bills them all.
        while (closes < 4) await close();

        const invoices = (await get('/invoices', { 'filter[customer_id]': customer.id, limit: 100 })).body
          .data as Array<{
          id: string;
          period_start: string;
        }>;
        expect(invoices).toHaveLength(4);
        expect(new Set(invoices.map((i) => i.period_start)).size).toBe(4);
        const counted: string[] = [];
        for (const invoice of invoices) {
          const lines = (await get(`/invoices/${invoice.id}/lines`, { limit: 100 })).body.data as Array<{
            id: string;
            type: string;
            usage: { event_count: number; quantity: string; digest: string } | null;
          }>;
          for (const line of lines.filter((l) => l.usage)) {
            const events = (await get(`/invoices/${invoice.id}/lines/${line.id}/meter_events`, { limit: 100 })).body
              .data as Array<{ id: string; value: string }>;
            counted.push(...events.map((e) => e.id));
            expect(line.usage).toEqual({
              aggregation: 'sum',
              event_count: events.length,
              quantity: String(events.reduce((s, e) => s + Number(e.value), 0)),
              digest: usageDigest(events),
            });
            for (const e of events) expect(e.value).toBe(accepted.get(e.id));
          }
          expect((await verifyInvoice(t, invoice.id)).differences).toEqual([]);
        }
        expect(counted.sort()).toEqual([...accepted.keys()].sort());
      }),
      { numRuns: 3 },
    );
  });
});
