import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OS_COMMANDS, type Replay, replayDockerfile, rewriteEnv } from '../../support/dockerfile-replay.js';
import { createRunDatabase, dropRunDatabase } from '../../support/test-database.js';
import { freePort, until } from '../../support/processes.js';

/**
 * The image, proved without a container engine: the Dockerfile's stages replayed in temp roots on
 * this machine's Node (which must be the version the FROM tag names), the migration Job's command
 * and then the final CMD run from the runtime stage's root, with its ENV and WORKDIR and (as root)
 * its USER's uid/gid, against a database of its own, until /readyz answers 200. The layer cache
 * (keyed by the instructions and the bytes copied before the first RUN) keeps a repeated run from
 * installing the same lock file again; the build itself always runs.
 */
(process.env.WALLET_TEST_DATABASE === 'postgresql' ? describe : describe.skip)(
  'Dockerfile replay (PostgreSQL only: the image runs against PostgreSQL; the CI runs it once)',
  () => {
    const workRoot = mkdtempSync(join(tmpdir(), 'dockerfile-replay-'));
    let databaseUrl: string;
    let replay: Replay;
    let service: ChildProcess | undefined;

    beforeAll(async () => {
      databaseUrl = await createRunDatabase(process.env.DATABASE_URL!);
    });

    afterAll(async () => {
      if (service && service.exitCode === null) service.kill('SIGKILL');
      rmSync(workRoot, { recursive: true, force: true });
      if (databaseUrl) await dropRunDatabase(databaseUrl);
    });

    it('builds every stage from what COPY brings in, then the CMD answers /readyz 200 on PostgreSQL', async () => {
      const started = performance.now();
      replay = replayDockerfile({
        context: process.cwd(),
        workRoot,
        cacheDir: join(tmpdir(), 'wallet-dockerfile-replay-layers'),
      });
      const built = performance.now();
      const final = replay.stages[replay.stages.length - 1];
      expect(final.cmd).toEqual(['node', 'dist/src/main.js']);
      // Only the documented OS-level commands and the shared npm cache were left out.
      expect(replay.notRun).toEqual([
        expect.stringMatching(/: npm cache clean --force \(not run: /),
        ...Object.keys(OS_COMMANDS).map((c) =>
          expect.stringMatching(new RegExp(`: ${c} .*\\(present here, not run: `)),
        ),
      ]);

      // Nothing of the working tree: the runtime root holds exactly what its COPY lines named.
      const appDir = join(final.root, final.workdir);
      expect(readFileSync(join(appDir, 'package.json'), 'utf8')).toBe(readFileSync('package.json', 'utf8'));
      expect(spawnSync('ls', ['-A', appDir], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort()).toEqual([
        'dist',
        'node_modules',
        'package.json',
      ]);

      // As the image's USER when this runs as root (files root-owned and read-only to it, as in the image).
      const [uid, gid] = (final.user ?? '').split(':').map(Number);
      const asUser = process.getuid?.() === 0 && uid > 0 ? { uid, gid } : {};
      chmodSync(workRoot, 0o755);
      const env = {
        PATH: `${join(process.execPath, '..')}:/usr/local/bin:/usr/bin:/bin`,
        ...rewriteEnv(final.env, final.root),
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'info',
      };

      const migrate = spawnSync('node', ['dist/src/cli/main.js', 'migrations:run'], {
        cwd: appDir,
        env,
        encoding: 'utf8',
        ...asUser,
      });
      expect({ status: migrate.status, stderr: migrate.stderr }).toEqual({ status: 0, stderr: '' });
      expect(migrate.stdout).toMatch(/^applied: /);

      const port = await freePort();
      let output = '';
      const [command, ...args] = final.cmd!;
      service = spawn(command, args, { cwd: appDir, env: { ...env, PORT: String(port) }, ...asUser });
      service.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      service.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await until(
        '/readyz 200 from the replayed image',
        async () => {
          if (service!.exitCode !== null) throw new Error(`the CMD exited ${service!.exitCode}: ${output}`);
          const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
          return res?.status === 200;
        },
        () => output,
        { timeoutMs: 60_000, everyMs: 200 },
      );
      console.log(
        `Dockerfile replay: stages built in ${Math.round(built - started)} ms` +
          ` (layer cache: ${replay.cachedLayers.join(', ') || 'none'}), /readyz 200 after ${Math.round(performance.now() - started)} ms\n` +
          `not run:\n  ${replay.notRun.join('\n  ')}`,
      );
    }, 300_000);
  },
);
