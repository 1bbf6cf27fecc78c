/**
 * npm run bench:reports — a `balance_change_from_activity.itemized.1` run over 1,000,000 ledger entries.
 *
 * Seeds one application's test schema (a dedicated database on BENCH_DATABASE_SERVER) with 1,000
 * balances and BENCH_ENTRIES (default 1,000,000) balance transactions, bulk-inserted as the posting
 * service writes them (bench/ledger-seed.ts); then a child process boots the service (RUN_JOBS off),
 * creates the run through ReportRunsService and produces it with ReportRunsJob, as a worker replica
 * would. The child measures its own wall time, CPU time and peak RSS (getrusage maxrss, which
 * includes the booted service). Targets: within 120 s, peak RSS under 300 MB. The child runs with
 * the V8 heap settings a report worker is given (BENCH_WORKER_NODE_FLAGS, default
 * `--max-semi-space-size=2 --max-old-space-size=256`; docs/BENCHMARKS.md says why).
 * Prints a table, writes bench/results/reports.json and drops the database.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { BASE_MS, createApplication, seedLedger, STEP_MS } from './ledger-seed.js';
import { createDatabase, dropDatabase, printTable, writeResults } from './support.js';

const DB = 'wallet_bench_reports_test';
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const BALANCES = 1_000;
const TARGET = { seconds: 120, rss_mb: 300 };
const WORKER_NODE_FLAGS = (process.env.BENCH_WORKER_NODE_FLAGS ?? '--max-semi-space-size=2 --max-old-space-size=256')
  .split(/\s+/)
  .filter(Boolean);

interface Measured {
  rows: number;
  bytes: number;
  wall_ms: number;
  cpu_ms: number;
  peak_rss_mb: number;
  rss_before_run_mb: number;
}

/** In the child: boot the service, run the report, answer what it cost. */
async function produce(url: string, applicationId: string): Promise<Measured> {
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL = 'warn';
  process.env.RUN_JOBS = 'false';
  const { createApp } = await import('../src/app.factory.js');
  const { ApplicationsService } = await import('../src/modules/applications/index.js');
  const { ReportRunsJob, ReportRunsService } = await import('../src/modules/reporting/index.js');
  const { RequestContext } = await import('../src/common/context/request-context.js');
  const { scopeOf } = await import('../src/common/context/principal.js');
  const app = await createApp();
  await app.init();
  try {
    const application = (await app.get(ApplicationsService).byIds([applicationId])).get(applicationId)!;
    const principal = {
      ...scopeOf(application, 'test', 'TH'),
      credential: {
        applicationId,
        mode: 'test' as const,
        privilege: 'machine' as const,
        method: 'secret_key' as const,
        subject: 'bench',
      },
    };
    const interval = {
      interval_start: new Date(BASE_MS - 1000).toISOString(),
      interval_end: new Date(BASE_MS + ENTRIES * STEP_MS + 1000).toISOString(),
    };
    const context = app.get(RequestContext);
    const run = await context.runInMode('test', () =>
      app.get(ReportRunsService).create(principal, {
        report_type: 'balance_change_from_activity.itemized.1',
        parameters: interval,
      }),
    );
    const rssBefore = process.memoryUsage().rss;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await app.get(ReportRunsJob).runPending({ applicationIds: [applicationId], modes: ['test'] });
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const done = await context.runInMode('test', () => app.get(ReportRunsService).retrieve(principal, run.id));
    if (done.status !== 'succeeded') throw new Error(`the run ended ${done.status}: ${done.error}`);
    const file = await context.runInMode('test', async () => {
      const { FilesService } = await import('../src/modules/files/index.js');
      return app.get(FilesService).retrieve(principal, done.result!);
    });
    return {
      rows: done.row_count ?? 0,
      bytes: file.size,
      wall_ms: Math.round(wall),
      cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      rss_before_run_mb: Math.round(rssBefore / 1024 / 1024),
    };
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  const url = await createDatabase(DB);
  try {
    const app = await createApplication(url, false);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await seedLedger(client, app.id, ENTRIES, BALANCES);
    await client.query('VACUUM ANALYZE');
    await client.query('CHECKPOINT');
    await client.end();
    const child = spawnSync(
      process.execPath,
      [...WORKER_NODE_FLAGS, fileURLToPath(import.meta.url), '--produce', url, app.id],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 1024 * 1024,
      },
    );
    if (child.status !== 0) throw new Error(`the report process failed (${child.status}): ${child.stdout}`);
    const measured = JSON.parse(child.stdout.trim().split('\n').pop()!) as Measured;
    const load = (await import('node:os'))
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
    const result = {
      ...measured,
      entries: ENTRIES,
      node_flags: WORKER_NODE_FLAGS.join(' '),
      load_average: load,
      meets_target: measured.wall_ms <= TARGET.seconds * 1000 && measured.peak_rss_mb < TARGET.rss_mb,
    };
    printTable([result]);
    const path = writeResults('reports.json', {
      benchmark: 'reports',
      measured_at: new Date().toISOString(),
      report_type: 'balance_change_from_activity.itemized.1',
      target: TARGET,
      note: 'one worker process producing the run; peak RSS is getrusage maxrss of that process, including the booted service',
      result,
    });
    console.log(`wrote ${path}`);
  } finally {
    if (process.env.BENCH_KEEP_DATABASE !== '1') await dropDatabase(DB);
  }
}

if (process.argv[2] === '--produce') {
  produce(process.argv[3], process.argv[4]).then(
    (measured) => {
      console.log(JSON.stringify(measured));
      process.exit(0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
