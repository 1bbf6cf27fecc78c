/**
 * The service process of `npm run bench:billing` (bench/billing.ts starts it as a child, and kills
 * it with SIGKILL in `--kill` mode): the service's Nest application against DATABASE_URL, jobs off,
 * running one phase through the real job code, in test mode:
 * - `close`: SubscriptionsJob.run() until no subscription is due (the period close);
 * - `finalize`: InvoicingJob.run() (the grace window's end: late events, invoice.finalized).
 * Prints one JSON line: the phase, wall ms, CPU ms of this process and its peak RSS.
 */
import 'reflect-metadata';

async function main(): Promise<void> {
  const phase = process.argv[2];
  if (phase !== 'close' && phase !== 'finalize') throw new Error(`unknown phase ${phase}`);
  process.env.RUN_JOBS = 'false';
  process.env.LOG_LEVEL ??= 'warn';
  const { createApp } = await import('../src/app.factory.js');
  const { SubscriptionsJob } = await import('../src/modules/billing/subscriptions/subscriptions.job.js');
  const { InvoicingJob } = await import('../src/modules/billing/invoicing/invoicing.job.js');
  const app = await createApp();
  await app.init();
  try {
    const scope = { modes: ['test' as const] };
    const cpu = process.cpuUsage();
    const started = performance.now();
    process.stdout.write(JSON.stringify({ started: true }) + '\n');
    const result =
      phase === 'close' ? await app.get(SubscriptionsJob).run(scope) : await app.get(InvoicingJob).run(scope);
    const used = process.cpuUsage(cpu);
    process.stdout.write(
      JSON.stringify({
        phase,
        ms: Math.round(performance.now() - started),
        cpuMs: Math.round((used.user + used.system) / 1000),
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        result,
      }) + '\n',
    );
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
