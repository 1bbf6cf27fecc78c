import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The machine's own Node (20 on these machines): the entries must refuse it in one line, not die by a signal. */
const OLD_NODE = '/usr/bin/node';
const oldVersion = spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
const isOld = /^v(\d+)\./.test(oldVersion) && Number(/^v(\d+)\./.exec(oldVersion)![1]) < 24;

(isOld ? describe : describe.skip)(
  `on ${OLD_NODE} (${oldVersion || 'absent'}), older than package.json engines`,
  () => {
    it.each([
      ['the server', 'dist/src/main.js', []],
      ['the CLI', 'dist/src/cli/main.js', ['migrations:run']],
    ])('%s prints one line naming the Node it needs and exits 1', (_, entry, args) => {
      const run = spawnSync(OLD_NODE, [join(process.cwd(), entry as string), ...(args as string[])], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/never_test' },
      });
      expect({ status: run.status, signal: run.signal }).toEqual({ status: 1, signal: null });
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toEqual([
        `wallet-payments-service needs Node >=24 (package.json engines), but this is Node ${oldVersion}; run it with Node 24, e.g. \`npx -y node@24 dist/src/main.js\` (docs/DEPLOYMENT.md)`,
      ]);
    });
  },
);
