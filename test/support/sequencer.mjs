// The order Jest starts test files in: the longest first, so the two workers of CI (maxWorkers 2)
// finish together instead of one of them starting a long file last. Jest's own sequencer orders by
// the durations it cached on this machine, and a clean clone (CI) has none: it falls back to file
// size, which puts a short-but-slow file (the embedded server's spec: two initdb runs in
// WebAssembly) near the end. Here a file's duration is the one in test/support/test-durations.json
// (seconds; refreshed with scripts/ci-test-times.mjs), else the one Jest cached locally, else an
// estimate from its size (the median seconds per byte of the listed files). Files that failed last
// time on this machine still come first, as with Jest's own sequencer.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import TestSequencer from '@jest/test-sequencer';

const durations = JSON.parse(readFileSync(new URL('./test-durations.json', import.meta.url), 'utf8')).seconds;

export default class LongestFirstSequencer extends TestSequencer {
  time(test) {
    const seconds = durations[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
    return seconds !== undefined ? seconds * 1000 : super.time(test);
  }

  sort(tests) {
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const rates = tests
      .filter((test) => this.time(test) !== undefined && size(test) > 0)
      .map((test) => this.time(test) / size(test))
      .sort((a, b) => a - b);
    const msPerByte = rates.length > 0 ? rates[Math.floor(rates.length / 2)] : 1;
    const key = new Map(
      tests.map((test) => [test, { failed: this.hasFailed(test), ms: this.time(test) ?? size(test) * msPerByte }]),
    );
    return [...tests].sort((a, b) => {
      const [x, y] = [key.get(a), key.get(b)];
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      return y.ms - x.ms;
    });
  }
}
