import { createHash, randomUUID } from 'node:crypto';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { LEASE_MS } from '../../../src/common/idempotency/idempotency.guard.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

describe('Idempotency-Key on POST', () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t);
  });
  afterAll(() => t.close());

  const post = (key: string, body: object, mode: 'test' | 'live' = 'test') =>
    t.http
      .post(tenant.path('/customers'))
      .set(tenant.as(mode, { 'Idempotency-Key': key }))
      .send(body);

  it('replays the first response to a repeat and creates one record', async () => {
    const first = await post('order-1', { name: 'Once' });
    const second = await post('order-1', { name: 'Once' });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const list = await t.http.get(tenant.path('/customers?filter[name]=Once')).set(tenant.as('test'));
    expect(list.body.total_items).toBe(1);
  });

  it('refuses the same key with a different body with E2006', async () => {
    await post('order-2', { name: 'A' });
    const res = await post('order-2', { name: 'B' });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E2006');
  });

  it('gives concurrent duplicates one effect', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => post('order-3', { name: 'Concurrent' })));
    const ok = results.filter((r) => r.status === 200);
    if (ok.length + results.filter((r) => r.status === 409).length !== 8)
      console.log(results.map((r) => [r.status, r.body]));
    const busy = results.filter((r) => r.status === 409);
    expect(ok.length + busy.length).toBe(8);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    busy.forEach((r) => expectErrorObject(r.body, 'E2007'));
    const list = await t.http.get(tenant.path('/customers?filter[name]=Concurrent')).set(tenant.as('test'));
    expect(list.body.total_items).toBe(1);
  });

  it('scopes keys to the mode and lets a failed request be retried', async () => {
    const test = await post('order-4', { name: 'Mode' }, 'test');
    const live = await post('order-4', { name: 'Mode' }, 'live');
    expect(live.body.id).not.toBe(test.body.id);
    expect(live.body.livemode).toBe(true);

    const failed = await post('order-5', { email: 'bad' });
    expect(failed.status).toBe(400);
    const retried = await post('order-5', { email: 'bad' });
    expectErrorObject(retried.body, 'E2000');
  });

  it('forgets keys after 24 hours', async () => {
    const first = await post('order-6', { name: 'Expiring' });
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const later = await post('order-6', { name: 'Expiring' });
    expect(later.body.id).not.toBe(first.body.id);
    t.clock.reset();
  });

  it('frees the key of an attempt that died before answering once its lease lapses, and runs the resend', async () => {
    const body = { name: 'Orphaned' };
    // What a process killed (or cut from the database) mid-request leaves: its key held, never let go.
    const now = t.clock.nowMs();
    await t.app.get<DataSource>(getDataSourceToken('platform')).query(
      `INSERT INTO platform.idempotency_keys (application_id, mode, key, request_hash, status, created_at, expires_at, lease_token)
       VALUES ($1, 'test', 'order-7', $2, 'processing', $3, $4, $5)`,
      [
        tenant.applicationId,
        createHash('sha256')
          .update(`POST ${tenant.path('/customers')}\n${JSON.stringify(body)}`)
          .digest(),
        new Date(now),
        new Date(now + LEASE_MS),
        randomUUID(),
      ],
    );
    expectErrorObject((await post('order-7', body)).body, 'E2007');
    expectErrorObject((await post('order-7', { name: 'Other' })).body, 'E2006');

    t.clock.advance(LEASE_MS + 1000);
    const resent = await post('order-7', body);
    expect(resent.status).toBe(200);
    expect(resent.headers['idempotent-replayed']).toBeUndefined();
    const replay = await post('order-7', body);
    expect(replay.body).toEqual(resent.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    t.clock.reset();
  });

  it('refuses a malformed key', async () => {
    const res = await post('x'.repeat(256), { name: 'x' });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E2005');
  });
});
