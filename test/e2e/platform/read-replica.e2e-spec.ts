import { readFileSync } from 'node:fs';
import { REPLICA_LAG_SQL } from '../../../src/common/database/replica-lag.sql.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { postgresBinaries, PostgresServer } from '../../support/postgres-cluster.js';
import { until } from '../../support/processes.js';

/**
 * Issue 39, part 4: reads that tolerate lag (`@ReadReplicaTolerant()`: the events, balance
 * transactions and report runs lists) go to DATABASE_READ_URL, a streaming replica built here with
 * pg_basebackup -R, while its replay lag is within READ_REPLICA_MAX_LAG_MS; past it, or for any other
 * endpoint, the primary answers. Which server ran a query is read from the replica's own statement
 * log (log_statement = all): a query there carrying the tenant's application id came from the
 * replica's pool, and the primary is the only other server. A list that shows a row the paused
 * replica has not replayed was answered by the primary.
 *
 * Needs the PostgreSQL server binaries, as the failover test does (test/support/postgres-cluster.ts).
 */
const bin = postgresBinaries();
if (!bin && process.env.CI) throw new Error('no PostgreSQL server binaries (initdb, pg_basebackup): set PG_BIN');
if (!bin) console.warn('no PostgreSQL server binaries (set PG_BIN): the read replica test is NOT run');
const withServers = bin ? describe : describe.skip;

const DATABASE = 'wallet_replica_test';
const MAX_LAG_MS = 100;

