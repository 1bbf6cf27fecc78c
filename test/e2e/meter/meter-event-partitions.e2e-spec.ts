import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { MeterEventForwardingJob } from '../../../src/modules/meter/index.js';
import { newId } from '../../../src/common/ids.js';
import { PartitionMaintenanceJob } from '../../../src/common/database/partitions/partition-maintenance.job.js';
import { METER_EVENTS } from '../../../src/common/database/partitions/partitioned-tables.js';
import {
  ensureMonthPartitions,
  listPartitions,
  monthStart,
  partitionName,
} from '../../../src/modules/meter/meter-event-partitions.sql.js';
import { outboxBacklogSql } from '../../../src/modules/meter/meter-events.repository.js';
import { storeEventsParams, storeEventsSql } from '../../../src/modules/meter/store-events.sql.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';

const DAY = 86_400_000;

/**
 * docs/METERING.md "Partitions": meter events go to the partition of the month they are received
 * in (on the service's clock), a month with no partition yet is made when its first event comes, the
 * identifier still dedupes across a month boundary, the job makes months ahead (two replicas at once
 * without failing) and drops whole months past the retention, leaving no dead rows. A database of
 * its own: dropping partitions must not touch other files' events.
 */
describe('meter events: monthly partitions', () => {
  let t: TestApp;
  let tenant: Tenant;
  let customerId: string;

  const db = () => t.app.get(ModeDb);
  const inTest = <T>(fn: () => Promise<T>) => t.app.get(RequestContext).runInMode('test', fn);
  const job = () => t.app.get(PartitionMaintenanceJob);
  const sendEvent = (body: object) => t.http.post(tenant.path('/meter_events')).set(tenant.as('test')).send(body);
  const partitionOf = async (id: string): Promise<string> => {
    const rows = (await inTest(() =>
      db().manager.query(`SELECT tableoid::regclass::text AS partition FROM wallet_test.meter_events WHERE id = $1`, [
        id,
      ]),
    )) as Array<{ partition: string }>;
    expect(rows).toHaveLength(1);
    return rows[0].partition;
  };

  beforeAll(async () => {
    t = await startApp({ rateLimit: false, ownDatabase: true });
    tenant = await createTenant(t);
    const customer = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Partitioned' });
    customerId = customer.body.id;
    const meter = await t.http
      .post(tenant.path('/meters'))
      .set(tenant.as('test'))
      .send({ display_name: 'Calls', event_name: 'part_call', value_settings: { event_payload_key: 'calls' } });
    expect(meter.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores events in the partition of the month they are received in, across a month boundary on the clock', async () => {
    t.clock.freeze();
    // Two months ahead: the migration made this month's and next month's partitions, so the event
    // after the boundary lands in a month the storage statement has to make.
    const boundary = monthStart(t.clock.now(), 2);
    t.clock.advance(boundary.getTime() - 1000 - t.clock.nowMs());
    const identifier = `before-${newId()}`;
    const before = await sendEvent({
      event_name: 'part_call',
      identifier,
      customer_id: customerId,
      payload: { calls: '2' },
    });
    expect(before.status).toBe(200);
    t.clock.advance(2000);
    const after = await sendEvent({
      event_name: 'part_call',
      identifier: `after-${newId()}`,
      customer_id: customerId,
      payload: { calls: '3' },
    });
    expect(after.status).toBe(200);
    expect(await partitionOf(before.body.id)).toBe(`wallet_test.${partitionName(monthStart(boundary, -1))}`);
    expect(await partitionOf(after.body.id)).toBe(`wallet_test.${partitionName(boundary)}`);

    // A repeat of the first identifier in the new month answers the stored original (the identifier
    // window spans partitions) and stores nothing.
    const repeat = await sendEvent({
      event_name: 'part_call',
      identifier,
      customer_id: customerId,
      payload: { calls: '9' },
    });
    expect(repeat.status).toBe(200);
    expect(repeat.body.id).toBe(before.body.id);
    const [{ n }] = (await inTest(() =>
      db().manager.query(`SELECT count(*)::int AS n FROM wallet_test.meter_events WHERE identifier = $1`, [identifier]),
    )) as Array<{ n: number }>;
    expect(n).toBe(1);
    t.clock.reset();
  });

  it('the storage statement probes the identifier indexes per row, whatever plan a connection cached while the partitions looked empty', async () => {
    // A prepared statement's generic plan, made as on a new database or in a new month (partitions
    // never analyzed): the earlier-months check must stay a per-row index probe. As NOT EXISTS it was a
    // hash anti join over every row of every partition, cached for the connection's life: 0.6 ms per
    // insert at 0 rows, 33 ms at 110,000 (meter-cpu's p99 grew round after round).
    const sql = storeEventsSql({ events: 'wallet_test.meter_events', outbox: 'wallet_test.meter_event_outbox' });
    const row = {
      id: newId(),
      applicationId: tenant.applicationId,
      meterId: newId(),
      eventName: 'part_call',
      customerId,
      identifier: `plan-${newId()}`,
      payload: { calls: '1' },
      value: '1',
      occurredAt: new Date(),
      provider: 'sandbox',
      createdAt: new Date(),
    };
    const plan = (await inTest(() =>
      db().manager.transaction(async (manager) => {
        await manager.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
        return manager.query(`EXPLAIN ${sql}`, storeEventsParams([row]));
      }),
    )) as Array<{ 'QUERY PLAN': string }>;
    const text = plan.map((line) => line['QUERY PLAN']).join('\n');
    expect(text).toMatch(/SubPlan/);
    expect(text).toMatch(/Index Scan using meter_events_\w+_identifier_key/);
    expect(text).not.toMatch(/Anti Join|Hash Join|Seq Scan on meter_events/);
  });

  it("the outbox gauge's oldest row is a merge of the monthly partitions' primary keys, not a sort of the outbox", async () => {
    const months = [
      new Date('2088-01-01T00:00:00Z'),
      new Date('2088-02-01T00:00:00Z'),
      new Date('2088-03-01T00:00:00Z'),
    ];
    await inTest(() => ensureMonthPartitions(db().manager, 'wallet_test', months[0], months[2]));
    for (const month of months) {
      await inTest(() =>
        db().manager.query(
          `INSERT INTO wallet_test.meter_event_outbox (event_id, application_id, next_attempt_at, created_at)
           SELECT gen_random_uuid(), $1, $2::timestamptz + g * interval '1 minute', $2::timestamptz + g * interval '1 minute'
           FROM generate_series(1, 2000) g`,
          [tenant.applicationId, month.toISOString()],
        ),
      );
    }
    const plan = (await inTest(async () => {
      await db().manager.query(`ANALYZE wallet_test.meter_event_outbox`);
      return db().manager.query(`EXPLAIN ${outboxBacklogSql('wallet_test.meter_event_outbox', 10_000)}`);
    })) as Array<{ 'QUERY PLAN': string }>;
    const text = plan.map((line) => line['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Merge Append/);
    expect(text).toMatch(/Index (Only )?Scan using meter_event_outbox_y2088m01_pkey/);
    expect(text).not.toMatch(/->\s+(Incremental )?Sort\b/);
    await inTest(() =>
      db().manager.query(`DELETE FROM wallet_test.meter_event_outbox WHERE created_at >= $1 AND created_at < $2`, [
        months[0],
        monthStart(months[2], 1),
      ]),
    );
  });

  it('makes the current and two next months ahead in both modes, and two replicas making the same months both succeed', async () => {
    const at = new Date('2091-03-15T12:00:00Z');
    const [test, live] = (await job().ensureAhead(at, undefined, [METER_EVENTS])).meter_events;
    expect(test).toEqual([
      'meter_event_outbox_y2091m03',
      'meter_event_outbox_y2091m04',
      'meter_event_outbox_y2091m05',
      'meter_events_y2091m03',
      'meter_events_y2091m04',
      'meter_events_y2091m05',
    ]);
    expect(live).toEqual(test);
    expect(await job().ensureAhead(at, undefined, [METER_EVENTS])).toEqual({ meter_events: [[], []] });

    const made = await Promise.all(
      [1, 2, 3].map(() =>
        t.app
          .get(RequestContext)
          .runInMode('live', () =>
            ensureMonthPartitions(
              db().manager,
              'wallet_live',
              new Date('2092-01-01T00:00:00Z'),
              new Date('2092-06-01T00:00:00Z'),
            ),
          ),
      ),
    );
    const months = ['01', '02', '03', '04', '05', '06'];
    expect(made.flat().sort()).toEqual(
      ['meter_event_outbox', 'meter_events'].flatMap((table) => months.map((m) => `${table}_y2092m${m}`)),
    );
  });

  it('drops the oldest month whole past the retention: the other months keep every row and no dead tuple', async () => {
    // Three months received long ago (so the months of the other tests are far from the cutoff).
    const months = [
      new Date('2001-01-01T00:00:00Z'),
      new Date('2001-02-01T00:00:00Z'),
      new Date('2001-03-01T00:00:00Z'),
    ];
    await inTest(() => ensureMonthPartitions(db().manager, 'wallet_test', months[0], months[2]));
    const perMonth = 200;
    for (const month of months) {
      await inTest(() =>
        db().manager.query(
          `INSERT INTO wallet_test.meter_events (id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at)
           SELECT gen_random_uuid(), $1, gen_random_uuid(), 'part_call', $2, 'old-' || $3::text || '-' || g, '{}', 1, $3::timestamptz + g * interval '1 minute', 'sandbox', $3::timestamptz + g * interval '1 minute'
           FROM generate_series(1, ${perMonth}) g`,
          [tenant.applicationId, customerId, month.toISOString()],
        ),
      );
    }
    const count = async (from: Date, to: Date) =>
      (
        (await inTest(() =>
          db().manager.query(
            `SELECT count(*)::int AS n FROM wallet_test.meter_events WHERE created_at >= $1 AND created_at < $2`,
            [from, to],
          ),
        )) as Array<{ n: number }>
      )[0].n;
    expect(await count(months[0], monthStart(months[2], 1))).toBe(3 * perMonth);

    // The cutoff (retention before "now") falls just after January ends, inside February.
    const retentionDays = job().retentionMs(METER_EVENTS) / DAY;
    expect(retentionDays).toBe(431);
    const now = new Date(months[1].getTime() + 10 * DAY + retentionDays * DAY);
    const [dropped] = (await job().retire(now, ['test'], [METER_EVENTS])).meter_events;
    // January whole (its outbox partition first), then the outbox partitions of the ended months that
    // hold no undelivered event (drained early); February's and March's events stay.
    expect(dropped).toEqual([
      'meter_event_outbox_y2001m01',
      'meter_events_y2001m01',
      'meter_event_outbox_y2001m02',
      'meter_event_outbox_y2001m03',
    ]);

    expect(await count(months[0], months[1])).toBe(0);
    expect(await count(months[1], monthStart(months[2], 1))).toBe(2 * perMonth);
    const left = await inTest(() => listPartitions(db().manager, 'wallet_test'));
    expect(left.map((p) => p.name)).not.toContain('meter_events_y2001m01');
    expect(left.map((p) => p.name)).toEqual(expect.arrayContaining(['meter_events_y2001m02', 'meter_events_y2001m03']));
    const dead = (await inTest(() =>
      db().manager.query(
        `SELECT coalesce(sum(n_dead_tup), 0)::int AS dead FROM pg_stat_user_tables
          WHERE schemaname = 'wallet_test' AND relname IN ('meter_events_y2001m02', 'meter_events_y2001m03')`,
      ),
    )) as Array<{ dead: number }>;
    expect(dead[0].dead).toBe(0);
    // A second run (another replica) finds nothing more to drop.
    expect(await job().retire(now, ['test'], [METER_EVENTS])).toEqual({ meter_events: [[]] });
  });

  it("drops an ended month's outbox partition once every event of it is delivered, keeping the events; a month with an undelivered event keeps it until delivered", async () => {
    const forwarder = () => t.app.get(MeterEventForwardingJob);
    const scope = { applicationIds: [tenant.applicationId] };
    const outboxOf = (month: Date) => partitionName(month).replace('meter_events', 'meter_event_outbox');
    const present = async (name: string) =>
      (
        (await inTest(() =>
          db().manager.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`wallet_test.${name}`]),
        )) as Array<{ present: boolean }>
      )[0].present;
    const statusOf = async (id: string) =>
      (
        (await inTest(() =>
          db().manager.query(`SELECT delivery_status FROM wallet_test.meter_events WHERE id = $1`, [id]),
        )) as Array<{ delivery_status: string }>
      )[0].delivery_status;
    const store = async (identifier: string) => {
      const res = await sendEvent({
        event_name: 'part_call',
        identifier,
        customer_id: customerId,
        payload: { calls: '1' },
      });
      expect(res.status).toBe(200);
      return res.body.id as string;
    };
    const moveTo = (at: Date) => t.clock.advance(at.getTime() - t.clock.nowMs());
    // Months far ahead on the test clock, so the other tests' months stay out of it.
    const m = monthStart(t.clock.now(), 6);
    const m2 = monthStart(m, 1);
    t.clock.freeze();
    try {
      moveTo(new Date(m.getTime() + DAY));
      const delivered = [await store(`drained-${newId()}`), await store(`drained-${newId()}`)];
      // (The first test's events, ahead on the clock, are delivered too.)
      expect(await forwarder().drainOnce('test', scope)).toBeGreaterThanOrEqual(2);
      // Month M is still running: its outbox partition stays, empty as it is.
      expect((await job().retire(t.clock.now(), ['test'], [METER_EVENTS])).meter_events[0]).not.toContain(outboxOf(m));
      expect(await present(outboxOf(m))).toBe(true);

      moveTo(new Date(m2.getTime() + DAY));
      const waiting = await store(`waiting-${newId()}`);
      expect(await partitionOf(waiting)).toBe(`wallet_test.${partitionName(m2)}`);
      // Two replicas' runs at once: both succeed, the month goes once.
      const runs = await Promise.all([1, 2].map(() => job().retire(t.clock.now(), ['test'], [METER_EVENTS])));
      const dropped = runs.flatMap((run) => run.meter_events[0]);
      expect(dropped.filter((name) => name === outboxOf(m))).toHaveLength(1);
      expect(dropped.filter((name) => name.startsWith('meter_events_'))).toEqual([]);
      expect(await present(outboxOf(m))).toBe(false);
      expect(await present(partitionName(m))).toBe(true);
      for (const id of delivered) {
        expect(await partitionOf(id)).toBe(`wallet_test.${partitionName(m)}`);
        expect(await statusOf(id)).toBe('delivered');
      }

      // M2 has ended with an event not delivered: its outbox partition stays.
      moveTo(new Date(monthStart(m2, 1).getTime() + DAY));
      expect((await job().retire(t.clock.now(), ['test'], [METER_EVENTS])).meter_events[0]).toEqual([]);
      expect(await present(outboxOf(m2))).toBe(true);

      // The undelivered event of M2 is still claimed and delivered after its month ended; then M2's outbox goes too.
      expect(await forwarder().drainOnce('test', scope)).toBe(1);
      expect(await statusOf(waiting)).toBe('delivered');
      const [later] = (await job().retire(t.clock.now(), ['test'], [METER_EVENTS])).meter_events;
      expect(later).toEqual([outboxOf(m2)]);
      expect(await present(partitionName(m2))).toBe(true);
    } finally {
      t.clock.reset();
    }
  });

  (process.env.WALLET_TEST_DATABASE === 'postgresql' ? it : it.skip)(
    "keeps an ended month's outbox partition when a row goes into it while the drop waits for its lock",
    async () => {
      // An ended, empty month: the drop's first look finds nothing; a transaction writing into it
      // holds the parent's lock, so the drop's DETACH waits, sees the row once it commits, and keeps the month.
      const month = new Date('2089-05-01T00:00:00Z');
      const now = new Date('2089-07-01T00:00:00Z');
      const name = partitionName(month).replace('meter_events', 'meter_event_outbox');
      // Everything due at `now` dropped first, so the run below has only this month to look at.
      await job().retire(now, ['test'], [METER_EVENTS]);
      await inTest(() => ensureMonthPartitions(db().manager, 'wallet_test', month, month));
      const manager = await inTest(() => Promise.resolve(db().manager));
      const writer = manager.connection.createQueryRunner();
      await writer.connect();
      try {
        await writer.startTransaction();
        await writer.query(
          `INSERT INTO wallet_test.meter_event_outbox (event_id, application_id, next_attempt_at, created_at)
           VALUES ($1, $2, $3, $3)`,
          [newId(), tenant.applicationId, new Date(month.getTime() + DAY)],
        );
        const retiring = job().retire(now, ['test'], [METER_EVENTS]);
        const [{ pid }] = (await writer.query(`SELECT pg_backend_pid() AS pid`)) as Array<{ pid: number }>;
        for (;;) {
          const [{ blocked }] = (await manager.query(
            `SELECT count(*)::int AS blocked FROM pg_stat_activity
              WHERE $1 = ANY(pg_blocking_pids(pid)) AND query LIKE '%DETACH PARTITION%${name}%'`,
            [pid],
          )) as Array<{ blocked: number }>;
          if (blocked > 0) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        await writer.commitTransaction();
        const [dropped] = (await retiring).meter_events;
        expect(dropped).not.toContain(name);
        const rows = (await inTest(() =>
          db().manager.query(`SELECT count(*)::int AS n FROM wallet_test.${name}`),
        )) as Array<{ n: number }>;
        expect(rows[0].n).toBe(1);
        await inTest(() => db().manager.query(`DELETE FROM wallet_test.${name}`));
        expect((await job().retire(now, ['test'], [METER_EVENTS])).meter_events[0]).toContain(name);
      } finally {
        if (writer.isTransactionActive) await writer.rollbackTransaction();
        await writer.release();
      }
    },
  );
});
