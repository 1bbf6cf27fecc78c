import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

/**
 * The compiled service's first start on the embedded database (DATABASE_URL empty, a DATA_DIR of
 * its own), whichever database the test run uses: CI runs this file once, on the PostgreSQL run
 * (.ci/run, same_everywhere). The operator CLI on the run's database is test/e2e/platform/cli.
 */
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
