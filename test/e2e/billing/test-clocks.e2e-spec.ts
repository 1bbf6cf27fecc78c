import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/** Test clocks (docs/BILLING.md, "Test clocks"): test mode helpers that customers live by. */
describe('test clocks', () => {
  let t: TestApp;
  let tenant: Tenant;

  const createClock = async (frozen_time = '2026-01-01T00:00:00.000Z', on = tenant) => {
    const res = await t.http
      .post(on.path('/test_helpers/test_clocks'))
      .set(on.as('test'))
      .send({ frozen_time, name: 'January' });
    expect(res.status).toBe(200);
    return res.body as { id: string; frozen_time: string; status: string };
  };

  const events = async (type: string) => {
    const res = await t.http.get(tenant.path('/events')).query({ 'filter[type]': type }).set(tenant.as('test'));
    expect(res.status).toBe(200);
    return res.body.data as Array<{ data: { object: Record<string, unknown> } }>;
  };

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
  });
  afterAll(() => t.close());

  it('creates a clock and reads it back, in the list too', async () => {
    const clock = await createClock();
    expect(clock).toEqual({
      id: expect.any(String),
      object: 'test_helpers.test_clock',
      livemode: false,
      name: 'January',
      frozen_time: '2026-01-01T00:00:00.000Z',
      status: 'ready',
      status_details: {},
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const read = await t.http.get(tenant.path(`/test_helpers/test_clocks/${clock.id}`)).set(tenant.as('test'));
    expect(read.body).toEqual(clock);
    const list = await t.http.get(tenant.path('/test_helpers/test_clocks')).set(tenant.as('test'));
    expect(list.body.data.map((c: { id: string }) => c.id)).toContain(clock.id);
    const [created] = await events('test_helpers.test_clock.created');
    expect(created.data.object).toMatchObject({ object: 'test_helpers.test_clock' });
  });

  it('refuses every test clock route in live mode with E4040', async () => {
    const clock = await createClock();
    const calls = [
      t.http.post(tenant.path('/test_helpers/test_clocks')).send({ frozen_time: '2026-01-01T00:00:00Z' }),
      t.http.get(tenant.path('/test_helpers/test_clocks')),
      t.http.get(tenant.path(`/test_helpers/test_clocks/${clock.id}`)),
      t.http.delete(tenant.path(`/test_helpers/test_clocks/${clock.id}`)),
      t.http
        .post(tenant.path(`/test_helpers/test_clocks/${clock.id}/advance`))
        .send({ frozen_time: '2026-02-01T00:00:00Z' }),
    ];
    for (const call of calls) {
      const res = await call.set(tenant.as('live'));
      expect(res.status).toBe(404);
      expectErrorObject(res.body, 'E4040');
    }
  });

  it('advances forward only, at most two years, one advance at a time', async () => {
    const clock = await createClock();
    const advance = (frozen_time: string) =>
      t.http
        .post(tenant.path(`/test_helpers/test_clocks/${clock.id}/advance`))
        .set(tenant.as('test'))
        .send({ frozen_time });
    const back = await advance('2025-12-31T23:59:59.000Z');
    expect(back.status).toBe(400);
    expectErrorObject(back.body, 'E7700');
    const same = await advance('2026-01-01T00:00:00.000Z');
    expectErrorObject(same.body, 'E7700');
    const far = await advance('2028-01-01T00:00:00.001Z');
    expect(far.status).toBe(400);
    expectErrorObject(far.body, 'E7701');
    const ok = await advance('2028-01-01T00:00:00.000Z');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      status: 'advancing',
      frozen_time: '2026-01-01T00:00:00.000Z',
      status_details: { advancing: { target_frozen_time: '2028-01-01T00:00:00.000Z' } },
    });
    const again = await advance('2028-02-01T00:00:00.000Z');
    expect(again.status).toBe(409);
    expectErrorObject(again.body, 'E7702');
    const [advancing] = await events('test_helpers.test_clock.advancing');
    expect(advancing.data.object).toMatchObject({ id: clock.id, status: 'advancing' });
  });

  it('puts a test mode customer on a clock and refuses test_clock in live mode or for an unknown clock', async () => {
    const clock = await createClock();
    const customer = await t.http
      .post(tenant.path('/customers'))
      .set(tenant.as('test'))
      .send({ name: 'On the clock', test_clock: clock.id });
    expect(customer.status).toBe(200);
    expect(customer.body.test_clock).toBe(clock.id);
    const plain = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Plain' });
    expect(plain.body.test_clock).toBeNull();
    const live = await t.http
      .post(tenant.path('/customers'))
      .set(tenant.as('live'))
      .send({ name: 'Live', test_clock: clock.id });
    expect(live.status).toBe(400);
    expectErrorObject(live.body, 'E7704');
    const unknown = await t.http
      .post(tenant.path('/customers'))
      .set(tenant.as('test'))
      .send({ name: 'Unknown clock', test_clock: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' });
    expect(unknown.status).toBe(400);
    expectErrorObject(unknown.body, 'E7703');
    const filtered = await t.http
      .get(tenant.path('/customers'))
      .query({ 'filter[test_clock]': clock.id })
      .set(tenant.as('test'));
    expect(filtered.body.data.map((c: { id: string }) => c.id)).toEqual([customer.body.id]);
  });

  it("keeps clocks to their application: another tenant's clock is unknown", async () => {
    const other = await createTenant(t);
    const theirs = await createClock('2026-01-01T00:00:00.000Z', other);
    const read = await t.http.get(tenant.path(`/test_helpers/test_clocks/${theirs.id}`)).set(tenant.as('test'));
    expect(read.status).toBe(404);
    expectErrorObject(read.body, 'E4004');
    const customer = await t.http
      .post(tenant.path('/customers'))
      .set(tenant.as('test'))
      .send({ test_clock: theirs.id });
    expectErrorObject(customer.body, 'E7703');
    const deleted = await t.http.delete(tenant.path(`/test_helpers/test_clocks/${theirs.id}`)).set(tenant.as('test'));
    expectErrorObject(deleted.body, 'E4004');
  });

  it('deletes a clock and detaches its customers', async () => {
    const clock = await createClock();
    const customer = await t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ test_clock: clock.id });
    const deleted = await t.http.delete(tenant.path(`/test_helpers/test_clocks/${clock.id}`)).set(tenant.as('test'));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: clock.id, object: 'test_helpers.test_clock', deleted: true });
    const gone = await t.http.get(tenant.path(`/test_helpers/test_clocks/${clock.id}`)).set(tenant.as('test'));
    expectErrorObject(gone.body, 'E4004');
    const detached = await t.http.get(tenant.path(`/customers/${customer.body.id}`)).set(tenant.as('test'));
    expect(detached.body.test_clock).toBeNull();
    const [event] = await events('test_helpers.test_clock.deleted');
    expect(event.data.object).toMatchObject({ id: clock.id });
  });

  it('answers a malformed body or id precisely', async () => {
    const bad = await t.http
      .post(tenant.path('/test_helpers/test_clocks'))
      .set(tenant.as('test'))
      .send({ frozen_time: 'yesterday' });
    expect(bad.status).toBe(400);
    expectErrorObject(bad.body, 'E2000');
    const badId = await t.http.get(tenant.path('/test_helpers/test_clocks/nope')).set(tenant.as('test'));
    expectErrorObject(badId.body, 'E4004');
  });
});
