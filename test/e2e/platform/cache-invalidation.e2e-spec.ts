import { CacheInvalidation } from '../../../src/common/cache/invalidation.js';
import pg from 'pg';
import { startApp, type TestApp } from '../../support/harness.js';
import { createRunDatabase, dropRunDatabase, migrate } from '../../support/test-database.js';
import { until } from '../../support/processes.js';

const WITHIN = { timeoutMs: 30_000 };

/**
 * Two service instances on one database of their own (PostgreSQL only: the embedded PGlite has no
 * LISTEN, so invalidation there is in-process, which the other tests exercise).
 */
(process.env.WALLET_TEST_DATABASE === 'postgresql' ? describe : describe.skip)(
  'cache invalidation over LISTEN/NOTIFY (PostgreSQL only: the embedded PGlite has no LISTEN)',
  () => {
    let databaseUrl: string;
    let a: TestApp;
    let b: TestApp;
    const seenA: Array<string | null> = [];
    const seenB: Array<string | null> = [];

    beforeAll(async () => {
      databaseUrl = await createRunDatabase(process.env.DATABASE_URL!);
      await migrate(databaseUrl);
      a = await startApp({ env: { DATABASE_URL: databaseUrl } });
      b = await startApp({ env: { DATABASE_URL: databaseUrl } });
      a.app.get(CacheInvalidation).subscribe('test_channel', (key) => seenA.push(key));
      b.app.get(CacheInvalidation).subscribe('test_channel', (key) => seenB.push(key));
    }, 120_000);

    afterAll(async () => {
      await a?.close();
      await b?.close();
      if (databaseUrl) await dropRunDatabase(databaseUrl);
    });

    it('delivers a published key to the other instance, and once to the publisher', async () => {
      await a.app.get(CacheInvalidation).publish('test_channel', 'k1');
      expect(seenA).toEqual(['k1']);
      await until('instance b to hear k1', () => seenB.includes('k1'), undefined, WITHIN);
      // The publisher ignores its own notification when it comes back.
      await b.app.get(CacheInvalidation).publish('test_channel', 'k2');
      await until('instance a to hear k2', () => seenA.includes('k2'), undefined, WITHIN);
      expect(seenA).toEqual(['k1', 'k2']);
      expect(seenB).toEqual(['k1', 'k2']);
    });

    it('reconnects after losing its listening connection and then forgets everything', async () => {
      seenA.length = 0;
      seenB.length = 0;
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      try {
        const { rowCount } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'wallet-invalidation'`,
        );
        expect(rowCount).toBe(2);
      } finally {
        await admin.end();
      }
      await until(
        'both instances to listen again',
        () => seenA.includes(null) && seenB.includes(null),
        undefined,
        WITHIN,
      );
      await a.app.get(CacheInvalidation).publish('test_channel', 'k3');
      await until('instance b to hear k3 on its new connection', () => seenB.includes('k3'), undefined, WITHIN);
    }, 300_000); // a hang limit, not a speed check
  },
);
