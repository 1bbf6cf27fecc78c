import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { PartitionMaintenanceJob } from '../../../src/common/database/partitions/partition-maintenance.job.js';
import { EVENTS } from '../../../src/common/database/partitions/partitioned-tables.js';
import { monthStart, partitionName } from '../../../src/common/database/partitions/partitions.sql.js';
import { WebhookDeliveryJob } from '../../../src/modules/events/index.js';
import { CARDS, card, confirm, paymentIntentCheckout } from '../../factories/checkout.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const DAY_MS = 86_400_000;
const TABLES = ['events', 'webhook_deliveries', 'webhook_attempts'] as const;

/**
 * docs/EVENTS.md "Retention": events, their webhook deliveries and attempts go to the partitions of
 * their event's month (on the service's clock, across a month boundary, a month not made ahead being
 * made by the first event), the maintenance job makes months ahead (replicas at once without
 * failing), and retention drops a month of all three whole once it ended EVENT_RETENTION_DAYS ago,
 * leaving the other months' rows and no dead tuples. A database of its own: dropping partitions
 * must not touch other files' events.
 */
describe('events: monthly partitions', () => {
  let t: TestApp;
  let tenant: Tenant;
  let receiver: WebhookReceiver;

  const db = () => t.app.get(ModeDb);
  const inTest = <T>(fn: () => Promise<T>) => t.app.get(RequestContext).runInMode('test', fn);
  const job = () => t.app.get(PartitionMaintenanceJob);
  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  const eventIds = async () => (await get('/events?limit=100')).body.data.map((e: { id: string }) => e.id) as string[];
  const pay = async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 20000 });
    expect((await confirm(t, tenant, checkout, card(CARDS.visa))).status).toBe(200);
  };
  const deliver = () => t.app.get(WebhookDeliveryJob).deliverDue(['test'], { applicationIds: [tenant.applicationId] });
  /** The partitions holding `ids`'s rows of `table` (by event id). */
  const partitionsOf = async (table: (typeof TABLES)[number], ids: string[]) =>
    (
      (await inTest(() =>
        db().manager.query(
          `SELECT DISTINCT tableoid::regclass::text AS p FROM wallet_test.${table} WHERE ${table === 'events' ? 'id' : 'event_id'} = ANY($1::uuid[])`,
          [ids],
        ),
      )) as Array<{ p: string }>
    ).map((r) => r.p);

  beforeAll(async () => {
    t = await startApp({ rateLimit: false, ownDatabase: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    tenant = await createTenant(t);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    t.clock.reset();
    await receiver.stop();
    await t.close();
  });

  it('writes events, deliveries and attempts in their event month across a boundary, and drops a month of all three past the retention', async () => {
    const endpoint = await t.http
      .post(tenant.path('/webhook_endpoints'))
      .set(tenant.as('test'))
      .send({ url: receiver.url, enabled_events: ['*'] });
    expect(endpoint.status).toBe(200);
    t.clock.freeze();
    // Three months ahead: no partition was made for them (the migration makes this month and the
    // next), so the first event of each month makes its month in its own transaction.
    const boundary = monthStart(t.clock.now(), 3);
    t.clock.advance(boundary.getTime() - 60_000 - t.clock.nowMs());
    await pay();
    await deliver();
    const old = await eventIds();
    expect(old.length).toBeGreaterThanOrEqual(3);
    t.clock.advance(120_000);
    await pay();
    await deliver();
    const recent = (await eventIds()).filter((id) => !old.includes(id));
    expect(recent.length).toBeGreaterThanOrEqual(3);
    expect(receiver.received).toHaveLength(old.length + recent.length);
    for (const table of TABLES) {
      expect(await partitionsOf(table, old)).toEqual([
        `wallet_test.${partitionName(table, monthStart(boundary, -1), 'month')}`,
      ]);
      expect(await partitionsOf(table, recent)).toEqual([`wallet_test.${partitionName(table, boundary, 'month')}`]);
    }

    // The month before the boundary ended at `boundary`: it is kept until the retention after that.
    const retentionDays = job().retentionMs(EVENTS) / DAY_MS;
    expect(retentionDays).toBe(30);
    // Earlier months (this real month's, the tenant's events) may go; the old month stays.
    const oldMonth = monthStart(boundary, -1);
    const kept = await job().retire(new Date(boundary.getTime() + retentionDays * DAY_MS - 1000), ['test'], [EVENTS]);
    expect(kept.events[0]).not.toContain(partitionName('events', oldMonth, 'month'));
    expect((await get(`/events/${old[0]}`)).status).toBe(200);

    const dropped = await job().retire(new Date(boundary.getTime() + retentionDays * DAY_MS), ['test'], [EVENTS]);
    expect(dropped.events[0]).toEqual(
      expect.arrayContaining(TABLES.map((table) => partitionName(table, oldMonth, 'month'))),
    );
    expect(dropped.events[0]).not.toContain(partitionName('events', boundary, 'month'));
    expect((await get(`/events/${old[0]}`)).status).toBe(404);
    expect((await eventIds()).sort()).toEqual([...recent].sort());
    const attempts = (await get(`/webhook_endpoints/${endpoint.body.id}/deliveries?limit=100`)).body.data as Array<{
      event_id: string;
    }>;
    expect(attempts.map((a) => a.event_id).sort()).toEqual([...recent].sort());
    // Events are never updated: the month kept has no dead tuple, the drop deleted no row.
    const dead = (await inTest(() =>
      db().manager.query(
        `SELECT coalesce(sum(n_dead_tup), 0)::int AS dead FROM pg_stat_user_tables
          WHERE schemaname = 'wallet_test' AND relname = $1`,
        [partitionName('events', boundary, 'month')],
      ),
    )) as Array<{ dead: number }>;
    expect(dead[0].dead).toBe(0);
    // Another replica's run finds nothing more to drop.
    expect(await job().retire(new Date(boundary.getTime() + retentionDays * DAY_MS), ['test'], [EVENTS])).toEqual({
      events: [[]],
    });
  });

  it('makes the current and two next months of the three tables ahead in both modes; replicas at once all succeed', async () => {
    const at = new Date('2093-03-15T12:00:00Z');
    const runs = await Promise.all([1, 2, 3].map(() => job().ensureAhead(at, undefined, [EVENTS])));
    const [test, live] = [0, 1].map((mode) => runs.flatMap((r) => r.events[mode]).sort());
    const expected = TABLES.flatMap((table) => ['03', '04', '05'].map((m) => `${table}_y2093m${m}`)).sort();
    expect(test).toEqual(expected);
    expect(live).toEqual(expected);
    expect(await job().ensureAhead(at, undefined, [EVENTS])).toEqual({ events: [[], []] });
  });
});
