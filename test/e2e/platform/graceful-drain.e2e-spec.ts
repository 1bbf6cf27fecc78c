import { type ChildProcess, spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import { createRunDatabase, dropRunDatabase, migrate } from '../../support/test-database.js';
import { createTenant, startApp, type Tenant } from '../../support/harness.js';
import { freePort, sendOn as send, until } from '../../support/processes.js';

const MAIN = join(process.cwd(), 'dist/src/main.js');
const GRACE_MS = 20_000;
const WRITES = 40;
const CLIENTS = 16;

/**
 * The drain is only observable on a real process with real sockets: the compiled service runs as
 * a child on its own fresh database (so its background jobs touch nothing of the other test files).
 * The test makes the 40 writes wait deterministically: its own session holds a SHARE lock on the
 * customers table (reads pass, inserts wait), SIGTERM lands while all 40 are waiting inside the
 * database, and only then is the lock released.
 */
(process.env.WALLET_TEST_DATABASE === 'postgresql' ? describe : describe.skip)(
  'graceful drain on SIGTERM (PostgreSQL only: the test holds a table lock in its own session while the service waits on it, and the embedded PGlite serves one session at a time)',
  () => {
    let databaseUrl: string;
    let tenant: Tenant;
    let child: ChildProcess | undefined;

    beforeAll(async () => {
      databaseUrl = await createRunDatabase(process.env.DATABASE_URL!);
      await migrate(databaseUrl);
      const t = await startApp({ env: { DATABASE_URL: databaseUrl } });
      try {
        tenant = await createTenant(t);
      } finally {
        await t.close();
      }
    }, 120_000);

    afterAll(async () => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      if (databaseUrl) await dropRunDatabase(databaseUrl);
    });

    it('finishes 40 in-flight writes with no reset while 16 keep-alive clients keep sending, then exits 0 within the grace period', async () => {
      const port = await freePort();
      const proc = spawn(process.execPath, [MAIN], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          HOST: '127.0.0.1',
          PORT: String(port),
          LOG_LEVEL: 'info',
          RATE_LIMIT: '0',
          RUN_JOBS: 'true',
          MIGRATE_ON_BOOT: 'false',
          DB_POOL_SIZE: String(WRITES + CLIENTS + 10),
          SHUTDOWN_GRACE_MS: String(GRACE_MS),
        },
      });
      child = proc;
      let output = '';
      const outputHas = (text: string) =>
        new Promise<void>((resolve, reject) => {
          const check = () => {
            if (output.includes(text)) resolve();
          };
          proc.stdout.on('data', check);
          proc.once('exit', (code) =>
            output.includes(text) ? resolve() : reject(new Error(`exited ${code} before "${text}": ${output}`)),
          );
          check();
        });
      proc.stdout.setEncoding('utf8');
      proc.stderr.setEncoding('utf8');
      proc.stdout.on('data', (chunk: string) => (output += chunk));
      proc.stderr.on('data', (chunk: string) => (output += chunk));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
        proc.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
      );
      await outputHas('wallet service listening');

      const headers = tenant.as('test');
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      let stopClients = false;
      try {
        // 16 keep-alive clients that never stop on their own: one connection each, request after request.
        const tally = { ok: 0, failed: 0, closeHeaders: 0, other: [] as string[] };
        const clients = Array.from({ length: CLIENTS }, async () => {
          const agent = new Agent({ keepAlive: true, maxSockets: 1 });
          while (!stopClients) {
            try {
              const res = await send(port, agent, 'GET', tenant.path('/customers?limit=1'), headers);
              if (res.status === 200) tally.ok += 1;
              else tally.other.push(`${res.status} ${res.body.slice(0, 200)}`);
              if (res.headers.connection === 'close') tally.closeHeaders += 1;
            } catch {
              // Refused or reset once the service stops listening: allowed, and they go on trying.
              tally.failed += 1;
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
          }
          agent.destroy();
        });
        // Wait until the loop is really running over kept-alive connections.
        const seen = () => JSON.stringify({ ...tally, other: tally.other.slice(0, 3), output: output.slice(-2000) });
        await until('the clients to get answers', () => tally.ok >= CLIENTS * 2, seen);

        // Hold the writes: inserts need ROW EXCLUSIVE, which SHARE blocks; the clients' reads pass.
        await db.query('BEGIN');
        await db.query('LOCK TABLE wallet_test.customers IN SHARE MODE');
        const writesAgent = new Agent({ keepAlive: true, maxSockets: WRITES });
        const writes = Array.from({ length: WRITES }, (_, i) =>
          send(port, writesAgent, 'POST', tenant.path('/customers'), headers, { name: `Drain ${i}` }).then(
            (res) => ({ res, error: undefined }),
            (error: NodeJS.ErrnoException) => ({ res: undefined, error }),
          ),
        );
        // All 40 are inside the service, each waiting on the lock in the database (pg_locks: the
        // service's prepared statements leave pg_stat_activity's query text behind).
        const waiting = async () =>
          Number(
            (
              await db.query<{ n: string }>(
                `SELECT count(*) AS n FROM pg_locks
                  WHERE NOT granted AND mode = 'RowExclusiveLock' AND relation = 'wallet_test.customers'::regclass`,
              )
            ).rows[0].n,
          );
        await until('the 40 writes to wait on the lock', async () => (await waiting()) >= WRITES, seen);

        const signalledAt = performance.now();
        proc.kill('SIGTERM');
        await outputHas('SIGTERM: draining');
        // While draining, clients' requests on their open connections are still answered, now with
        // Connection: close; the lock is released once a few of those have gone through.
        const closesBefore = tally.closeHeaders;
        await until('the clients to see the drain', () => tally.closeHeaders > closesBefore || tally.failed > 0, seen);
        await db.query('COMMIT');

        const results = await Promise.all(writes);
        const exit = await exited;
        stopClients = true;
        await Promise.all(clients);
        writesAgent.destroy();

        const resets = results.filter((r) => r.error).map((r) => r.error!.code);
        expect(resets).toEqual([]);
        expect(results.map((r) => r.res!.status)).toEqual(Array(WRITES).fill(200));
        // Their kept-alive connections were told to close.
        expect(results.every((r) => r.res!.headers.connection === 'close')).toBe(true);
        const ids = results.map((r) => (JSON.parse(r.res!.body) as { id: string }).id);
        expect(new Set(ids).size).toBe(WRITES);
        const stored = await db.query<{ id: string }>('SELECT id FROM wallet_test.customers WHERE id = ANY($1)', [ids]);
        expect(stored.rows.map((r) => r.id).sort()).toEqual([...ids].sort());

        expect(exit).toMatchObject({ code: 0, signal: null });
        expect(exit.at - signalledAt).toBeLessThan(GRACE_MS);
        const line =
          /drained in (\d+) ms: (\d+) in-flight requests completed, (\d+) connections closed, (\d+) background jobs stopped, pools closed/.exec(
            output,
          );
        expect(line).not.toBeNull();
        expect(Number(line![2])).toBeGreaterThanOrEqual(WRITES);
        expect(Number(line![3])).toBeGreaterThanOrEqual(WRITES);
        expect(Number(line![4])).toBeGreaterThanOrEqual(3); // hold release, checkout expiry, meter forwarding
        expect(output).not.toMatch(/cut at the grace period/);
        // The 16 clients were never stopped by the test until the process had gone.
        expect(tally.ok).toBeGreaterThan(0);
      } finally {
        stopClients = true;
        await db.end();
      }
    }, 120_000);
  },
);
