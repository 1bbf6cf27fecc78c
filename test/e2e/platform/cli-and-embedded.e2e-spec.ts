import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTenant, expectErrorObject, startApp, type TestApp } from '../../support/harness.js';
import { freePort } from '../../support/processes.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const MAIN = join(process.cwd(), 'dist/src/main.js');

function cli(args: string[], env: Record<string, string | undefined> = {}) {
  return run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, timeout: 180_000 });
}

/** Starts `npm start`'s compiled entry point and resolves once it logs that it listens. */
function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', ...env },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('wallet service listening')) resolve({ child, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

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

describe('embedded database and first run', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-embedded-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the demo application on first start, serves the CLI while running, and keeps data across restarts', async () => {
    const port = String(await freePort());
    const first = await startServer({ DATA_DIR: dataDir, PORT: port });
    try {
      expect(first.output()).toContain('created the demo application');
      const keysFile = join(dataDir, 'demo-keys.json');
      expect(statSync(keysFile).mode & 0o777).toBe(0o600);
      const demo = JSON.parse(readFileSync(keysFile, 'utf8'));
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/demo/platform/wallet/errors/catalog`, {
        headers: { Authorization: `Basic ${Buffer.from(`${demo.keys.live}:`).toString('base64')}` },
      });
      expect(res.status).toBe(200);
      // The CLI reaches the embedded database through the running server.
      const created = JSON.parse(
        (
          await cli(['apps:create', '--slug', 'second', '--countries', 'TH', '--json'], {
            DATA_DIR: dataDir,
            DATABASE_URL: '',
          })
        ).stdout,
      );
      expect(created.app).toBe('second');
    } finally {
      await stopServer(first.child);
    }

    const again = await startServer({ DATA_DIR: dataDir, PORT: port });
    try {
      expect(again.output()).not.toContain('created the demo application');
      const second = JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8'));
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/second/platform/wallet/errors/catalog`, {
        headers: { Authorization: `Basic ${Buffer.from(`${second.keys.live}:`).toString('base64')}` },
      });
      // The demo key belongs to another application: the "second" app survived the restart (E1300, not E3001).
      expect(res.status).toBe(403);
    } finally {
      await stopServer(again.child);
    }
  }, 240_000);
});
