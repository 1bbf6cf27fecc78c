import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { eventCommands } from '../../../src/cli/commands/events.js';
import { EVENT_TYPES } from '../../../src/common/events/event-types.js';
import { NOT_TRIGGERABLE, TRIGGERS } from '../../../src/cli/remote/triggers.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { until } from '../../support/processes.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

/**
 * The partner's loop against a running deployment: `events:listen` is a separate process that is
 * given only the wallet base URL and a test secret key (no DATABASE_URL, no configuration), and
 * forwards what `events:trigger` (the same command code, only the URL and key) makes happen.
 */
describe('events:listen and events:trigger with only a URL and a test key', () => {
  let t: TestApp;
  let tenant: Tenant;
  let receiver: WebhookReceiver;
  let listener: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    t = await startApp({ rateLimit: false, listen: true });
    tenant = await createTenant(t);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    if (listener && listener.exitCode === null) listener.kill('SIGKILL');
    await receiver.stop();
    await t.close();
  });

  it('forwards every triggerable event type, each signed with the session secret it printed', async () => {
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
    listener = spawn(
      process.execPath,
      [CLI, 'events:listen', '--forward-to', receiver.url, '--base-url', baseUrl, '--key', tenant.keys.test, '--json'],
      { env: { PATH: process.env.PATH } },
    );
    listener.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    listener.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(
      'events:listen ready',
      () => output.includes('"ready":true'),
      () => output,
    );
    const secret = (JSON.parse(output.split('\n')[0]) as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);

    const triggered = Object.keys(TRIGGERS);
    for (const type of triggered) {
      const printed: unknown[] = [];
      await eventCommands['events:trigger'].run({
        args: { type, 'base-url': baseUrl, key: tenant.keys.test },
        json: true,
        print: (value) => printed.push(value),
      });
      expect(printed).toEqual([{ triggered: type }]);
    }

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
  }, 240_000);

  it('names the event types no recipe covers, so a new type fails here until it has one', () => {
    const covered = new Set([...Object.keys(TRIGGERS), ...Object.keys(NOT_TRIGGERABLE)]);
    expect(Object.keys(EVENT_TYPES).filter((type) => !covered.has(type))).toEqual([]);
    expect(Object.keys(NOT_TRIGGERABLE).sort()).toEqual([
      'customer.subscription.trial_will_end',
      'meter_event.delivery_failed',
      'payout.canceled',
      'test_helpers.test_clock.ready',
      'webhook_endpoint.disabled',
    ]);
  });

  it('refuses a live key and an unknown type as usage errors', async () => {
    const run = (args: Record<string, string>) =>
      eventCommands['events:trigger'].run({ args, json: true, print: () => undefined });
    const baseUrl = `${t.url}${tenant.path('')}`;
    await expect(run({ type: 'charge.succeeded', 'base-url': baseUrl, key: tenant.keys.live })).rejects.toThrow(
      'test-mode secret key',
    );
    await expect(run({ type: 'charge.nope', 'base-url': baseUrl, key: tenant.keys.test })).rejects.toThrow(
      'unknown event type',
    );
    await expect(run({ type: 'payout.canceled', 'base-url': baseUrl, key: tenant.keys.test })).rejects.toThrow(
      'cannot be triggered through the API',
    );
  });
});
