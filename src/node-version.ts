import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The first thing both entry points (the server, the CLI) run, before importing anything that could
 * crash on an older Node (argon2's prebuilt binary segfaults on Node 20, which kills the process by
 * a signal with no message). This module imports only node:fs and uses only syntax Node 18 parses.
 */

/** The smallest version `engines` allows: `>=24`, `>=24.21` or `>=24.21.0` (the forms package.json uses). */
export function minimumFromEngines(range: string): [number, number, number] {
  const match = /^\s*>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range);
  if (!match) throw new Error(`package.json engines.node must be ">=MAJOR[.MINOR[.PATCH]]", got "${range}"`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/** Null when `actual` (e.g. `v24.21.0`) satisfies `range`, else the one-line refusal. */
export function nodeVersionProblem(range: string, actual: string): string | null {
  const minimum = minimumFromEngines(range);
  const have = actual.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > minimum[i]) return null;
    if ((have[i] ?? 0) < minimum[i]) {
      return (
        `wallet-payments-service needs Node ${range.trim()} (package.json engines), but this is Node ${actual}; ` +
        'run it with Node 24, e.g. `npx -y node@24 dist/src/main.js` (docs/DEPLOYMENT.md)'
      );
    }
  }
  return null;
}

/**
 * The nearest package.json at or above `directory`, as Node itself finds a module's package: the
 * service's own build (dist/src) sits two levels below it, the benchmarks' build
 * (dist/bench-build/src) three, the image's /app/dist/src two.
 */
export function nearestManifest(directory: string, exists: (path: string) => boolean = existsSync): string {
  for (let dir = directory; ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (exists(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`no package.json at or above ${directory}`);
  }
}

/** Exits 1 with the refusal on stderr unless this Node satisfies package.json `engines.node`. */
export function exitUnlessSupportedNode(): void {
  const path = nearestManifest(dirname(fileURLToPath(import.meta.url)));
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { engines: { node: string } };
  const problem = nodeVersionProblem(manifest.engines.node, process.version);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
