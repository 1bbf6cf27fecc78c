#!/usr/bin/env node
/**
 * `npm start`, `npm run cli` and `npm run migration:run`: compile only when the build is out of
 * date. The build is current when dist/.build-stamp (written after each successful build) is newer
 * than every input: the files and folders (a deleted file changes its folder) under src/ and
 * migrations/, ormconfig.ts, the tsconfigs and package-lock.json. Otherwise tsc runs incrementally
 * (dist/.build.tsbuildinfo). A warm start that needs no compile launches no tsc at all.
 * `--test-support` (npm test's pretest) also writes dist/test/support/test-database.js, which Jest's
 * global setup loads outside Jest's transform: one file transpiled on its own (no type-check: `npm
 * run typecheck` and the build check it), so a fresh build is not compiled a second time.
 * Usage: node scripts/build-if-stale.mjs [--force] [--test-support]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const STAMP = 'dist/.build-stamp';
const INPUTS = ['src', 'migrations', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** Newest modification time of `path` and, for a folder, of everything under it. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const stamp = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
const stale = process.argv.includes('--force') || INPUTS.some((input) => newest(input) > stamp);
if (stale) {
  const tsc = spawnSync(
    process.execPath,
    [
      'node_modules/typescript/bin/tsc',
      '-p',
      'tsconfig.build.json',
      '--incremental',
      '--tsBuildInfoFile',
      'dist/.build.tsbuildinfo',
    ],
    { stdio: 'inherit' },
  );
  // A type error fails the build; tsc has written the output anyway (the test support below still is).
  if (tsc.status !== 0) process.exitCode = tsc.status ?? 1;
  else writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

if (process.argv.includes('--test-support')) {
  const source = 'test/support/test-database.ts';
  const output = 'dist/test/support/test-database.js';
  if (!existsSync(output) || statSync(source).mtimeMs > statSync(output).mtimeMs) {
    const { default: ts } = await import('typescript');
    const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
      fileName: source,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 },
    });
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, outputText);
  }
}
