// TEST_FILE_TIMES=<file>: one JSON line per test file (its path, the wall-clock and the CPU
// milliseconds of its Jest worker process from its first setup to its last afterAll), appended as
// each file ends. What scripts/ci-test-times.mjs reads to rank files and to refresh
// test/support/test-durations.json (the order test/support/sequencer.mjs starts files in).
// The worker's own CPU (the service runs in it), and that of the child processes it waited for
// (a stopped service; a browser's renderers only in part: the walk's TRY_IT_OUT_LOG counts them
// live); the PostgreSQL server's share is in neither.
import { appendFileSync, readFileSync } from 'node:fs';

/** CPU ms of the worker's ended (waited-for) child processes, e.g. a closed Chromium: /proc/self/stat. */
function childCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

const out = process.env.TEST_FILE_TIMES;
if (out) {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const children = childCpuMs();
  afterAll(() => {
    const used = process.cpuUsage(cpu);
    appendFileSync(
      out,
      `${JSON.stringify({
        file: expect.getState().testPath,
        database: process.env.WALLET_TEST_DATABASE,
        worker: process.env.JEST_WORKER_ID,
        wallMs: Math.round(performance.now() - wall),
        cpuMs: Math.round((used.user + used.system) / 1000),
        childCpuMs: childCpuMs() - children,
        heapMb: Math.round(process.memoryUsage().heapUsed / 1048576),
      })}\n`,
    );
  });
}
