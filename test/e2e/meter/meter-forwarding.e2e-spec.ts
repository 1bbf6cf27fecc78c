import { jest } from '@jest/globals';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { MeterEventForwardingJob, SandboxBillingProvider } from '../../../src/modules/meter/index.js';
import { SANDBOX_REFUSED_IDENTIFIER_PREFIX } from '../../../src/modules/meter/providers/sandbox-billing.provider.js';
import { MeterEventsRepository } from '../../../src/modules/meter/meter-events.repository.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * The outbox forwarder in batches: small batches and several claim loops here, so one drain takes
 * many claims and concurrent forwarders compete for the same rows. On a database of its own, since
 * a drain and the outbox gauges span every application.
 */
describe('metering: forwarding the outbox in batches', () => {
  let t: TestApp;

  const sandbox = () => t.app.get(SandboxBillingProvider);
  const forwarder = () => t.app.get(MeterEventForwardingJob);
  const inTest = <T>(fn: () => Promise<T>) => t.app.get(RequestContext).runInMode('test', fn);

  /** A tenant with a customer and a meter, and a way to send it `n` events (identifiers `<prefix>-<i>`). */
  async function meteredTenant() {
    const tenant = await createTenant(t);
    const customer = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Fwd' });
    const meter = await t.http
      .post(tenant.path('/meters'))
      .set(tenant.as('test'))
      .send({ display_name: 'Calls', event_name: 'call', value_settings: { event_payload_key: 'calls' } });
    expect(meter.status).toBe(200);
    const send = async (prefix: string, n: number): Promise<string[]> => {
      const identifiers = Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
      for (let i = 0; i < n; i += 100) {
        const events = identifiers.slice(i, i + 100).map((identifier) => ({
          event_name: 'call',
          customer_id: customer.body.id,
          payload: { calls: '1' },
          identifier,
        }));
        const res = await t.http.post(tenant.path('/meter_events/batch')).set(tenant.as('test')).send({ events });
        expect(res.status).toBe(200);
        expect(res.body.data.every((e: { object: string }) => e.object === 'meter_event')).toBe(true);
      }
      return identifiers;
    };
    return { tenant, send };
  }

  const received = (tenant: Tenant) => inTest(() => sandbox().received(tenant.applicationId));

  /** Leases every due outbox row for 60 s from `now`, as a forwarder's claim does, and never sends them. */
  const leaseAll = (now: Date) =>
    inTest(() => t.app.get(MeterEventsRepository).claimDue(now, new Date(now.getTime() + 60_000), 1_000));

  /** Each event's delivery status and errors, by identifier. */
  async function statuses(tenant: Tenant): Promise<Map<string, { status: string; errors: Array<{ code: string }> }>> {
    const rows: Array<{ identifier: string; delivery_status: string; errors: Array<{ code: string }> }> = await inTest(
      () =>
        t.app
          .get(ModeDb)
          .manager.query(
            `SELECT identifier, delivery_status, errors FROM wallet_test.meter_events WHERE application_id = $1`,
            [tenant.applicationId],
          ),
    );
    return new Map(rows.map((r) => [r.identifier, { status: r.delivery_status, errors: r.errors }]));
  }

  /** The outbox gauges for test mode, from a real scrape of /metrics. */
  async function outboxMetrics(): Promise<{ backlog: number; ageSeconds: number }> {
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    const value = (name: string) => {
      const match = new RegExp(`^${name}\\{mode="test"\\} (\\S+)$`, 'm').exec(res.text);
      if (!match) throw new Error(`${name} is not in /metrics`);
      return Number(match[1]);
    };
    return {
      backlog: value('wallet_meter_outbox_backlog'),
      ageSeconds: value('wallet_meter_outbox_oldest_age_seconds'),
    };
  }

  // Generous, a limit against hangs: without DATABASE_URL this boots and migrates an embedded database
  // of its own (over 100 s at load average 18).
  beforeAll(async () => {
    t = await startApp({
      rateLimit: false,
      ownDatabase: true,
      env: { METER_FORWARD_BATCH: '7', METER_FORWARD_CONCURRENCY: '3' },
    });
  }, 600_000);
  afterAll(async () => {
    await t.close();
  });

  it('shows the backlog and the age of its oldest event in /metrics', async () => {
    expect(await outboxMetrics()).toEqual({ backlog: 0, ageSeconds: 0 });
    const { send } = await meteredTenant();
    await send('age', 12);
    const fresh = await outboxMetrics();
    expect(fresh.backlog).toBe(12);
    expect(fresh.ageSeconds).toBeLessThan(60);
    t.clock.advance(90_000);
    const waited = await outboxMetrics();
    expect(waited.backlog).toBe(12);
    expect(waited.ageSeconds).toBeGreaterThanOrEqual(90);
    expect(waited.ageSeconds).toBeLessThan(150);
    expect(await forwarder().drainOnce('test')).toBe(12);
    expect(await outboxMetrics()).toEqual({ backlog: 0, ageSeconds: 0 });
  });

  it('delivers each event exactly once under two concurrent forwarders', async () => {
    const a = await meteredTenant();
    const b = await meteredTenant();
    const sentA = await a.send('once-a', 160);
    const sentB = await b.send('once-b', 90);

    const delivered = await Promise.all([forwarder().drainOnce('test'), forwarder().drainOnce('test')]);
    expect(delivered[0] + delivered[1]).toBe(250);

    for (const [{ tenant }, sent] of [
      [a, sentA],
      [b, sentB],
    ] as const) {
      const got = await received(tenant);
      expect(got.map((r) => r.identifier).sort()).toEqual([...sent].sort());
      expect(got.filter((r) => r.received_count !== 1)).toEqual([]);
      const status = await statuses(tenant);
      expect([...status.values()].filter((s) => s.status !== 'delivered')).toEqual([]);
    }
    expect(await forwarder().drainOnce('test')).toBe(0);
    expect((await outboxMetrics()).backlog).toBe(0);
  });

  it('commits the leases, the sandbox record and the delivered marks without waiting for the WAL flush, and nothing else', async () => {
    const db = t.app.get(ModeDb);
    const setting = `SELECT current_setting('synchronous_commit') AS value`;
    const inAsync: Array<{ value: string }> = await inTest(() => db.asyncCommit((m) => m.query(setting)));
    expect(inAsync).toEqual([{ value: 'off' }]);
    // For that transaction only: a request's own commit still waits for the disk.
    const inPlain: Array<{ value: string }> = await inTest(() => db.transaction((m) => m.query(setting)));
    expect(inPlain).toEqual([{ value: 'on' }]);
    const asDefault: Array<{ value: string }> = await inTest(() => db.manager.query(setting));
    expect(asDefault).toEqual([{ value: 'on' }]);

    // What a drain runs through it: every statement, as the real database runs it.
    const { tenant, send } = await meteredTenant();
    const sent = await send('relaxed', 10);
    const original = db.asyncCommit.bind(db);
    const relaxed: string[] = [];
    const spy = jest.spyOn(db, 'asyncCommit').mockImplementation((work) =>
      original((manager) => {
        const query = manager.query.bind(manager);
        const recording = Object.create(manager, {
          query: {
            value: (sql: string, params?: unknown[]) => {
              relaxed.push(sql);
              return query(sql, params);
            },
          },
        }) as typeof manager;
        return work(recording);
      }),
    );
    try {
      expect(await forwarder().drainOnce('test')).toBe(10);
    } finally {
      spy.mockRestore();
    }
    expect(relaxed.some((sql) => /FOR UPDATE SKIP LOCKED/.test(sql))).toBe(true);
    expect(relaxed.some((sql) => /INSERT INTO "wallet_test"\."billing_sandbox_events"/.test(sql))).toBe(true);
    expect(relaxed.some((sql) => /delivery_status = 'delivered'/.test(sql))).toBe(true);
    expect(relaxed.every((sql) => !/INSERT INTO "wallet_test"\."meter_events"/.test(sql))).toBe(true);
    // Committed all the same: delivered once, marked, out of the outbox.
    expect((await received(tenant)).map((r) => r.identifier).sort()).toEqual([...sent].sort());
    expect([...(await statuses(tenant)).values()].every((s) => s.status === 'delivered')).toBe(true);
    expect((await outboxMetrics()).backlog).toBe(0);

    // A failure inside rolls the whole transaction back.
    await expect(
      inTest(() =>
        db.asyncCommit(async (m) => {
          await m.query(`UPDATE wallet_test.meter_events SET delivery_status = 'pending' WHERE application_id = $1`, [
            tenant.applicationId,
          ]);
          throw new Error('rolled back');
        }),
      ),
    ).rejects.toThrow('rolled back');
    expect([...(await statuses(tenant)).values()].every((s) => s.status === 'delivered')).toBe(true);
  });

  it('claims again at once after a full batch, and leaves what arrives after a partial one for the next tick', async () => {
    const { tenant, send } = await meteredTenant();
    // 5 due: one loop claims all of them (less than a batch of 7) and the others nothing.
    await send('tick-first', 5);
    const provider = sandbox();
    const original = provider.sendMeterEvents.bind(provider);
    let late: Promise<string[]> | undefined;
    // The real provider, with events arriving while it is called: the loop has caught up, so it
    // marks its batch and ends instead of claiming again for them.
    provider.sendMeterEvents = async (events) => {
      late ??= send('tick-late', 3);
      await late;
      return original(events);
    };
    try {
      expect(await forwarder().drainOnce('test')).toBe(5);
    } finally {
      provider.sendMeterEvents = original;
    }
    expect((await outboxMetrics()).backlog).toBe(3);
    // The next tick delivers them; 16 due (two full batches and a partial one) go in one run.
    expect(await forwarder().drainOnce('test')).toBe(3);
    await send('tick-many', 16);
    expect(await forwarder().drainOnce('test')).toBe(16);
    const got = await received(tenant);
    expect(got).toHaveLength(24);
    expect(got.every((r) => r.received_count === 1)).toBe(true);
    expect((await outboxMetrics()).backlog).toBe(0);
  });

  it('retries only the events the provider refused, with backoff, when it refuses part of a batch', async () => {
    const up = await meteredTenant();
    const down = await meteredTenant();
    // Interleaved, so the refused events share batches with accepted ones.
    const sentUp: string[] = [];
    const sentDown: string[] = [];
    for (let i = 0; i < 4; i++) {
      sentUp.push(...(await up.send(`part-up-${i}`, 5)));
      sentDown.push(...(await down.send(`part-down-${i}`, 4)));
    }
    await inTest(() => sandbox().setFailing(down.tenant.applicationId, true));

    expect(await forwarder().drainOnce('test')).toBe(20);
    expect((await received(up.tenant)).map((r) => r.identifier).sort()).toEqual([...sentUp].sort());
    expect(await received(down.tenant)).toEqual([]);
    const refused = await statuses(down.tenant);
    expect([...refused.values()].every((s) => s.status === 'pending' && s.errors[0].code === 'E8020')).toBe(true);
    expect((await outboxMetrics()).backlog).toBe(16);

    // Not due again before the backoff has passed; then only the refused ones are sent again.
    await inTest(() => sandbox().setFailing(down.tenant.applicationId, false));
    expect(await forwarder().drainOnce('test')).toBe(0);
    t.clock.advance(2_001);
    expect(await forwarder().drainOnce('test')).toBe(16);
    const gotDown = await received(down.tenant);
    expect(gotDown.map((r) => r.identifier).sort()).toEqual([...sentDown].sort());
    expect(gotDown.every((r) => r.received_count === 1)).toBe(true);
    expect((await received(up.tenant)).every((r) => r.received_count === 1)).toBe(true);
    const after = await statuses(down.tenant);
    expect([...after.values()].every((s) => s.status === 'delivered' && s.errors.length === 0)).toBe(true);
  });

  it('abandons an event after the retry limit and marks it failed with E8021', async () => {
    const { tenant, send } = await meteredTenant();
    await send('gone', 3);
    await inTest(() => sandbox().setFailing(tenant.applicationId, true));
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect(await forwarder().drainOnce('test')).toBe(0);
      const status = await statuses(tenant);
      const expected = attempt < 20 ? { status: 'pending', code: 'E8020' } : { status: 'failed', code: 'E8021' };
      expect([...status.values()].map((s) => ({ status: s.status, code: s.errors[0]?.code }))).toEqual(
        Array(3).fill(expected),
      );
      t.clock.advance(60 * 60 * 1000 + 1);
    }
    await inTest(() => sandbox().setFailing(tenant.applicationId, false));
    expect(await forwarder().drainOnce('test')).toBe(0);
    expect(await received(tenant)).toEqual([]);
    expect((await outboxMetrics()).backlog).toBe(0);
  });

  it('leaves a leased event alone until its lease ends, then delivers it (a forwarder that died holding it)', async () => {
    const { tenant, send } = await meteredTenant();
    const sent = await send('orphan', 4);
    // Time stands still but for advance(), so the lease's edge is exact.
    t.clock.freeze();
    try {
      const now = t.clock.now();
      // A claim whose forwarder never came back: leased for 60 s, never sent nor marked.
      const leased = await leaseAll(now);
      expect(
        leased
          .filter((r) => r.application_id === tenant.applicationId)
          .map((r) => r.identifier)
          .sort(),
      ).toEqual([...sent].sort());
      expect(await forwarder().drainOnce('test')).toBe(0);
      t.clock.advance(59_999);
      expect(await forwarder().drainOnce('test')).toBe(0);
      expect((await outboxMetrics()).backlog).toBe(4);
      t.clock.advance(1);
      expect(await forwarder().drainOnce('test')).toBe(4);
    } finally {
      t.clock.thaw();
    }
    const got = await received(tenant);
    expect(got.map((r) => r.identifier).sort()).toEqual([...sent].sort());
    expect(got.every((r) => r.received_count === 1)).toBe(true);
    expect([...(await statuses(tenant)).values()].every((s) => s.status === 'delivered')).toBe(true);
    expect((await outboxMetrics()).backlog).toBe(0);
  });

  it('leases and marks without moving a row off its page: heap-only updates, no new index entries', async () => {
    const db = t.app.get(ModeDb);
    const { tenant, send } = await meteredTenant();
    await send('hot', 300);
    /**
     * Each of the tenant's rows: its indexed columns and the heap page it is on, in key order. An
     * update that changes neither is heap-only (HOT): PostgreSQL adds no index entry for it.
     */
    const pages = (table: string, indexed: string): Promise<Array<Record<string, unknown>>> =>
      inTest(() =>
        db.manager.query(
          `SELECT ${indexed}, (ctid::text::point)[0]::int AS page FROM wallet_test.${table}
           WHERE application_id = $1 ORDER BY ${indexed.split(',')[0]}`,
          [tenant.applicationId],
        ),
      );
    const eventColumns = 'id, application_id, identifier, meter_id, customer_id, occurred_at';
    const outboxColumns = 'event_id, application_id, next_attempt_at';
    const eventPages = await pages('meter_events', eventColumns);
    const outboxPages = await pages('meter_event_outbox', outboxColumns);
    // Many pages, so most rows share theirs with others and a full page has no room left for them.
    expect(new Set(eventPages.map((r) => r.page)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(outboxPages.map((r) => r.page)).size).toBeGreaterThanOrEqual(4);

    // All 300 leased in one statement: each outbox row's new version is on its old row's page, and
    // its indexed columns are as they were.
    const now = t.clock.now();
    const leased = await leaseAll(now);
    expect(leased.filter((r) => r.application_id === tenant.applicationId)).toHaveLength(300);
    expect(await pages('meter_event_outbox', outboxColumns)).toEqual(outboxPages);

    // Delivered once the lease ends: each event's delivered version is on its stored row's page,
    // indexed columns unchanged.
    t.clock.advance(60_000);
    expect(await forwarder().drainOnce('test')).toBe(300);
    expect([...(await statuses(tenant)).values()].every((s) => s.status === 'delivered')).toBe(true);
    expect(await pages('meter_events', eventColumns)).toEqual(eventPages);
  });

  it('abandons at its first attempt an event the provider refuses for good (E8021, meter_event.delivery_failed), the rest of its batch going through', async () => {
    const { tenant, send } = await meteredTenant();
    const kept = await send('kept', 3);
    const [gone] = await send(`${SANDBOX_REFUSED_IDENTIFIER_PREFIX}gone`, 1);
    expect(await forwarder().drainOnce('test')).toBe(3);
    expect((await received(tenant)).map((r) => r.identifier).sort()).toEqual([...kept].sort());
    const status = await statuses(tenant);
    expect(status.get(gone)).toEqual({
      status: 'failed',
      errors: [
        { code: 'E8021', message: expect.stringContaining('attempt 1: sandbox billing provider refuses for good') },
      ],
    });
    const events = await t.http
      .get(tenant.path('/events'))
      .query({ 'filter[type]': 'meter_event.delivery_failed' })
      .set(tenant.as('test'));
    expect(events.body.data.map((e: { data: { object: { identifier: string } } }) => e.data.object.identifier)).toEqual(
      [gone],
    );
    expect((await outboxMetrics()).backlog).toBe(0);
  });

  it("a drain scoped to some applications leaves every other application's events due", async () => {
    const a = await meteredTenant();
    const b = await meteredTenant();
    await a.send('scoped-a', 2);
    await b.send('scoped-b', 3);
    expect(await forwarder().drainOnce('test', { applicationIds: [a.tenant.applicationId] })).toBe(2);
    expect(await received(b.tenant)).toEqual([]);
    expect((await outboxMetrics()).backlog).toBe(3);
    expect(await forwarder().drainOnce('test')).toBe(3);
  });
});
