import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { Webhook } from 'standardwebhooks';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { NO_ANSWER_YET } from '../../../src/modules/events/events.responses.js';
import { DELIVERY_LEASE_MS, WebhookDeliveryJob, maxRetryDelayMs } from '../../../src/modules/events/index.js';
import { INTERRUPTED } from '../../../src/modules/events/webhook-claims.sql.js';
import { WebhooksRepository } from '../../../src/modules/events/webhooks.repository.js';
import { CARDS, card, confirm, paymentIntentCheckout } from '../../factories/checkout.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { until } from '../../support/processes.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

describe('events and signed webhooks', () => {
  let t: TestApp;
  let tenant: Tenant;
  let job: WebhookDeliveryJob;
  const receivers: WebhookReceiver[] = [];
  /** This file's applications: the job is run on their deliveries only, as the database is shared with other suites. */
  const applicationIds: string[] = [];
  const newTenant = async () => {
    const made = await createTenant(t);
    applicationIds.push(made.applicationId);
    return made;
  };
  const deliver = () => job.deliverDue(['test'], { applicationIds });
  const others: TestApp[] = [];

  const receiver = async () => {
    const r = await new WebhookReceiver().start();
    receivers.push(r);
    return r;
  };

  const createEndpoint = async (body: Record<string, unknown>, mode: 'test' | 'live' = 'test', on = tenant) =>
    t.http.post(on.path('/webhook_endpoints')).set(on.as(mode)).send(body);

  const endpointFor = async (r: WebhookReceiver, enabled_events: string[] = ['*'], on = tenant) => {
    const res = await createEndpoint({ url: r.url, enabled_events }, 'test', on);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body as { id: string; secret: string };
  };

  /** Pays a new payment intent's checkout by card; returns the checkout. */
  const payCheckout = async (on = tenant) => {
    const { checkout } = await paymentIntentCheckout(t, on, { amount: 50000 });
    const paid = await confirm(t, on, checkout, card(CARDS.visa));
    expect(paid.status).toBe(200);
    return checkout as { id: string };
  };

  beforeAll(async () => {
    // The receivers are on loopback: this service is the developer's, which allows private targets.
    // 8 slots per endpoint (the default is 32), so a few events fill an endpoint's slots.
    t = await startApp({
      rateLimit: false,
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ENDPOINT_CONCURRENCY: '8' },
    });
    tenant = await newTenant();
    job = t.app.get(WebhookDeliveryJob);
  });

  afterAll(async () => {
    for (const r of receivers) await r.stop();
    await t.close();
    for (const o of others) await o.close();
  });

  it('delivers checkout.completed, payment_intent.succeeded and charge.succeeded, each signed by Standard Webhooks', async () => {
    const r = await receiver();
    const endpoint = await endpointFor(r);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const checkout = await payCheckout();
    await deliver();

    const types = r.received.map((x) => x.event.type);
    expect(types).toEqual(['charge.succeeded', 'payment_intent.succeeded', 'checkout.completed']);
    const verifier = new Webhook(endpoint.secret);
    for (const delivery of r.received) {
      const verified = verifier.verify(delivery.body, delivery.headers as Record<string, string>);
      expect(verified).toEqual(delivery.event);
      expect(delivery.headers['webhook-id']).toBe(delivery.event.id);
      expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
    const completed = r.ofType('checkout.completed')[0].event;
    expect(completed).toMatchObject({
      object: 'event',
      livemode: false,
      api_version: 'v1',
      data: {
        object: { id: checkout.id, object: 'checkout', status: 'complete', payment_status: 'paid' },
        previous_attributes: { status: 'open', payment_status: 'unpaid' },
      },
      request: { id: expect.any(String), idempotency_key: null },
    });

    // The log answers the same events, newest first, filtered by type and creation time.
    const listed = await t.http
      .get(tenant.path('/events'))
      .query({ 'filter[type]': 'checkout.completed', 'filter[created][gte]': '2000-01-01T00:00:00Z' })
      .set(tenant.as('test'));
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([completed.id]);
    const one = await t.http.get(tenant.path(`/events/${completed.id}`)).set(tenant.as('test'));
    expect(one.body).toEqual(completed);
    const attempts = await t.http
      .get(tenant.path(`/webhook_endpoints/${endpoint.id}/deliveries`))
      .set(tenant.as('test'));
    expect(attempts.body.data).toHaveLength(3);
    // No excerpt of an answer from a non-public address (this receiver is on loopback).
    expect(attempts.body.data[0]).toMatchObject({ outcome: 'succeeded', status_code: 200, response_excerpt: null });
  });

  it('carries the Idempotency-Key of the request that caused the event', async () => {
    const other = await newTenant();
    const r = await receiver();
    await endpointFor(r, ['charge.succeeded'], other);
    const { checkout } = await paymentIntentCheckout(t, other, { amount: 1000 });
    const paid = await confirm(t, other, checkout, card(CARDS.visa), { 'Idempotency-Key': 'pay-once-1' });
    expect(paid.status).toBe(200);
    await deliver();
    expect(r.received.map((x) => x.event.request)).toEqual([{ id: expect.any(String), idempotency_key: 'pay-once-1' }]);
  });

  it('retries a failing receiver with backoff, with the same webhook-id, until it answers 2xx', async () => {
    const other = await newTenant();
    const r = await receiver();
    let calls = 0;
    r.respond = () => (++calls <= 2 ? 500 : 200);
    const endpoint = await endpointFor(r, ['checkout.completed'], other);
    await payCheckout(other);

    await deliver();
    expect(r.received).toHaveLength(1);
    await deliver(); // not due yet: the backoff holds it
    expect(r.received).toHaveLength(1);
    t.clock.advance(maxRetryDelayMs(1));
    await deliver();
    expect(r.received).toHaveLength(2);
    t.clock.advance(maxRetryDelayMs(2));
    await deliver();
    expect(r.received).toHaveLength(3);
    t.clock.advance(maxRetryDelayMs(3));
    await deliver();
    expect(r.received).toHaveLength(3);

    const ids = new Set(r.received.map((x) => x.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const attempts = await t.http.get(other.path(`/webhook_endpoints/${endpoint.id}/deliveries`)).set(other.as('test'));
    const rows = attempts.body.data as Array<Record<string, unknown>>;
    expect(rows.map((a) => [a.attempt, a.outcome, a.status_code])).toEqual([
      [3, 'succeeded', 200],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect(rows[2]).toMatchObject({ response_excerpt: null, error: null });
    const [second, first] = [rows[1], rows[2]];
    const gap1 = Date.parse(first.next_retry_at as string) - Date.parse(first.created_at as string);
    const gap2 = Date.parse(second.next_retry_at as string) - Date.parse(second.created_at as string);
    expect(gap1).toBeGreaterThanOrEqual(24_000);
    expect(gap2).toBeGreaterThan(gap1 * 1.3);
    expect(rows[0].next_retry_at).toBeNull();
  });

  it("holds the rest of a failing receiver's queue: nothing more is started after a failure, and all arrive once it recovers", async () => {
    const other = await newTenant();
    const r = await receiver();
    let failing = false;
    r.respond = () => {
      if (r.received.length === 3) failing = true; // the third request fails, and all after it
      return failing ? 503 : 200;
    };
    await endpointFor(r, ['checkout.completed'], other);
    const paid: string[] = [];
    for (let i = 0; i < 16; i++) paid.push((await payCheckout(other)).id);

    await deliver();
    // At most the window that was already in flight when the third one failed; the rest wait.
    expect(r.received.length).toBeGreaterThanOrEqual(3);
    expect(r.received.length).toBeLessThan(16);
    const firstRun = r.received.length;

    failing = false;
    r.respond = () => 200;
    t.clock.advance(maxRetryDelayMs(1));
    await deliver();
    const delivered = new Set(r.received.slice(2).map((x) => (x.event.data as { object: { id: string } }).object.id));
    for (const id of paid.slice(2)) expect(delivered).toContain(id);
    // The held ones were sent once each, after the failed ones were retried.
    expect(r.received.length - firstRun).toBe(16 - 2);
  });

  it('sends nothing to a disabled endpoint', async () => {
    const other = await newTenant();
    const r = await receiver();
    const endpoint = await endpointFor(r, ['*'], other);
    const disabled = await t.http
      .post(other.path(`/webhook_endpoints/${endpoint.id}`))
      .set(other.as('test'))
      .send({ disabled: true });
    expect(disabled.body).toMatchObject({ status: 'disabled', disabled_reason: expect.any(String) });
    await payCheckout(other);
    await deliver();
    expect(r.received).toHaveLength(0);
  });

  it('disables an endpoint through the test helper as 3 days of failures would: what it was owed is canceled and webhook_endpoint.disabled recorded', async () => {
    const other = await newTenant();
    const r = await receiver();
    const endpoint = await endpointFor(r, ['*'], other);
    const watching = await receiver();
    await endpointFor(watching, ['webhook_endpoint.disabled'], other);
    await payCheckout(other); // owed to the endpoint, not yet delivered
    const helper = (id: string, mode: 'test' | 'live' = 'test') =>
      t.http.post(other.path(`/test_helpers/webhook_endpoints/${id}/disable`)).set(other.as(mode));

    const live = await helper(endpoint.id, 'live');
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4040');
    const unknown = await helper('0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b');
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4004');

    const disabled = await helper(endpoint.id);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({
      id: endpoint.id,
      status: 'disabled',
      disabled_at: expect.any(String),
      disabled_reason: expect.stringContaining('Deliveries failed for 3 days'),
    });
    expect(disabled.body).not.toHaveProperty('secret');
    const again = await helper(endpoint.id);
    expect(again.status).toBe(409);
    expectErrorObject(again.body, 'E5111');

    const events = await t.http
      .get(other.path('/events'))
      .query({ 'filter[type]': 'webhook_endpoint.disabled' })
      .set(other.as('test'));
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0].data).toMatchObject({
      object: { id: endpoint.id, status: 'disabled' },
      previous_attributes: { status: 'enabled' },
    });
    await deliver();
    expect(r.received).toHaveLength(0);
    expect(watching.received.map((x) => x.event.type)).toEqual(['webhook_endpoint.disabled']);
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const other = await newTenant();
    const r = await receiver();
    const endpoint = await endpointFor(r, ['checkout.completed'], other);
    const rotated = await t.http
      .post(other.path(`/webhook_endpoints/${endpoint.id}/rotate_secret`))
      .set(other.as('test'));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const again = await t.http.get(other.path(`/webhook_endpoints/${endpoint.id}`)).set(other.as('test'));
    expect(again.body.secret).toBeUndefined();

    await payCheckout(other);
    await deliver();
    const [delivery] = r.received;
    expect((delivery.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.body.secret as string]) {
      expect(new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)).toEqual(
        delivery.event,
      );
    }

    t.clock.advance(24 * 3600_000 + 60_000);
    await payCheckout(other);
    await deliver();
    const later = r.received[1];
    const signatures = (later.headers['webhook-signature'] as string).split(' ');
    const at = new Date(Number(later.headers['webhook-timestamp']) * 1000);
    expect(signatures).toEqual([new Webhook(rotated.body.secret).sign(later.event.id, at, later.body)]);
  });

  it('refuses live endpoints that are not https on a public address, with a precise error', async () => {
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1:4000/hooks', 'E5102'],
      ['https://127.0.0.1/hooks', 'E5103'],
      ['https://localhost/hooks', 'E5103'],
      ['https://[::1]/hooks', 'E5103'],
      ['https://10.1.2.3/hooks', 'E5104'],
      ['https://192.168.1.10/hooks', 'E5104'],
      ['https://100.64.0.1/hooks', 'E5104'],
      ['https://[fd00::1]/hooks', 'E5104'],
      ['https://169.254.169.254/latest/meta-data', 'E5105'],
      ['https://[fe80::1]/hooks', 'E5105'],
      ['https://metadata.google.internal/', 'E5105'],
      ['https://[::ffff:10.0.0.1]/hooks', 'E5104'],
      ['https://0.0.0.0/hooks', 'E5106'],
      ['ftp://example.com/hooks', 'E5101'],
      ['not a url', 'E5101'],
      ['https://user:pw@example.com/hooks', 'E5101'],
    ];
    for (const [url, code] of cases) {
      const res = await createEndpoint({ url, enabled_events: ['*'] }, 'live');
      expect({ url, status: res.status, code: res.body.code }).toEqual({
        url,
        status: code === 'E5101' ? 400 : 422,
        code,
      });
      expectErrorObject(res.body, code);
    }
    // A name that resolves to a non-public address (this machine's own name) is refused after DNS.
    const name = hostname();
    const { address } = await lookup(name);
    const res = await createEndpoint({ url: `https://${name}/hooks`, enabled_events: ['*'] }, 'live');
    expect(res.body.code).toBe(address.startsWith('127.') || address === '::1' ? 'E5103' : 'E5104');
    expect(res.body.message).toContain(`resolves to ${address}`);
    // Test mode takes a developer's http://localhost, but never a metadata address.
    expect((await createEndpoint({ url: 'http://localhost:4000/hooks', enabled_events: ['*'] })).status).toBe(200);
    expect((await createEndpoint({ url: 'http://169.254.169.254/', enabled_events: ['*'] })).body.code).toBe('E5105');
    const unknown = await createEndpoint({ url: 'http://localhost/hooks', enabled_events: ['charge.exploded'] });
    expectErrorObject(unknown.body, 'E5108');
  });

  it('sends a delivery claimed by two concurrent job runs once', async () => {
    const other = await newTenant();
    const r = await receiver();
    await endpointFor(r, ['*'], other);
    await payCheckout(other);
    await payCheckout(other);
    await Promise.all([deliver(), deliver(), deliver()]);
    const ids = r.received.map((x) => x.headers['webhook-id']);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });

  it('resends an event with the same webhook-id', async () => {
    const other = await newTenant();
    const r = await receiver();
    const endpoint = await endpointFor(r, ['checkout.completed'], other);
    await payCheckout(other);
    await deliver();
    const eventId = r.received[0].event.id;
    const resent = await t.http
      .post(other.path(`/events/${eventId}/resend`))
      .set(other.as('test'))
      .send({ webhook_endpoint_id: endpoint.id });
    expect(resent.status).toBe(200);
    await deliver();
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([eventId, eventId]);
    const attempts = await t.http.get(other.path(`/events/${eventId}/deliveries`)).set(other.as('test'));
    expect(attempts.body.data).toHaveLength(2);
  });

  it('delivers after a restart an event whose change committed before the process stopped, once', async () => {
    const other = await newTenant();
    const r = await receiver();
    await endpointFor(r, ['checkout.completed'], other);
    // A second replica commits the payment and is gone before its delivery job ever runs (it is
    // not used again; closed with the file, as two apps in one process share the platform pool).
    const stopped = await startApp({ rateLimit: false });
    others.push(stopped);
    const { checkout } = await paymentIntentCheckout(stopped, other, { amount: 50000 });
    expect((await confirm(stopped, other, checkout, card(CARDS.visa))).status).toBe(200);
    expect(r.received).toHaveLength(0);

    await deliver();
    await deliver();
    expect(r.received.map((x) => x.event.type)).toEqual(['checkout.completed']);
    expect((r.received[0].event.data as { object: { id: string } }).object.id).toBe(checkout.id);
  });

  /** The attempt log of an endpoint, newest first. */
  const attemptLog = async (on: Tenant, endpointId: string) =>
    (await t.http.get(on.path(`/webhook_endpoints/${endpointId}/deliveries`)).set(on.as('test'))).body.data as Array<
      Record<string, unknown>
    >;

  it('delivers again, once, what a replica claimed and died holding, within 30 s, and the log keeps the attempt it may have sent', async () => {
    const other = await newTenant();
    const r = await receiver();
    const endpoint = await endpointFor(r, ['checkout.completed'], other);
    await payCheckout(other);
    // A replica claims the delivery (FOR UPDATE SKIP LOCKED, lease written, attempt logged as
    // sending) and dies before recording an answer: the receiver may or may not have seen it.
    const now = t.clock.now();
    const claimed = await t.app
      .get(RequestContext)
      .runInMode('test', () =>
        t.app
          .get(WebhooksRepository)
          .startDue(now, new Date(now.getTime() + DELIVERY_LEASE_MS), { slots: 8, busy: new Map(), skip: [] }, 64, [
            other.applicationId,
          ]),
      );
    expect(claimed.map((c) => c.endpoint_id)).toEqual([endpoint.id]);
    expect((await attemptLog(other, endpoint.id)).map((a) => [a.attempt, a.outcome, a.status_code, a.error])).toEqual([
      [1, 'failed', null, NO_ANSWER_YET],
    ]);
    await deliver();
    expect(r.received).toHaveLength(0);
    expect(DELIVERY_LEASE_MS).toBeLessThanOrEqual(30_000);
    t.clock.advance(DELIVERY_LEASE_MS + 1000);
    await deliver();
    await deliver();
    expect(r.received).toHaveLength(1);
    expect((await attemptLog(other, endpoint.id)).map((a) => [a.attempt, a.outcome, a.status_code, a.error])).toEqual([
      [2, 'succeeded', 200, null],
      [1, 'failed', null, INTERRUPTED],
    ]);
  });

  it("serves an endpoint while another one's receiver holds all its slots, and records each attempt as it ends", async () => {
    const other = await newTenant();
    const slow = await receiver();
    const fast = await receiver();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    slow.respond = async () => {
      await released;
      return 200;
    };
    const slowEndpoint = await endpointFor(slow, ['checkout.completed'], other);
    const fastEndpoint = await endpointFor(fast, ['checkout.completed'], other);
    const paid: string[] = [];
    for (let i = 0; i < 10; i++) paid.push((await payCheckout(other)).id);

    const run = deliver();
    // Every delivery to the fast endpoint is sent and recorded while the slow receiver answers none.
    await until('the fast endpoint to be delivered and recorded', async () => {
      const log = await attemptLog(other, fastEndpoint.id);
      return log.length === 10 && log.every((a) => a.outcome === 'succeeded');
    });
    await until('the slow endpoint to hold 8 requests', () => slow.received.length >= 8);
    // The slow one has its 8 slots in flight, the first 8 in event order (started in that order,
    // they may arrive a few milliseconds apart swapped), each logged before it was sent.
    const objectIds = (rec: WebhookReceiver) =>
      rec.received.map((x) => (x.event.data as { object: { id: string } }).object.id).sort();
    expect(objectIds(slow)).toEqual(paid.slice(0, 8).sort());
    const inFlight = await attemptLog(other, slowEndpoint.id);
    expect(inFlight.map((a) => [a.attempt, a.outcome, a.status_code, a.error])).toEqual(
      Array.from({ length: 8 }, () => [1, 'failed', null, NO_ANSWER_YET]),
    );

    release();
    await run;
    expect(objectIds(fast)).toEqual([...paid].sort());
    expect(objectIds(slow)).toEqual([...paid].sort());
    const log = await attemptLog(other, slowEndpoint.id);
    expect(log.map((a) => [a.attempt, a.outcome, a.status_code])).toEqual(
      Array.from({ length: 10 }, () => [1, 'succeeded', 200]),
    );
  });

  it('refuses internal targets for a test key where the operator does not allow them, at registration and at delivery', async () => {
    // The harness's default: a deployed service (WEBHOOK_ALLOW_PRIVATE_TARGETS off).
    const deployed = await startApp({ rateLimit: false });
    others.push(deployed);
    const on = await createTenant(deployed);
    const cases: Array<[string, string]> = [
      ['http://100.100.100.200/latest/meta-data/', 'E5104'],
      ['http://[fd00:ec2::254]/latest/meta-data/', 'E5104'],
      ['http://10.0.0.1/', 'E5104'],
      ['http://172.16.0.1/', 'E5104'],
      ['http://192.168.1.1/', 'E5104'],
      ['http://127.0.0.1:4000/hooks', 'E5103'],
      ['http://localhost:4000/hooks', 'E5103'],
      ['http://[::1]/hooks', 'E5103'],
      ['http://169.254.169.254/latest/meta-data/', 'E5105'],
      ['http://[fe80::1]/hooks', 'E5105'],
      ['http://0.0.0.0/', 'E5106'],
      ['http://[::]/', 'E5106'],
    ];
    for (const [url, code] of cases) {
      const res = await deployed.http
        .post(on.path('/webhook_endpoints'))
        .set(on.as('test'))
        .send({ url, enabled_events: ['*'] });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 422, code });
      expectErrorObject(res.body, code);
    }
    // Where the operator allows them (this file's service), the same test key registers them.
    for (const url of cases.slice(0, 3).map(([u]) => u)) {
      expect({ url, status: (await createEndpoint({ url, enabled_events: ['*'] }, 'test', tenant)).status }).toEqual({
        url,
        status: 200,
      });
    }

    // An endpoint registered where they were allowed is refused at delivery by a service that does
    // not allow them: the address connected to is checked again (a name too, after its lookup).
    const other = await newTenant();
    const r = await receiver();
    for (const url of [r.url, r.url.replace('127.0.0.1', 'localhost')]) {
      expect((await createEndpoint({ url, enabled_events: ['checkout.completed'] }, 'test', other)).status).toBe(200);
    }
    await payCheckout(other);
    deployed.clock.advance(t.clock.nowMs() - deployed.clock.nowMs()); // this file moved its own clock
    await deployed.app.get(WebhookDeliveryJob).deliverDue(['test'], { applicationIds: [other.applicationId] });
    expect(r.received).toHaveLength(0);
    const attempts = await t.http.get(other.path('/events')).set(other.as('test'));
    const eventId = (attempts.body.data as Array<{ id: string; type: string }>).find(
      (e) => e.type === 'checkout.completed',
    )!.id;
    const log = await t.http.get(other.path(`/events/${eventId}/deliveries`)).set(other.as('test'));
    expect(log.body.data).toHaveLength(2);
    for (const a of log.body.data as Array<Record<string, unknown>>) {
      expect(a).toMatchObject({ outcome: 'failed', status_code: null, response_excerpt: null });
      expect(String(a.error)).toMatch(/loopback|refused/);
    }
  });

  it("a run scoped to some applications leaves every other application's deliveries due", async () => {
    const outsider = await createTenant(t); // not in this file's scope
    const r = await receiver();
    await endpointFor(r, ['checkout.completed'], outsider);
    await payCheckout(outsider);
    await deliver();
    expect(r.received).toHaveLength(0);
    await job.deliverDue(['test'], { applicationIds: [outsider.applicationId] });
    expect(r.received.map((x) => x.event.type)).toEqual(['checkout.completed']);
  });

  it('reports deliveries by outcome, attempts per event and the oldest undelivered event in /metrics', async () => {
    const other = await newTenant();
    const r = await receiver();
    r.respond = () => 503;
    await endpointFor(r, ['checkout.completed'], other);
    await payCheckout(other);
    await deliver();
    const text = (await t.http.get('/metrics')).text;
    expect(text).toMatch(/^wallet_webhook_deliveries_total\{outcome="succeeded"\} [1-9]\d*$/m);
    expect(text).toMatch(/^wallet_webhook_deliveries_total\{outcome="failed"\} [1-9]\d*$/m);
    expect(text).toMatch(/^wallet_webhook_attempts_per_event_count [1-9]\d*$/m);
    const oldest = /^wallet_webhook_oldest_undelivered_seconds\{mode="test"\} (\S+)$/m.exec(text);
    expect(Number(oldest?.[1])).toBeGreaterThanOrEqual(0);
  });

  it('keeps test and live events apart', async () => {
    const live = await t.http.get(tenant.path('/events')).set(tenant.as('live'));
    expect(live.status).toBe(200);
    expect(live.body.data).toEqual([]);
    const test = await t.http.get(tenant.path('/events')).set(tenant.as('test'));
    expect(test.body.data.length).toBeGreaterThan(0);
  });
});