withServers('read replica for lists that tolerate lag', () => {
  let primary: PostgresServer;
  let replica: PostgresServer;
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    primary = await PostgresServer.primary(bin!);
    await primary.query(`CREATE DATABASE ${DATABASE}`);
    replica = await PostgresServer.standbyOf(primary, 'replica1');
    await replica.set({ log_statement: "'all'" });
    t = await startApp({
      rateLimit: false,
      env: {
        DATABASE_URL: primary.url(DATABASE),
        DATABASE_READ_URL: replica.url(DATABASE),
        READ_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
        MIGRATE_ON_BOOT: 'true',
        DB_POOL_SIZE: '4',
      },
    });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await t?.close();
    replica?.destroy();
    primary?.destroy();
  });

  /** Until the replica has replayed everything the primary wrote so far. */
  const caughtUp = async () => {
    const [{ lsn }] = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    await until('the replica to replay the primary', async () => {
      const [row] = await replica.query<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [
        lsn,
      ]);
      return row.done;
    });
  };
  /**
   * The statements the replica logged with this tenant's application id among their parameters
   * (the statement's line, then its `DETAIL:  parameters:` line).
   */
  const replicaQueries = () => {
    const lines = readFileSync(replica.logFile, 'utf8').split('\n');
    return lines.flatMap((line, i) =>
      / DETAIL: {2}parameters: /.test(line) && line.includes(tenant.applicationId) ? [`${lines[i - 1]}\n${line}`] : [],
    );
  };
  const taxRate = async (name: string, mode: 'test' | 'live' = 'test') => {
    const res = await t.http
      .post(tenant.path('/tax_rates'))
      .set(tenant.as(mode))
      .send({ display_name: name, percentage: 7, inclusive: false, country: 'TH' });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };
  const listEvents = async (mode: 'test' | 'live' = 'test') => {
    const res = await t.http.get(tenant.path('/events?limit=100')).set(tenant.as(mode));
    expect(res.status).toBe(200);
    return res.body.data as Array<{ livemode: boolean; data: { object: { id: string; livemode: boolean } } }>;
  };
  const eventObjects = async () => (await listEvents()).map((e) => e.data.object.id);
  // A lag reading is kept for up to 250 ms of the service's clock: move it past that, do not wait.
  const nextReading = () => t.clock.advance(1_000);

  it('serves the tolerant lists from the replica when it is in sync, in the mode of the request, and the others from the primary', async () => {
    const id = await taxRate('Replicated');
    await caughtUp();
    nextReading();

    const before = replicaQueries().length;
    await t.http.get(tenant.path('/customers')).set(tenant.as('test')).expect(200);
    expect(replicaQueries().length).toBe(before);

    expect(await eventObjects()).toContain(id);
    const events = replicaQueries().slice(before);
    expect(events.join('\n')).toMatch(/"wallet_test"\."events"/);

    // Live mode reads the replica's live schema, and records say which mode they came from.
    const liveId = await taxRate('Live, replicated', 'live');
    await caughtUp();
    nextReading();
    const since = replicaQueries().length;
    const [test, live] = [await listEvents('test'), await listEvents('live')];
    expect(replicaQueries().slice(since).join('\n')).toMatch(/"wallet_live"\."events"/);
    expect(live.map((e) => e.data.object.id)).toEqual([liveId]);
    expect(live.every((e) => e.livemode === true && e.data.object.livemode === true)).toBe(true);
    expect(test.map((e) => e.data.object.id)).not.toContain(liveId);
    expect(test.every((e) => e.livemode === false)).toBe(true);

    for (const path of ['/balance_transactions', '/reporting/report_runs']) {
      const since = replicaQueries().length;
      for (const mode of ['test', 'live'] as const) {
        const res = await t.http.get(tenant.path(path)).set(tenant.as(mode));
        expect({ path, mode, status: res.status }).toEqual({ path, mode, status: 200 });
      }
      const logged = replicaQueries().slice(since).join('\n');
      expect(logged).toMatch(/"?wallet_test"?\./);
      expect(logged).toMatch(/"?wallet_live"?\./);
    }
  });

  it('falls back to the primary while the replica lags past READ_REPLICA_MAX_LAG_MS (replay paused), and back to the replica once it caught up', async () => {
    await caughtUp();
    await replica.query('SELECT pg_wal_replay_pause()');
    try {
      await until('replay to pause', async () => {
        const [row] = await replica.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state');
        return row.state === 'paused';
      });
      const unreplayed = await taxRate('Not on the replica yet');
      await until(`the replica to lag more than ${MAX_LAG_MS} ms`, async () => {
        const [row] = await replica.query<{ lag_ms: number }>(REPLICA_LAG_SQL, [], DATABASE);
        return row.lag_ms > MAX_LAG_MS;
      });
      const [missing] = await replica.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM wallet_test.events WHERE application_id = $1 AND data->'object'->>'id' = $2",
        [tenant.applicationId, unreplayed],
        DATABASE,
      );
      expect(missing.n).toBe(0);
      nextReading();

      const before = replicaQueries().length;
      // The primary answered: only it has the tax rate's event.
      expect(await eventObjects()).toContain(unreplayed);
      expect(replicaQueries().length).toBe(before);
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()');
    }

    await caughtUp();
    nextReading();
    const before = replicaQueries().length;
    expect((await eventObjects()).length).toBeGreaterThanOrEqual(2);
    expect(replicaQueries().length).toBeGreaterThan(before);
  });

  it('reads from the primary when the replica goes away (also right after a good lag reading), and boots without it', async () => {
    await caughtUp();
    // The clock stands, so the lag reading this list takes ("in sync") stays fresh for the next one.
    t.clock.freeze();
    try {
      nextReading();
      const before = replicaQueries().length;
      await eventObjects();
      expect(replicaQueries().length).toBeGreaterThan(before);
      // The next list goes to the replica, now dead, fails there and runs again on the primary.
      replica.kill();
      const id = await taxRate('Replica down');
      expect(await eventObjects()).toContain(id);
    } finally {
      t.clock.thaw();
    }
    nextReading();
    const id = await taxRate('Replica still down');
    expect(await eventObjects()).toContain(id);

    const second = await startApp({
      rateLimit: false,
      env: {
        DATABASE_URL: primary.url(DATABASE),
        DATABASE_READ_URL: replica.url(DATABASE),
        READ_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      },
    });
    try {
      const res = await second.http.get(tenant.path('/events?limit=100')).set(tenant.as('test'));
      expect(res.status).toBe(200);
      expect((res.body.data as Array<{ data: { object: { id: string } } }>).map((e) => e.data.object.id)).toContain(id);
    } finally {
      await second.close();
    }
  });
});
