#!/usr/bin/env node
/**
 * `npm start`, `npm run cli` and `npm run migration:run`: compile only when the build is out of
 * date. The build is current when dist/.build-stamp (written after each successful build) is newer
 * than every input: the files and folders (a deleted file changes its folder) under src/ and
 * migrations/, ormconfig.ts, the tsconfigs and package-lock.json. Otherwise tsc runs incrementally
 * (dist/.build.tsbuildinfo). A warm start that needs no compile launches no tsc at all.
 * Usage: node scripts/build-if-stale.mjs [--force]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}
