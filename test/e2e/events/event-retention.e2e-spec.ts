import { EventRetentionJob, WebhookDeliveryJob } from '../../../src/modules/events/index.js';
import { CARDS, card, confirm, paymentIntentCheckout } from '../../factories/checkout.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const DAY_MS = 24 * 3600_000;

/**
 * Events are kept EVENT_RETENTION_DAYS (30 by default) and purged after, with their deliveries and
 * attempts: the clock is moved, the job's purge is called as its timer would.
 */
describe('event retention', () => {
  let t: TestApp;
  let tenant: Tenant;
  let retention: EventRetentionJob;
  let delivery: WebhookDeliveryJob;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startApp({ rateLimit: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } }); // a local receiver
    tenant = await createTenant(t);
    retention = t.app.get(EventRetentionJob);
    delivery = t.app.get(WebhookDeliveryJob);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    t.clock.reset();
    await receiver.stop();
    await t.close();
  });

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  const eventIds = async () => (await get('/events?limit=100')).body.data.map((e: { id: string }) => e.id) as string[];
  const pay = async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 20000 });
    expect((await confirm(t, tenant, checkout, card(CARDS.visa))).status).toBe(200);
  };
  const purge = () => retention.purge(t.clock.now(), { applicationIds: [tenant.applicationId] });

  it('keeps events 30 days, then purges them with their deliveries and attempts', async () => {
    t.clock.freeze();
    const endpoint = (
      await t.http
        .post(tenant.path('/webhook_endpoints'))
        .set(tenant.as('test'))
        .send({ url: receiver.url, enabled_events: ['*'] })
    ).body as { id: string };
    await pay();
    await delivery.deliverDue(['test'], { applicationIds: [tenant.applicationId] });
    const old = await eventIds();
    expect(old.length).toBeGreaterThanOrEqual(3);
    expect(receiver.received).toHaveLength(old.length);
    const oldDeliveries = (await get(`/events/${old[0]}/deliveries`)).body.data;
    expect(oldDeliveries).toHaveLength(1);

    t.clock.advance(20 * DAY_MS);
    await pay();
    await delivery.deliverDue(['test'], { applicationIds: [tenant.applicationId] });
    const all = await eventIds();
    const recent = all.filter((id) => !old.includes(id));
    expect(recent.length).toBeGreaterThanOrEqual(3);

    // Day 30 minus a second: nothing is old enough yet.
    t.clock.advance(10 * DAY_MS - 1000);
    expect(await purge()).toBe(0);
    expect(await eventIds()).toEqual(all);

    // Day 30 and a second: the first payment's events go, the second's stay.
    t.clock.advance(2000);
    expect(await purge()).toBe(old.length);
    expect(await eventIds()).toEqual(recent);
    expect((await get(`/events/${old[0]}`)).status).toBe(404);
    const attempts = (await get(`/webhook_endpoints/${endpoint.id}/deliveries?limit=100`)).body.data as Array<{
      event_id: string;
    }>;
    expect(attempts).toHaveLength(recent.length);
    for (const a of attempts) expect(old).not.toContain(a.event_id);
    // Purging again finds nothing; another application's events are out of this scope.
    expect(await purge()).toBe(0);
  });
});
