import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EmbeddedPostgres } from '../../../src/common/database/embedded-postgres.js';
import { KNOWN_MIGRATIONS } from '../../../src/common/database/migration-status.js';
import { Draining } from '../../../src/common/lifecycle/draining.js';
import { expectErrorObject, startApp, type TestApp } from '../../support/harness.js';
import { createRunDatabase, dropRunDatabase } from '../../support/test-database.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/cli/main.js');

/**
 * A database of its own, created empty: on PostgreSQL a new database next to the run's; on the
 * embedded run an in-memory PGlite served over loopback, which the app sees as an external server
 * (so it does not migrate it on boot as it would its own embedded database).
 */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (process.env.WALLET_TEST_DATABASE === 'postgresql') {
    const url = await createRunDatabase(process.env.DATABASE_URL!);
    return { url, drop: () => dropRunDatabase(url) };
  }
  const embedded = await EmbeddedPostgres.start('memory://');
  return { url: embedded.url, drop: () => embedded.stop() };
}

describe('readiness', () => {
  let db: { url: string; drop: () => Promise<void> };
  let t: TestApp;
  beforeAll(async () => {
    db = await freshDatabase();
    t = await startApp({ env: { DATABASE_URL: db.url, MIGRATE_ON_BOOT: 'false' } });
  }, 600_000); // a limit against hangs: a fresh in-memory PGlite took over 100 s to start at load average 18
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('answers 503 on a database without migrations, 200 once `migrations:run` applied them, and 503 again while draining', async () => {
    expect((await t.http.get('/healthz')).status).toBe(200);
    const before = await t.http.get('/readyz');
    expect(before.status).toBe(503);
    expectErrorObject(before.body, 'E5001');
    expect(before.body.message).toContain(`${KNOWN_MIGRATIONS.length} migration(s) pending`);

    // What `npm run migration:run` runs once it has compiled.
    const { stdout } = await run(process.execPath, [CLI, 'migrations:run'], {
      env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'warn' },
      timeout: 120_000,
    });
    expect(stdout).toContain(`applied: ${KNOWN_MIGRATIONS.join(', ')}`);

    const after = await t.http.get('/readyz');
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ status: 'ready' });

    t.app.get(Draining).markDraining();
    const draining = await t.http.get('/readyz');
    expect(draining.status).toBe(503);
    expectErrorObject(draining.body, 'E5001');
    expect(draining.body.message).toBe('The service is shutting down.');
    expect((await t.http.get('/healthz')).status).toBe(200);
  }, 600_000);
});
