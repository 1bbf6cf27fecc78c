import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { BalancesService, HotLegsRepository } from '../../../src/modules/ledger/index.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { expectLedgerInvariants } from '../../support/ledger-invariants.js';
import { until } from '../../support/processes.js';
import { createRunDatabase, dropRunDatabase, migrate } from '../../support/test-database.js';

const POSTER = join(process.cwd(), 'test/support/hot-poster.mjs');
const ACKS_BEFORE_KILL = 300;

/**
 * Group commit survives a killed process (issue 42, "Done when"): a child process runs the compiled
 * service's posting service with 64 posters on one hot balance, each journal acknowledged on stdout
 * once its batch has committed; it is SIGKILLed in the middle of posting (batches in flight). Every
 * acknowledged journal is in the database, and no journal is partial: each has both its entries,
 * summing to zero, and every balance's chain, running balances and head still verify.
 */
(process.env.WALLET_TEST_DATABASE === 'postgresql' ? describe : describe.skip)(
  'hot balance postings when the process is killed (PostgreSQL: the child has its own sessions)',
  () => {
    let databaseUrl: string;
    let t: TestApp;
    let tenant: Tenant;
    let ds: DataSource;

    beforeAll(async () => {
      databaseUrl = await createRunDatabase(process.env.DATABASE_URL!);
      await migrate(databaseUrl);
      t = await startApp({ env: { DATABASE_URL: databaseUrl } });
      tenant = await createTenant(t);
      ds = t.app.get<DataSource>(getDataSourceToken('wallet_test'));
    }, 120_000);

    afterAll(async () => {
      await t?.close();
      if (databaseUrl) await dropRunDatabase(databaseUrl);
    });

    it.each([
      ['group-committed postings', 'grouped'],
      ["postings in callers' transactions, hot legs queued", 'transaction'],
    ])(
      'keeps every acknowledged journal and leaves no partial one after SIGKILL during hot posting: %s',
      async (_, mode) => {
        const balances = t.app.get(BalancesService);
        const ids = await t.app.get(RequestContext).runInMode('test', async () => {
          const out: string[] = [];
          for (const account of ['platform_fees', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8']) {
            // One set of balances per case (the currency tells them apart).
            const currency = mode === 'grouped' ? 'THB' : 'USD';
            out.push((await balances.getOrCreate({ application_id: tenant.applicationId, account, currency })).id);
          }
          return out;
        });
        const child = spawn(process.execPath, [POSTER, tenant.applicationId, ...ids], {
          env: {
            ...process.env,
            DATABASE_URL: databaseUrl,
            LOG_LEVEL: 'warn',
            RUN_JOBS: 'false',
            DB_POOL_SIZE: mode === 'grouped' ? '8' : '72',
            HOT_POSTER_MODE: mode,
            HOT_POSTER_CURRENCY: mode === 'grouped' ? 'THB' : 'USD',
            LEDGER_HOT_ACCOUNTS: 'platform_fees',
          },
        });
        let output = '';
        let errors = '';
        child.stdout.setEncoding('utf8');
        child.stderr.setEncoding('utf8');
        child.stdout.on('data', (chunk: string) => (output += chunk));
        child.stderr.on('data', (chunk: string) => (errors += chunk));
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          child.once('exit', (code, signal) => resolve({ code, signal })),
        );
        const acked = () => output.split('\n').filter((line) => line.startsWith('ack ') && line.length === 40);
        try {
          await until(
            `${ACKS_BEFORE_KILL} acknowledged journals`,
            () => {
              if (child.exitCode !== null) throw new Error(`poster exited ${child.exitCode}: ${errors.slice(-2000)}`);
              return acked().length >= ACKS_BEFORE_KILL;
            },
            () => `${acked().length} acknowledged; ${errors.slice(-2000)}`,
            { timeoutMs: 180_000 },
          );
        } finally {
          child.kill('SIGKILL');
        }
        expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
        const acknowledged = acked().map((line) => line.slice(4));

        // Every journal stored has both its legs summing to zero: written entries, or (queued in the
        // caller's transaction and not applied when the process died) queued legs.
        const currency = mode === 'grouped' ? 'THB' : 'USD';
        const journals = async () =>
          (await ds.query(
            `SELECT j.id, count(l.amount)::int AS legs, coalesce(sum(l.amount), 0)::text AS total,
                  count(l.amount) FILTER (WHERE l.queued)::int AS queued
             FROM wallet_test.journals j
             LEFT JOIN (SELECT journal_id, amount, currency, false AS queued FROM wallet_test.balance_transactions
                        UNION ALL
                        SELECT journal_id, amount, currency, true FROM wallet_test.pending_legs) l ON l.journal_id = j.id
            WHERE j.application_id = $1 AND j.event_type = 'hot_kill_test'
              AND EXISTS (SELECT 1 FROM wallet_test.balance_transactions e WHERE e.journal_id = j.id AND e.currency = $2)
            GROUP BY j.id`,
            [tenant.applicationId, currency],
          )) as Array<{ id: string; legs: number; total: string; queued: number }>;
        const stored = await journals();
        const storedIds = new Set(stored.map((j) => j.id));
        expect(acknowledged.filter((id) => !storedIds.has(id))).toEqual([]);
        expect(stored.filter((j) => j.legs !== 2 || j.total !== '0')).toEqual([]);
        if (mode === 'grouped') expect(stored.filter((j) => j.queued > 0)).toEqual([]);
        // What the killed process left queued is applied by the sweep of any other process (here this one).
        await t.app.get(HotLegsRepository).drain('test');
        expect((await journals()).filter((j) => j.legs !== 2 || j.total !== '0' || j.queued > 0)).toEqual([]);
        const orphans = await ds.query(
          `SELECT e.id FROM wallet_test.balance_transactions e LEFT JOIN wallet_test.journals j ON j.id = e.journal_id
          WHERE e.application_id = $1 AND j.id IS NULL`,
          [tenant.applicationId],
        );
        expect(orphans).toEqual([]);
        await expectLedgerInvariants(t, [tenant.applicationId]);
      },
      240_000,
    );
  },
);
