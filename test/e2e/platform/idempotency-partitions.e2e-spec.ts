import { randomUUID } from 'node:crypto';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PartitionMaintenanceJob } from '../../../src/common/database/partitions/partition-maintenance.job.js';
import { IDEMPOTENCY_KEYS } from '../../../src/common/database/partitions/partitioned-tables.js';
import { partitionName, periodStart } from '../../../src/common/database/partitions/partitions.sql.js';
import { IdempotencyRepository, type KeyRef } from '../../../src/common/idempotency/idempotency.repository.js';
import { LEASE_MS } from '../../../src/common/idempotency/idempotency.guard.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';

const DAY_MS = 86_400_000;
const HASH = Buffer.from('b'.repeat(64), 'hex');

/**
 * docs/IDEMPOTENCY.md "Retention": keys go to the partition of their UTC day; a key stays exactly-once
 * across midnight (two claims at once, one each side of it: one wins, one row); retention drops a whole
 * day once it ended IDEMPOTENCY_KEY_RETENTION_DAYS ago, keeps a day while a lease in it is live, and
 * carries forward the keys that can still answer (an answer not expired, a recovery point). A database
 * of its own: dropping days must not touch other files' keys.
 */
describe('idempotency keys: daily partitions', () => {
  let t: TestApp;
  let tenant: Tenant;

  const keys = () => t.app.get(IdempotencyRepository);
  const job = () => t.app.get(PartitionMaintenanceJob);
  const platform = () => t.app.get<DataSource>(getDataSourceToken('platform'));
  const ref = (key: string): KeyRef => ({ applicationId: tenant.applicationId, mode: 'test', key });
  const rowsOf = async (key: string) =>
    (await platform().query(
      `SELECT tableoid::regclass::text AS p, status FROM platform.idempotency_keys WHERE application_id = $1 AND key = $2`,
      [tenant.applicationId, key],
    )) as Array<{ p: string; status: string }>;
  const day = (at: Date) => `platform.${partitionName('idempotency_keys', periodStart(at, 'day'), 'day')}`;
  const claimAt = (key: string, at: Date) =>
    keys().claim(ref(key), HASH, randomUUID(), at, new Date(at.getTime() + LEASE_MS));

  beforeAll(async () => {
    t = await startApp({ rateLimit: false, ownDatabase: true });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    t.clock.reset();
    await t.close();
  });

  it('answers a key sent before midnight to its resend after midnight, one customer', async () => {
    t.clock.freeze();
    const midnight = periodStart(t.clock.now(), 'day', 1);
    t.clock.advance(midnight.getTime() - 50 - t.clock.nowMs());
    const post = () =>
      t.http
        .post(tenant.path('/customers'))
        .set(tenant.as('test'))
        .set('Idempotency-Key', 'midnight-1')
        .send({ name: 'Midnight' });
    const first = await post();
    expect(first.status).toBe(200);
    t.clock.advance(100);
    const resent = await post();
    expect(resent.status).toBe(200);
    expect(resent.headers['idempotent-replayed']).toBe('true');
    expect(resent.body.id).toBe(first.body.id);
    expect(await rowsOf('midnight-1')).toEqual([{ p: day(new Date(midnight.getTime() - 50)), status: 'completed' }]);
    t.clock.reset();
  });

  it('lets exactly one of two claims of one key win when they run at once on either side of midnight', async () => {
    const midnight = periodStart(new Date(), 'day', 2);
    const before = new Date(midnight.getTime() - 1);
    const after = new Date(midnight.getTime() + 1);
    const keyLock = `pg_advisory_xact_lock(hashtextextended($1::text || ' test ' || $2, 0))`;
    for (let i = 0; i < 10; i++) {
      const key = `race-${i}`;
      let claims: Array<Promise<unknown>>;
      if (process.env.WALLET_TEST_DATABASE === 'postgresql') {
        // Both claims are in flight at once: the key's lock is held until both wait for it.
        const blocker = platform().createQueryRunner();
        await blocker.connect();
        await blocker.startTransaction();
        await blocker.query(`SELECT ${keyLock}`, [tenant.applicationId, key]);
        claims = [claimAt(key, i % 2 ? before : after), claimAt(key, i % 2 ? after : before)];
        let settled = 0;
        for (const claim of claims) void claim.finally(() => (settled += 1));
        // Without the lock both would go through at once (and both win: each day has its own index).
        for (let waiting = 0; waiting < 2 && settled < 2;) {
          [{ waiting }] = (await platform().query(
            `SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          )) as Array<{ waiting: number }>;
        }
        await blocker.commitTransaction();
        await blocker.release();
      } else {
        // The embedded server runs one transaction at a time: the two claims are serialized by it.
        claims = [claimAt(key, before), claimAt(key, after)];
      }
      const won = (await Promise.all(claims)).filter((lease) => lease !== null);
      expect(won).toHaveLength(1);
      const rows = await rowsOf(key);
      expect(rows).toHaveLength(1);
      expect([day(before), day(after)]).toContain(rows[0].p);
    }
  });

  it('drops a whole day past the retention, keeps it while a lease in it is live, and carries forward keys that can still answer', async () => {
    const retentionDays = job().retentionMs(IDEMPOTENCY_KEYS) / DAY_MS;
    expect(retentionDays).toBe(2);
    // A day far enough ahead that no partition exists: the first claim makes it.
    const d = periodStart(new Date(), 'day', 20);
    const at = (ms: number) => new Date(d.getTime() + ms);
    const dayEnd = d.getTime() + DAY_MS;
    const dropAt = dayEnd + retentionDays * DAY_MS;

    // Answered, expired by the drop: goes with the day.
    const answered = (await claimAt('answered', at(60_000)))!;
    await keys().complete(ref('answered'), answered, 200, { id: 'cus_a' }, at(60_000 + DAY_MS));
    // Answered by a request that ran long: its answer outlives the day's retention, so it is carried.
    const long = (await claimAt('long', at(120_000)))!;
    await keys().complete(ref('long'), long, 200, { id: 'cus_l' }, new Date(dropAt + DAY_MS));
    // Abandoned after committing its work (lapsed, with a recovery point): carried, never dropped.
    const abandoned = (await claimAt('abandoned', at(180_000)))!;
    expect(
      await keys().checkpoint(ref('abandoned'), abandoned, { object: 'refund', id: 're_x' }, platform().manager),
    ).toBe(true);
    // Abandoned before any work (lapsed, no recovery point): goes with the day, as a released key.
    expect(await claimAt('nothing-done', at(240_000))).not.toBeNull();
    // Still running at the drop (its lease is live then): the day waits for a later run.
    const live = (await claimAt('live', at(300_000)))!;
    expect(await keys().heartbeat(ref('live'), live, new Date(dropAt + 60_000))).toBe(true);
    // The next day's key is not due.
    expect(await claimAt('next-day', new Date(dayEnd + 60_000))).not.toBeNull();
    expect(await rowsOf('answered')).toEqual([{ p: day(d), status: 'completed' }]);

    await job().ensureAhead(new Date(dropAt), undefined, [IDEMPOTENCY_KEYS]);
    const held = await job().retire(new Date(dropAt), undefined, [IDEMPOTENCY_KEYS]);
    expect(held.idempotency_keys[0]).not.toContain(partitionName('idempotency_keys', d, 'day'));
    expect(await rowsOf('answered')).toHaveLength(1);

    // A second past the retention the day is due, too: the live lease holds it.
    const lapsed = new Date(dropAt + 60_000 + 1);
    const dropped = await job().retire(lapsed, undefined, [IDEMPOTENCY_KEYS]);
    expect(dropped.idempotency_keys[0]).toContain(partitionName('idempotency_keys', d, 'day'));
    expect(dropped.idempotency_keys[0]).not.toContain(partitionName('idempotency_keys', new Date(dayEnd), 'day'));
    const [{ gone }] = (await platform().query(`SELECT to_regclass($1) IS NULL AS gone`, [day(d)])) as Array<{
      gone: boolean;
    }>;
    expect(gone).toBe(true);
    for (const key of ['answered', 'nothing-done', 'live']) expect(await rowsOf(key)).toEqual([]);
    expect(await rowsOf('next-day')).toEqual([{ p: day(new Date(dayEnd)), status: 'processing' }]);
    // Carried into the drop run's day, still answering.
    expect(await rowsOf('long')).toEqual([{ p: day(lapsed), status: 'completed' }]);
    expect((await keys().find(ref('long')))?.response_body).toEqual({ id: 'cus_l' });
    expect(await rowsOf('abandoned')).toEqual([{ p: day(lapsed), status: 'processing' }]);
    // A resend of the abandoned key takes it over and resumes from its recovery point.
    expect((await claimAt('abandoned', new Date(lapsed.getTime() + 1000)))?.recovery).toEqual({
      object: 'refund',
      id: 're_x',
    });
    // Another replica's run finds nothing more to drop.
    const again = await job().retire(lapsed, undefined, [IDEMPOTENCY_KEYS]);
    expect(again.idempotency_keys[0]).not.toContain(partitionName('idempotency_keys', d, 'day'));
  });

  it('makes today and the three next days ahead; replicas at once all succeed', async () => {
    const at = new Date('2093-03-30T12:00:00Z');
    const runs = await Promise.all([1, 2, 3].map(() => job().ensureAhead(at, undefined, [IDEMPOTENCY_KEYS])));
    expect(runs.flatMap((r) => r.idempotency_keys[0]).sort()).toEqual([
      'idempotency_keys_y2093m03d30',
      'idempotency_keys_y2093m03d31',
      'idempotency_keys_y2093m04d01',
      'idempotency_keys_y2093m04d02',
    ]);
    expect(await job().ensureAhead(at, undefined, [IDEMPOTENCY_KEYS])).toEqual({ idempotency_keys: [[]] });
  });
});
