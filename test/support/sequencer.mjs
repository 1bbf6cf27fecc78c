// The order Jest starts test files in: the longest first, so the two workers of CI (maxWorkers 2)
// finish together instead of one of them starting the Swagger UI walk last. Jest's own sequencer
// orders by the durations it cached on this machine, and a clean clone (CI) has none: it would
// fall back to file size. Here a file's duration is the one in test/support/test-durations.json
// (seconds, measured on CI's PostgreSQL run; refreshed with scripts/ci-test-times.mjs), else what
// Jest cached locally, else the median of the known ones (a new file runs mid-queue, not last).
// Files that failed last time on this machine still come first, as with Jest's own sequencer.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import TestSequencer from '@jest/test-sequencer';

const durations = JSON.parse(readFileSync(new URL('./test-durations.json', import.meta.url), 'utf8')).seconds;
const known = Object.values(durations).sort((a, b) => a - b);
const median = known.length > 0 ? known[Math.floor(known.length / 2)] : 0;

export default class LongestFirstSequencer extends TestSequencer {
  time(test) {
    const seconds = durations[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
    if (seconds !== undefined) return seconds * 1000;
    return super.time(test) ?? median * 1000;
  }
}
