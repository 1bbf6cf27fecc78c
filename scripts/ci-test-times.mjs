#!/usr/bin/env node
/**
 * Where the test run's time goes, per file, and the durations the test sequencer starts files by.
 *
 *   TEST_FILE_TIMES=/tmp/times.jsonl DATABASE_URL=postgresql://…/wallet_test \
 *     npm test -- --json --outputFile=/tmp/jest.json
 *   node scripts/ci-test-times.mjs /tmp/jest.json [/tmp/times.jsonl] [--top 25] [--write]
 *   node scripts/ci-test-times.mjs /tmp/times.jsonl [--top 25] [--write]   (a run cut short: no Jest report)
 *   … [--database embedded]   (the embedded run's lines of the same file; default postgresql)
 *
 * Prints the top files by wall-clock seconds (Jest's own per-file times) with, when the second file
 * is given (written by test/support/file-times.mjs), the CPU seconds of the Jest worker and of the
 * child processes it ended (a browser, a started service) during that file. On a loaded machine the
 * wall-clock numbers stretch; the CPU ones much less. --write stores the wall-clock seconds in
 * test/support/test-durations.json (what test/support/sequencer.mjs orders by).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const positional = args.filter(
  (a, i) => !a.startsWith('--') && (topAt < 0 || i !== topAt + 1) && args[i - 1] !== '--database',
);
const jsonPath = positional[0];
const timesPath = positional[1] ?? (jsonPath?.endsWith('.jsonl') ? jsonPath : undefined);
if (!jsonPath) {
  console.error('usage: node scripts/ci-test-times.mjs <jest --json output> [file-times.jsonl] [--top N] [--write]');
  process.exit(2);
}
const root = process.cwd();
const rel = (file) => relative(root, file).split('\\').join('/');
const rows = new Map();
// A run cut short has no Jest report yet: its file-times lines alone give wall and CPU per finished file.
const report = jsonPath.endsWith('.jsonl') ? { testResults: [] } : JSON.parse(readFileSync(jsonPath, 'utf8'));
// One run's lines: CI's two runs (PostgreSQL and embedded, side by side) append to the same file, each
// line naming its database; --database embedded reads the other run's (default: postgresql).
const databaseAt = args.indexOf('--database');
const database = databaseAt >= 0 ? args[databaseAt + 1] : 'postgresql';
const lines = (path) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((row) => (row.database ?? 'postgresql') === database);
if (jsonPath.endsWith('.jsonl')) {
  for (const { file, wallMs } of lines(jsonPath)) {
    rows.set(rel(file), { wall: wallMs / 1000, tests: 0, status: 'passed' });
  }
}
for (const result of report.testResults) {
  rows.set(rel(result.name), {
    wall: (result.endTime - result.startTime) / 1000,
    tests: result.assertionResults.length,
    status: result.status,
  });
}
if (timesPath) {
  for (const { file, cpuMs, childCpuMs } of lines(timesPath)) {
    const row = rows.get(rel(file));
    if (row) Object.assign(row, { cpu: cpuMs / 1000, childCpu: childCpuMs / 1000 });
  }
}
const sorted = [...rows].sort((a, b) => b[1].wall - a[1].wall);
const sum = (key) => sorted.reduce((s, [, r]) => s + (r[key] ?? 0), 0);
const fmt = (n) => (n === undefined ? '-' : n.toFixed(1)).padStart(7);
console.log(
  `${sorted.length} files, ${sum('tests')} tests; wall ${sum('wall').toFixed(0)} s summed over files` +
    (timesPath ? `, worker CPU ${sum('cpu').toFixed(0)} s, children CPU ${sum('childCpu').toFixed(0)} s` : ''),
);
console.log(`${'wall s'.padStart(7)} ${'cpu s'.padStart(7)} ${'child s'.padStart(7)} tests file`);
for (const [file, r] of sorted.slice(0, top)) {
  console.log(
    `${fmt(r.wall)} ${fmt(r.cpu)} ${fmt(r.childCpu)} ${String(r.tests).padStart(5)} ${file}${r.status === 'passed' ? '' : ` (${r.status})`}`,
  );
}
if (flag('--write')) {
  const seconds = Object.fromEntries(sorted.map(([file, r]) => [file, Math.round(r.wall)]));
  const out = new URL('../test/support/test-durations.json', import.meta.url);
  const previous = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')).seconds : {};
  const note =
    'Wall-clock seconds per test file on the PostgreSQL run (scripts/ci-test-times.mjs --write): only their order ' +
    'matters (test/support/sequencer.mjs starts the longest first). Files this run did not finish keep their old value.';
  const merged = { ...previous, ...seconds };
  const ordered = Object.fromEntries(Object.entries(merged).sort((a, b) => b[1] - a[1]));
  writeFileSync(
    out,
    `${JSON.stringify({ note, measured: new Date().toISOString().slice(0, 10), seconds: ordered }, null, 2)}\n`,
  );
  console.log(`wrote ${Object.keys(seconds).length} durations to test/support/test-durations.json`);
}
