import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { eventCommands } from '../../../src/cli/commands/events.js';
import { EVENT_TYPES } from '../../../src/common/events/event-types.js';
import { NOT_TRIGGERABLE, TRIGGERS } from '../../../src/cli/remote/triggers.js';
import { InvoiceCollectionJob } from '../../../src/modules/billing/collection/index.js';
import { CreditGrantsJob } from '../../../src/modules/billing/index.js';
import { InvoicingJob } from '../../../src/modules/billing/invoicing/index.js';
import { SubscriptionsJob } from '../../../src/modules/billing/subscriptions/index.js';
import { MeterEventForwardingJob } from '../../../src/modules/meter/index.js';
import { ReconciliationRunsJob } from '../../../src/modules/reconciliation/index.js';
import { ReportRunsJob } from '../../../src/modules/reporting/index.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { until } from '../../support/processes.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

/**
 * The partner's loop against a running deployment: `events:listen` is a separate process that is
 * given only the wallet base URL and a test secret key in its environment (no DATABASE_URL, no
 * configuration, no key on its command line), and forwards what `events:trigger` (the same command
 * code, only the URL and key) makes happen, for every event type the service emits.
 */
describe('events:listen and events:trigger with only a URL and a test key', () => {
  let t: TestApp;
  let tenant: Tenant;
  let receiver: WebhookReceiver;
  let listener: ChildProcess | undefined;
  let output = '';
  let stopWorker = async () => {};

  /**
   * The deployment's worker (RUN_JOBS=true; tests run with it off), for this tenant and test mode
   * only, so no other file's rows are touched: it moves advancing test clocks, records upcoming
   * invoice notices, expires credit grants, makes subscription invoices' off-session attempts and
   * forwards meter events, produces report runs and runs reconciliation runs, as the recipes that wait for it expect. Each round starts when the last one ended,
   * paced by a short pause (it polls, as the worker's timers do; nothing waits for time to pass).
   */
  function startWorker(): () => Promise<void> {
    const scope = { applicationIds: [tenant.applicationId], modes: ['test' as const] };
    let running = true;
    const rounds = (async () => {
      while (running) {
        await t.app.get(SubscriptionsJob).run(scope);
        await t.app.get(InvoicingJob).run(scope);
        await t.app.get(CreditGrantsJob).run(scope);
        await t.app.get(InvoiceCollectionJob).run(scope);
        await t.app.get(MeterEventForwardingJob).drainOnce('test', scope);
        await t.app.get(ReportRunsJob).runPending(scope);
        await t.app.get(ReconciliationRunsJob).runPending(scope);
        await pause(50);
      }
    })();
    return async () => {
      running = false;
      await rounds;
    };
  }

  beforeAll(async () => {
    t = await startApp({ rateLimit: false, listen: true });
    tenant = await createTenant(t);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await stopWorker();
    if (listener && listener.exitCode === null) listener.kill('SIGKILL');
    await receiver.stop();
    await t.close();
  });

  it('forwards every event type, each triggered and signed with the session secret it printed', async () => {
    const baseUrl = `${t.url}${tenant.path('')}`;
    /** Every event id of the application, through all pages. */
    const listIds = async () => {
      const ids: string[] = [];
      for (let after = ''; ;) {
        const query = { limit: 100, 'use-cursor': 'true', ...(after ? { starting_after: after } : {}) };
        const page = await t.http.get(tenant.path('/events')).query(query).set(tenant.as('test'));
        ids.push(...(page.body.data as Array<{ id: string }>).map((e) => e.id));
        if (!page.body.has_more) return ids;
        after = ids[ids.length - 1];
      }
    };
    const before = new Set(await listIds());
    listener = spawn(process.execPath, [CLI, 'events:listen', '--forward-to', receiver.url, '--json'], {
      env: { PATH: process.env.PATH, WALLET_API_URL: baseUrl, WALLET_API_KEY: tenant.keys.test },
    });
    listener.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    listener.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(
      'events:listen ready',
      () => output.includes('"ready":true'),
      () => output,
    );
    const secret = (JSON.parse(output.split('\n')[0]) as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);

    // Four at a time, as a partner's terminals would: the listener sees commits interleave.
    const triggered = Object.keys(EVENT_TYPES);
    const queue = [...triggered];
    const triggerNext = async () => {
      for (let type = queue.shift(); type !== undefined; type = queue.shift()) {
        const printed: unknown[] = [];
        await eventCommands['events:trigger'].run({
          args: { type, 'base-url': baseUrl, key: tenant.keys.test },
          json: true,
          print: (value) => printed.push(value),
          warn: () => undefined,
        });
        expect(printed).toEqual([{ triggered: type }]);
      }
    };
    stopWorker = startWorker();
    await Promise.all(Array.from({ length: 4 }, triggerNext));
    await stopWorker();

    await until(
      'every triggered type forwarded',
      () => triggered.every((type) => receiver.ofType(type).length > 0),
      () => `missing: ${triggered.filter((type) => receiver.ofType(type).length === 0).join(', ')}\n${output}`,
      { timeoutMs: 60_000, everyMs: 100 },
    );
    // Everything GET /events has since the start, each once (the last ones may still be on their way).
    let made: string[] = [];
    await until(
      'every new event forwarded',
      async () => {
        made = (await listIds()).filter((id) => !before.has(id));
        return made.every((id) => receiver.received.some((r) => r.event.id === id));
      },
      () => output,
      { timeoutMs: 30_000, everyMs: 200 },
    );
    const verifier = new Webhook(secret);
    for (const delivery of receiver.received) {
      expect(verifier.verify(delivery.body, delivery.headers as Record<string, string>)).toEqual(delivery.event);
    }
    const ids = receiver.received.map((r) => r.event.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(made.sort());
    // The key came from the environment: nothing warned about one on the command line.
    expect(output).not.toContain('warning');
  }, 240_000);

  it('has a recipe for every event type the service emits', () => {
    expect(Object.keys(EVENT_TYPES).filter((type) => !(type in TRIGGERS))).toEqual([]);
    expect(NOT_TRIGGERABLE).toEqual({});
  });

  it('refuses a live key, an unknown type and a missing key as usage errors, and warns of a key given as a flag', async () => {
    const warnings: string[] = [];
    const run = (args: Record<string, string>) =>
      eventCommands['events:trigger'].run({
        args,
        json: true,
        print: () => undefined,
        warn: (line) => warnings.push(line),
      });
    const baseUrl = `${t.url}${tenant.path('')}`;
    await expect(run({ type: 'charge.succeeded', 'base-url': baseUrl, key: tenant.keys.live })).rejects.toThrow(
      'test-mode secret key',
    );
    expect(warnings).toEqual([expect.stringContaining('set WALLET_API_KEY instead')]);
    await expect(run({ type: 'charge.nope', 'base-url': baseUrl, key: tenant.keys.test })).rejects.toThrow(
      'unknown event type',
    );
    await expect(run({ type: 'charge.succeeded', 'base-url': baseUrl })).rejects.toThrow(
      '--key or WALLET_API_KEY is required',
    );
    await expect(run({ type: 'charge.succeeded', key: tenant.keys.test })).rejects.toThrow(
      '--base-url or WALLET_API_URL is required',
    );
  });
});
