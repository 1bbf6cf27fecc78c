import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { AuditChainKeeper } from '../../../src/modules/audit/index.js';
import { createTenant, startApp, type Tenant } from '../../support/harness.js';
import { freePort, until } from '../../support/processes.js';
import { createRunDatabase, dropRunDatabase, migrate } from '../../support/test-database.js';

const MAIN = join(process.cwd(), 'dist/src/main.js');

/**
 * Issue 37 part 3, "Done when": a service killed with SIGKILL while it writes leaves no change
 * without its audit row and no audit row without its change. The compiled service runs as a child
 * on its own database; clients keep creating, disabling (an event) and deleting webhook endpoints
 * at once; the process is killed mid-stream; then the database must agree with the log row for
 * row, and the application's chain must verify. The writers also create customers (no event: the
 * row the service writes for the request itself, docs/AUDIT.md "Rows by route").
 */
(process.env.WALLET_TEST_DATABASE === 'postgresql' ? describe : describe.skip)(
  'audit rows after the process is killed (PostgreSQL: a child process on its own database)',
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
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (databaseUrl) await dropRunDatabase(databaseUrl);
    });

    it('keeps every committed change with its audit row and no row without its change', async () => {
      const port = await freePort();
      const proc = spawn(process.execPath, [MAIN], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          HOST: '127.0.0.1',
          PORT: String(port),
          LOG_LEVEL: 'info',
          RATE_LIMIT: '0',
          RUN_JOBS: 'false',
          MIGRATE_ON_BOOT: 'false',
        },
      });
      child = proc;
      let output = '';
      proc.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
      proc.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        proc.once('exit', (code, signal) => resolve({ code, signal })),
      );
      await until(
        'the service to listen',
        () => {
          if (proc.exitCode !== null) throw new Error(`service exited ${proc.exitCode}: ${output}`);
          return output.includes('wallet service listening');
        },
        () => output.slice(-2000),
      );

      const base = `http://127.0.0.1:${port}`;
      const headers = { ...tenant.as('test'), 'Content-Type': 'application/json' };
      const call = (path: string, body?: object, method = 'POST') =>
        fetch(base + tenant.path(path), { method, headers, body: body ? JSON.stringify(body) : undefined })
          .then(async (r) => ({ status: r.status, body: (await r.json().catch(() => ({}))) as { id?: string } }))
          .catch(() => ({ status: 0, body: {} as { id?: string } }));

      // Four writers, each: create an endpoint, disable it (an event), delete every other one, create a customer.
      let killed = false;
      let completed = 0;
      const writer = async (w: number) => {
        for (let i = 0; !killed; i++) {
          const made = await call('/webhook_endpoints', {
            url: `https://hooks.example.com/${w}/${i}`,
            enabled_events: ['*'],
          });
          if (!made.body.id) continue;
          await call(`/test_helpers/webhook_endpoints/${made.body.id}/disable`);
          if (i % 2 === 0) await call(`/webhook_endpoints/${made.body.id}`, undefined, 'DELETE');
          await call('/customers', { name: `kill-${w}-${i}` });
          completed += 1;
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      await until(
        'some writes to commit',
        () => completed >= 20,
        () => output.slice(-1500),
      );
      proc.kill('SIGKILL');
      killed = true;
      expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
      await Promise.all(writers);

      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        const audit = (
          await db.query<{ action: string; target_id: string }>(
            `SELECT action, target_id FROM platform.audit_events
              WHERE application_id = $1 AND (action LIKE 'webhook_endpoint.%' OR action = 'customer.created')`,
            [tenant.applicationId],
          )
        ).rows;
        const endpoints = new Set(
          (
            await db.query<{ id: string }>(`SELECT id FROM wallet_test.webhook_endpoints WHERE application_id = $1`, [
              tenant.applicationId,
            ])
          ).rows.map((r) => r.id),
        );
        const disabledEvents = (
          await db.query<{ id: string }>(
            `SELECT data->'object'->>'id' AS id FROM wallet_test.events WHERE application_id = $1 AND type = 'webhook_endpoint.disabled'`,
            [tenant.applicationId],
          )
        ).rows.map((r) => r.id);
        const of = (action: string) =>
          audit
            .filter((a) => a.action === action)
            .map((a) => a.target_id)
            .sort();
        const created = of('webhook_endpoint.created');
        const deleted = of('webhook_endpoint.deleted');
        expect(created.length).toBeGreaterThanOrEqual(20);
        expect(new Set(created).size).toBe(created.length);
        // Every endpoint stored has its creation row, every creation row its endpoint or its deletion row.
        expect(created.filter((id) => !deleted.includes(id)).sort()).toEqual([...endpoints].sort());
        expect(deleted.every((id) => created.includes(id) && !endpoints.has(id))).toBe(true);
        // Every disable event has its row, and no row is without its event.
        expect(of('webhook_endpoint.disabled')).toEqual([...disabledEvents].sort());
        // Every customer stored has its row, and no row is without its customer.
        const customers = (
          await db.query<{ id: string }>(
            `SELECT id FROM wallet_test.customers WHERE application_id = $1 AND name LIKE 'kill-%'`,
            [tenant.applicationId],
          )
        ).rows.map((r) => r.id);
        expect(customers.length).toBeGreaterThanOrEqual(20);
        expect(of('customer.created')).toEqual(customers.sort());
      } finally {
        await db.end();
      }

      // The chain is whole: the kill left no half-written place.
      const t = await startApp({ env: { DATABASE_URL: databaseUrl } });
      try {
        const verified = await t.app.get(AuditChainKeeper).verify(tenant.applicationId);
        expect(verified.problems).toEqual([]);
        expect(verified.rows).toBeGreaterThanOrEqual(40);
      } finally {
        await t.close();
      }
    }, 300_000);
  },
);
