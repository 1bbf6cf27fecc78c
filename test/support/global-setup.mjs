// Runs in Jest's parent process, outside its module system, so it loads the compiled service
// (`npm test` builds first). See test/support/test-database.ts for what it does.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from '../../dist/src/common/database/embedded-postgres.js';
import { createRunDatabase, dropRunDatabase, migrate } from '../../dist/test/support/test-database.js';

/**
 * With DATABASE_URL (its name must say "test"): a fresh database on that server for this run.
 * Without it: the embedded PGlite, started here and served to every test worker over loopback.
 * Either way the schema is migrated once; test files isolate themselves by creating their own
 * applications, so they run in parallel without truncating anything.
 */
export default async function globalSetup() {
  process.env.LOG_LEVEL ??= 'silent';
  // Where each worker's apps write their log (at info) and the tests record the secrets they made,
  // for the secret scan of the global teardown.
  process.env.WALLET_TEST_LOG_DIR = mkdtempSync(join(tmpdir(), 'wallet-test-logs-'));
  // The OpenAPI document each test app serves, built once per run (test/support/openapi-cache.ts).
  process.env.WALLET_TEST_OPENAPI_DIR = mkdtempSync(join(tmpdir(), 'wallet-test-openapi-'));
  process.env.MIGRATE_ON_BOOT = 'false';
  process.env.RUN_JOBS = 'false';
  if (process.env.DATABASE_URL) {
    const url = await createRunDatabase(process.env.DATABASE_URL);
    await migrate(url);
    process.env.DATABASE_URL = url;
    process.env.WALLET_TEST_DATABASE = 'postgresql';
    globalThis.__WALLET_TEST_CLEANUP__ = () => dropRunDatabase(url);
  } else {
    const embedded = await EmbeddedPostgres.start('memory://');
    await migrate(embedded.url);
    process.env.DATABASE_URL = embedded.url;
    process.env.WALLET_TEST_DATABASE = 'embedded';
    globalThis.__WALLET_TEST_CLEANUP__ = () => embedded.stop();
  }
}
