import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTenant, expectErrorObject, startApp, type TestApp } from '../../support/harness.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/cli/main.js');

function cli(args: string[], env: Record<string, string | undefined> = {}) {
  return run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, timeout: 180_000 });
}

/**
 * The operator CLI (the compiled dist/src/cli/main.js) on the run's database, next to a service on
 * it. Its first start on the embedded database is test/e2e/platform/embedded-first-run.
 */
describe('operator CLI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('creates an application whose keys work, adds and revokes keys', async () => {
    const slug = `cli-${Date.now().toString(36)}`;
    const { stdout } = await cli([
      'apps:create',
      '--slug',
      slug,
      '--countries',
      'TH,SG',
      '--name',
      'CLI app',
      '--json',
    ]);
    const created = JSON.parse(stdout);
    expect(created).toEqual({
      app: slug,
      keys: { test: expect.stringMatching(/^sk_test_/), live: expect.stringMatching(/^sk_live_/) },
    });

    const path = `/api/v1/${slug}/platform/wallet/errors/catalog`;
    const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    expect((await t.http.get(path).set({ Authorization: basic(created.keys.live) })).status).toBe(200);

    const extra = JSON.parse((await cli(['keys:create', '--app', slug, '--mode', 'test', '--json'])).stdout);
    expect(extra.key).toMatch(/^sk_test_/);
    expect((await t.http.get(path).set({ Authorization: basic(extra.key), 'X-Test-Mode': 'true' })).status).toBe(200);

    await cli(['keys:revoke', '--key', extra.key, '--json']);
    // A verified key is remembered for 5 s (KEY_CACHE_MS): revocation takes effect within that.
    t.clock.advance(5_001);
    const refused = await t.http.get(path).set({ Authorization: basic(extra.key), 'X-Test-Mode': 'true' });
    expect(refused.status).toBe(401);
    expectErrorObject(refused.body, 'E1211');
  });

  it('fails with a clear message and exit code 2 on bad input', async () => {
    const tenant = await createTenant(t);
    await expect(cli(['apps:create', '--slug', tenant.slug, '--countries', 'TH', '--json'])).rejects.toMatchObject({
      code: 2,
    });
    await expect(cli(['keys:create', '--app', 'no-such-app', '--mode', 'test'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('E3001'),
    });
    await expect(cli(['keys:create', '--app', tenant.slug, '--mode', 'prod'])).rejects.toMatchObject({ code: 2 });
  });
});
