import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { newId } from '../../../src/common/ids.js';
import { MeterEventForwardingJob, SandboxBillingProvider } from '../../../src/modules/meter/index.js';
import { MeterEventsRepository } from '../../../src/modules/meter/meter-events.repository.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { createUser, tokensFor } from '../../factories/auth.js';

const DAY = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
const stamp = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

describe('metering: customers, meters and meter events', () => {
  let t: TestApp;
  let tenant: Tenant;
  let customerId: string;

  const sandbox = () => t.app.get(SandboxBillingProvider);
  const inTest = <T>(fn: () => Promise<T>) => t.app.get(RequestContext).runInMode('test', fn);
  const forwarder = () => t.app.get(MeterEventForwardingJob);

  const createMeter = (body: object) => t.http.post(tenant.path('/meters')).set(tenant.as('test')).send(body);
  const sendEvent = (body: object) => t.http.post(tenant.path('/meter_events')).set(tenant.as('test')).send(body);

  beforeAll(async () => {
    t = await startApp({ rateLimit: false, liveDoubles: true });
    tenant = await createTenant(t);
    const customer = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Metered' });
    customerId = customer.body.id;
    const meter = await createMeter({
      display_name: 'API calls',
      event_name: 'api_call',
      value_settings: { event_payload_key: 'calls' },
    });
    expect(meter.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('customers', () => {
    it('get a billing provider reference at creation, kept by the sandbox provider', async () => {
      const created = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Ref' });
      const rows = await inTest(() =>
        t.app.get(ModeDb).manager.query(
          `SELECT c.provider, c.provider_reference, s.reference FROM wallet_test.customers c
             JOIN wallet_test.billing_sandbox_customers s ON s.customer_id = c.id WHERE c.id = $1`,
          [created.body.id],
        ),
      );
      expect(rows).toEqual([
        {
          provider: 'sandbox',
          provider_reference: expect.stringMatching(/^cus_sbx_/),
          reference: rows[0].provider_reference,
        },
      ]);
    });
  });

  describe('meters', () => {
    it("have Stripe's shape and can be listed, retrieved and deactivated", async () => {
      const created = await createMeter({
        display_name: 'Storage',
        event_name: 'storage_gb',
        value_settings: { event_payload_key: 'gb' },
        default_aggregation: { formula: 'last' },
      });
      expect(created.body).toMatchObject({
        object: 'billing.meter',
        livemode: false,
        status: 'active',
        event_name: 'storage_gb',
        value_settings: { event_payload_key: 'gb' },
        default_aggregation: { formula: 'last' },
      });
      const got = await t.http.get(tenant.path(`/meters/${created.body.id}`)).set(tenant.as('test'));
      expect(got.body).toEqual(created.body);
      const list = await t.http.get(tenant.path('/meters?filter[event_name]=storage_gb')).set(tenant.as('test'));
      expect(list.body.data.map((m: { id: string }) => m.id)).toEqual([created.body.id]);
      const off = await t.http.post(tenant.path(`/meters/${created.body.id}/deactivate`)).set(tenant.as('test'));
      expect(off.body.status).toBe('inactive');
      const live = await t.http.get(tenant.path(`/meters/${created.body.id}`)).set(tenant.as('live'));
      expect(live.status).toBe(404);
    });

    it('refuse a second meter with the same event_name with E8010', async () => {
      const res = await createMeter({
        display_name: 'Again',
        event_name: 'api_call',
        value_settings: { event_payload_key: 'calls' },
      });
      expect(res.status).toBe(409);
      expectErrorObject(res.body, 'E8010');
    });
  });

  describe('POST /meter_events validation', () => {
    const valid = () => ({
      event_name: 'api_call',
      customer_id: customerId,
      payload: { calls: '3' },
      timestamp: stamp(t.clock.now()),
    });

    it.each([
      ['unknown meter', { event_name: 'nope' }, 'E8001'],
      ['missing payload key', { payload: { other: '1' } }, 'E8003'],
      ['extra payload key', { payload: { calls: '1', customer: 'x' } }, 'E8004'],
      ['value as a number', { payload: { calls: 3 } }, 'E8005'],
      ['value not numeric', { payload: { calls: 'three' } }, 'E8005'],
      ['timestamp without a time', { timestamp: '2026-11-22' }, 'E8006'],
      ['timestamp in RFC 3339 shape without a zone', { timestamp: '2026-11-22T10:00:00' }, 'E8006'],
      ['timestamp not a real date', { timestamp: '2026-02-30 10:00:00' }, 'E8006'],
      ['unknown customer', { customer_id: '01a20418-4ab4-705a-a7f8-4c16ae311668' }, 'E8008'],
      ['customer_id not an id', { customer_id: 'cus_123' }, 'E2000'],
      ['payload missing', { payload: undefined }, 'E2000'],
    ])('refuses %s', async (_name, change, code) => {
      const res = await sendEvent({ ...valid(), ...change });
      expect(res.status).toBe(400);
      expectErrorObject(res.body, code);
    });

    it('refuses timestamps more than 35 days back or 5 minutes ahead with E8007, and accepts the edges', async () => {
      // The edges are a second wide: the service must judge them at the instant the test computed.
      t.clock.freeze();
      try {
        const now = t.clock.nowMs();
        for (const ms of [now - 35 * DAY - 1000, now + 5 * 60 * 1000 + 1000]) {
          const res = await sendEvent({ ...valid(), timestamp: stamp(new Date(ms)) });
          expect(res.status).toBe(400);
          expectErrorObject(res.body, 'E8007');
        }
        for (const ms of [now - 35 * DAY + 2000, now + 4 * 60 * 1000]) {
          expect((await sendEvent({ ...valid(), timestamp: stamp(new Date(ms)) })).status).toBe(200);
        }
      } finally {
        t.clock.thaw();
      }
    });

    it('accepts RFC 3339 too (with an offset and a fraction) and stores the same instant, to the second', async () => {
      t.clock.freeze();
      try {
        const now = new Date(t.clock.nowMs() - (t.clock.nowMs() % 1000) - 60_000);
        const bangkok = `${new Date(now.getTime() + 7 * 3600_000).toISOString().slice(0, 19)}.250+07:00`;
        const res = await sendEvent({ ...valid(), timestamp: bangkok });
        expect(res.status).toBe(200);
        const stored = await t.http.get(tenant.path(`/meter_events/${res.body.id}`)).set(tenant.as('test'));
        expect(stored.body.timestamp).toBe(now.toISOString());
      } finally {
        t.clock.thaw();
      }
    });

    it('refuses an inactive meter with E8002', async () => {
      const meter = await createMeter({
        display_name: 'Old',
        event_name: 'old_event',
        value_settings: { event_payload_key: 'n' },
      });
      expect((await sendEvent({ ...valid(), event_name: 'old_event', payload: { n: '1' } })).status).toBe(200);
      await t.http.post(tenant.path(`/meters/${meter.body.id}/deactivate`)).set(tenant.as('test'));
      const res = await sendEvent({ ...valid(), event_name: 'old_event', payload: { n: '1' } });
      expectErrorObject(res.body, 'E8002');
    });

    it('refuses a customer without a provider reference with E8009', async () => {
      await inTest(() => sandbox().setFailing(tenant.applicationId, true));
      const customer = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'No ref' });
      await inTest(() => sandbox().setFailing(tenant.applicationId, false));
      expect(customer.status).toBe(200);
      const res = await sendEvent({ ...valid(), customer_id: customer.body.id });
      expectErrorObject(res.body, 'E8009');
    });

    it('refuses a member user (meter events are machine or superuser only) and accepts a superuser', async () => {
      const member = await tokensFor(t, await createUser(t, { member: tenant }));
      const refused = await t.http
        .post(tenant.path('/meter_events'))
        .set({ Authorization: `Bearer ${member.access_token}`, 'X-Test-Mode': 'true', 'X-Country': 'TH' })
        .send(valid());
      expect(refused.status).toBe(403);
      expectErrorObject(refused.body, 'E1300');
      const superuser = await tokensFor(t, await createUser(t, { superuser: true }));
      const accepted = await t.http
        .post(tenant.path('/meter_events'))
        .set({ Authorization: `Bearer ${superuser.access_token}`, 'X-Test-Mode': 'true', 'X-Country': 'TH' })
        .send(valid());
      expect(accepted.status).toBe(200);
    });
  });

  describe('ingestion', () => {
    it('answers with the generic creation response once stored, injecting payload.customer', async () => {
      const res = await sendEvent({
        event_name: 'api_call',
        customer_id: customerId,
        payload: { calls: '7' },
        identifier: 'evt-shape',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(String),
        object: 'meter_event',
        resource: `meter_events/${res.body.id}`,
        created_at: expect.any(String),
        errors: [],
        next_action: [],
      });
      const stored = await t.http.get(tenant.path(`/meter_events/${res.body.id}`)).set(tenant.as('test'));
      expect(stored.body.payload).toEqual({ calls: '7', customer: expect.stringMatching(/^cus_sbx_/) });
      expect(stored.body).toMatchObject({ identifier: 'evt-shape', livemode: false, delivery_status: 'pending' });
    });

    it('returns the original response to a repeated identifier', async () => {
      const first = await sendEvent({
        event_name: 'api_call',
        customer_id: customerId,
        payload: { calls: '1' },
        identifier: 'evt-repeat',
      });
      const again = await sendEvent({
        event_name: 'api_call',
        customer_id: customerId,
        payload: { calls: '1' },
        identifier: 'evt-repeat',
      });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
    });

    it('stores exactly one event for 50 concurrent requests with one identifier', async () => {
      const customer = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Concurrent' });
      const meter = await createMeter({
        display_name: 'Count',
        event_name: 'concurrent_count',
        value_settings: { event_payload_key: 'n' },
        default_aggregation: { formula: 'count' },
      });
      const body = {
        event_name: 'concurrent_count',
        customer_id: customer.body.id,
        payload: { n: '1' },
        identifier: 'evt-50',
      };
      const results = await Promise.all(Array.from({ length: 50 }, () => sendEvent(body)));
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
      const from = new Date(t.clock.nowMs() - DAY).toISOString();
      const to = new Date(t.clock.nowMs() + DAY).toISOString();
      const summary = await t.http
        .get(
          tenant.path(
            `/meters/${meter.body.id}/event_summaries?customer_id=${customer.body.id}&start_time=${from}&end_time=${to}&value_grouping_window=day`,
          ),
        )
        .set(tenant.as('test'));
      expect(summary.body.data.reduce((n: number, s: { aggregated_value: number }) => n + s.aggregated_value, 0)).toBe(
        1,
      );
    });

    it('keeps the events of concurrent requests of two applications apart when they are stored together', async () => {
      // Concurrent requests share storage statements (group commit): two applications sending the
      // same identifiers at once, singles and a batch, each get their own events and only those.
      const other = await createTenant(t);
      const setUp = async (who: Tenant) => {
        const customer = await t.http.post(who.path('/customers')).set(who.as('test')).send({ name: 'Grouped' });
        const meter = await t.http
          .post(who.path('/meters'))
          .set(who.as('test'))
          .send({
            display_name: 'Grouped',
            event_name: 'grouped',
            value_settings: { event_payload_key: 'n' },
            default_aggregation: { formula: 'count' },
          });
        return { customer: customer.body.id as string, meter: meter.body.id as string };
      };
      const created = [await setUp(tenant), await setUp(other)];
      const customers = created.map((c) => c.customer);
      const meterIds = created.map((c) => c.meter);
      const body = (customer: string, i: number) => ({
        event_name: 'grouped',
        customer_id: customer,
        payload: { n: '1' },
        identifier: `grouped-${i}`,
      });
      const requests = [tenant, other].flatMap((who, w) => [
        ...Array.from({ length: 20 }, (_, i) =>
          t.http.post(who.path('/meter_events')).set(who.as('test')).send(body(customers[w], i)),
        ),
        t.http
          .post(who.path('/meter_events/batch'))
          .set(who.as('test'))
          .send({ events: Array.from({ length: 30 }, (_, i) => body(customers[w], i + 10)) }),
      ]);
      const answers = await Promise.all(requests);
      expect(answers.map((a) => a.status)).toEqual(Array(requests.length).fill(200));
      const rows: Array<{ application_id: string; identifier: string; id: string }> = await inTest(() =>
        t.app
          .get(ModeDb)
          .manager.query(
            `SELECT application_id, identifier, id FROM wallet_test.meter_events WHERE application_id = ANY($1::uuid[])`,
            [[tenant.applicationId, other.applicationId]],
          ),
      );
      // 40 identifiers (0-39) per application, each stored once, under its own application.
      for (const [w, who] of [tenant, other].entries()) {
        const own = rows.filter((r) => r.application_id === who.applicationId && r.identifier.startsWith('grouped-'));
        expect(own).toHaveLength(40);
        const idOf = new Map(own.map((r) => [r.identifier, r.id]));
        const singles = answers.slice(w * 21, w * 21 + 20);
        singles.forEach((a, i) => expect(a.body.id).toBe(idOf.get(`grouped-${i}`)));
        const batch = answers[w * 21 + 20].body.data as Array<{ id: string }>;
        batch.forEach((e, i) => expect(e.id).toBe(idOf.get(`grouped-${i + 10}`)));
      }

      // Submitted in the same turn of the event loop, the two applications' events certainly share
      // one statement: a new identifier both use, and a repeat of one both already stored.
      const repository = t.app.get(MeterEventsRepository);
      /** How many test-mode storage statements carried up to `le` events, from a real scrape of /metrics. */
      const statements = async (le: number) => {
        const scrape = await t.http.get('/metrics');
        const match = new RegExp(`^wallet_meter_event_store_rows_bucket\\{le="${le}",mode="test"\\} (\\d+)$`, 'm').exec(
          scrape.text,
        );
        return Number(match?.[1]);
      };
      const [upTo2, upTo5] = [await statements(2), await statements(5)];
      const now = new Date(t.clock.nowMs());
      const event = (w: number, identifier: string) => ({
        id: newId(),
        meterId: meterIds[w],
        eventName: 'grouped',
        customerId: customers[w],
        identifier,
        payload: { n: '1', customer: 'ref' },
        value: '1',
        occurredAt: now,
        provider: 'sandbox',
      });
      const stored = await inTest(() =>
        Promise.all(
          [tenant, other].map((who, w) =>
            repository.store(who.applicationId, now, [event(w, 'grouped-shared'), event(w, 'grouped-0')]),
          ),
        ),
      );
      // One statement of 4 events (2 + 2) is what the scrape adds: more than 2 events, at most 5.
      expect([await statements(2), await statements(5)]).toEqual([upTo2, upTo5 + 1]);
      for (const [w, who] of [tenant, other].entries()) {
        const own = await inTest(() =>
          t.app
            .get(ModeDb)
            .manager.query(
              `SELECT identifier, id FROM wallet_test.meter_events WHERE application_id = $1 AND identifier IN ('grouped-shared', 'grouped-0')`,
              [who.applicationId],
            ),
        );
        const idOf = new Map(own.map((r: { identifier: string; id: string }) => [r.identifier, r.id]));
        expect(stored[w].get('grouped-shared')?.id).toBe(idOf.get('grouped-shared'));
        expect(stored[w].get('grouped-0')?.id).toBe(idOf.get('grouped-0'));
        expect(stored[w].get('grouped-0')?.id).toBe(answers[w * 21].body.id);
      }
    });

    it('keeps identifiers apart per mode', async () => {
      const liveCustomer = await t.http.post(tenant.path('/customers')).set(tenant.as('live')).send({ name: 'Live' });
      await t.http
        .post(tenant.path('/meters'))
        .set(tenant.as('live'))
        .send({ display_name: 'API calls', event_name: 'api_call', value_settings: { event_payload_key: 'calls' } });
      const test = await sendEvent({
        event_name: 'api_call',
        customer_id: customerId,
        payload: { calls: '1' },
        identifier: 'evt-mode',
      });
      const live = await t.http
        .post(tenant.path('/meter_events'))
        .set(tenant.as('live'))
        .send({
          event_name: 'api_call',
          customer_id: liveCustomer.body.id,
          payload: { calls: '1' },
          identifier: 'evt-mode',
        });
      expect(live.status).toBe(200);
      expect(live.body.id).not.toBe(test.body.id);
    });
  });

  describe('forwarding to the billing provider', () => {
    it('retries with backoff while the provider fails, shows the failure in errors, and delivers every event once', async () => {
      const other = await createTenant(t);
      const customer = await t.http.post(other.path('/customers')).set(other.as('test')).send({ name: 'Fwd' });
      await t.http
        .post(other.path('/meters'))
        .set(other.as('test'))
        .send({ display_name: 'Calls', event_name: 'call', value_settings: { event_payload_key: 'calls' } });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await t.http
          .post(other.path('/meter_events'))
          .set(other.as('test'))
          .send({
            event_name: 'call',
            customer_id: customer.body.id,
            payload: { calls: String(i) },
            identifier: `fwd-${i}`,
          });
        ids.push(res.body.id);
      }
      await inTest(() => sandbox().setFailing(other.applicationId, true));
      await forwarder().drainOnce('test');
      const failing = await t.http.get(other.path(`/meter_events/${ids[0]}`)).set(other.as('test'));
      expect(failing.body.delivery_status).toBe('pending');
      expect(failing.body.errors).toEqual([{ code: 'E8020', message: expect.stringContaining('attempt 1') }]);
      const repeat = await t.http
        .post(other.path('/meter_events'))
        .set(other.as('test'))
        .send({ event_name: 'call', customer_id: customer.body.id, payload: { calls: '0' }, identifier: 'fwd-0' });
      expect(repeat.body.errors[0].code).toBe('E8020');

      // Not due again before the backoff has passed.
      await inTest(() => sandbox().setFailing(other.applicationId, false));
      expect(await forwarder().drainOnce('test')).toBe(0);
      t.clock.advance(2_001);
      await forwarder().drainOnce('test');

      const received = await inTest(() => sandbox().received(other.applicationId));
      expect(received.map((r) => r.identifier).sort()).toEqual(['fwd-0', 'fwd-1', 'fwd-2', 'fwd-3', 'fwd-4']);
      expect(received.every((r) => r.received_count === 1)).toBe(true);
      expect(received[0].payload).toEqual({ calls: expect.any(String), customer: expect.stringMatching(/^cus_sbx_/) });
      const delivered = await t.http.get(other.path(`/meter_events/${ids[0]}`)).set(other.as('test'));
      expect(delivered.body).toMatchObject({ delivery_status: 'delivered', errors: [] });
      expect(await forwarder().drainOnce('test')).toBe(0);
    });
  });

  describe('batches', () => {
    it('answers every event on its own, in order, storing the valid ones', async () => {
      const events = [
        { event_name: 'api_call', customer_id: customerId, payload: { calls: '1' }, identifier: 'b-1' },
        { event_name: 'nope', customer_id: customerId, payload: { calls: '1' } },
        { event_name: 'api_call', customer_id: 'bad', payload: { calls: '1' } },
        { event_name: 'api_call', customer_id: customerId, payload: { calls: '2' }, identifier: 'b-1' },
        { event_name: 'api_call', customer_id: customerId, payload: { calls: '3' }, identifier: 'b-3' },
      ];
      const res = await t.http.post(tenant.path('/meter_events/batch')).set(tenant.as('test')).send({ events });
      expect(res.status).toBe(200);
      const data = res.body.data;
      expect(data).toHaveLength(5);
      expect(data[0].object).toBe('meter_event');
      expectErrorObject(data[1], 'E8001');
      expectErrorObject(data[2], 'E2000');
      expect(data[2].message).toContain('events[2].customer_id');
      expect(data[3].id).toBe(data[0].id);
      expect(data[4].object).toBe('meter_event');
      expect(data[4].id).not.toBe(data[0].id);
    });

    it('refuses an empty batch and one of 101 events with E8011', async () => {
      for (const n of [0, 101]) {
        const events = Array.from({ length: n }, (_, i) => ({
          event_name: 'api_call',
          customer_id: customerId,
          payload: { calls: '1' },
          identifier: `big-${i}`,
        }));
        const res = await t.http.post(tenant.path('/meter_events/batch')).set(tenant.as('test')).send({ events });
        expect(res.status).toBe(400);
        expectErrorObject(res.body, 'E8011');
      }
    });
  });

  describe('usage summaries', () => {
    it('aggregate by the meter formula over hour and day windows', async () => {
      const customer = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Summary' });
      const sum = await createMeter({
        display_name: 'Sum',
        event_name: 'sum_event',
        value_settings: { event_payload_key: 'v' },
      });
      const last = await createMeter({
        display_name: 'Last',
        event_name: 'last_event',
        value_settings: { event_payload_key: 'v' },
        default_aggregation: { formula: 'last' },
      });
      const base = new Date(Date.UTC(2026, 10, 20, 10, 0, 0));
      t.clock.advance(base.getTime() + 2 * DAY - t.clock.nowMs());
      const at = (h: number, m: number) => stamp(new Date(base.getTime() + h * 3_600_000 + m * 60_000));
      const points: Array<[string, string, string]> = [
        [at(0, 5), '2', 'a'],
        [at(0, 50), '3', 'b'],
        [at(1, 10), '5', 'c'],
        [at(25, 0), '7', 'd'],
      ];
      for (const [timestamp, v, id] of points) {
        for (const name of ['sum_event', 'last_event']) {
          expect(
            (
              await sendEvent({
                event_name: name,
                customer_id: customer.body.id,
                payload: { v },
                timestamp,
                identifier: `${name}-${id}`,
              })
            ).status,
          ).toBe(200);
        }
      }
      const q = (meter: string, window: string) =>
        t.http
          .get(
            tenant.path(
              `/meters/${meter}/event_summaries?customer_id=${customer.body.id}&start_time=2026-11-20T00:00:00Z&end_time=2026-11-22T00:00:00Z&value_grouping_window=${window}`,
            ),
          )
          .set(tenant.as('test'));
      const hourly = await q(sum.body.id, 'hour');
      expect(
        hourly.body.data.map((s: { start_time: string; aggregated_value: number }) => [
          s.start_time,
          s.aggregated_value,
        ]),
      ).toEqual([
        ['2026-11-20T10:00:00.000Z', 5],
        ['2026-11-20T11:00:00.000Z', 5],
        ['2026-11-21T11:00:00.000Z', 7],
      ]);
      const daily = await q(sum.body.id, 'day');
      expect(daily.body.data.map((s: { aggregated_value: number }) => s.aggregated_value)).toEqual([10, 7]);
      const lastDaily = await q(last.body.id, 'day');
      expect(lastDaily.body.data.map((s: { aggregated_value: number }) => s.aggregated_value)).toEqual([5, 7]);
      expect(daily.body.data[0]).toMatchObject({
        object: 'billing.meter_event_summary',
        start_time: '2026-11-20T00:00:00.000Z',
        end_time: '2026-11-21T00:00:00.000Z',
      });
      t.clock.reset();
    });
  });
});
