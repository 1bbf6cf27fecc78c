/**
 * npm run bench:reconciliation — issue #38's "Done when" for settlement reconciliation, at full size.
 *
 * Boots the service on a dedicated database (BENCH_DATABASE_SERVER) with test-mode keys of the local
 * fake Opn and Stripe (test/support/fake-provider.ts, the real adapters talking to them over
 * loopback). For each provider: BENCH_ROWS (default 10,000) succeeded charges booked in the ledger
 * and settled clean in one payout must give 0 mismatches; then BENCH_ROWS charges whose payout
 * carries BENCH_FAULTS (default 50) faults of each kind (missing in the ledger, missing at the
 * provider, amount, fee, duplicate) must have every fault flagged as its kind and nothing else.
 * Each run is made through ReconciliationRunsService and run by ReconciliationRunsJob, as a worker
 * replica would. Prints a table, writes bench/results/reconciliation.json and drops the database.
 */
import 'reflect-metadata';
import { createDatabase, dropDatabase, printTable, writeResults } from './support.js';
import { fakeOpn, fakeStripe } from '../test/support/fake-provider.js';
import {
  injectFaults,
  seedSettledCharges,
  serveOpnSettlement,
  serveStripeSettlement,
  type Fault,
  type SettledLine,
} from '../test/support/fake-settlements.js';

const DB = 'wallet_bench_reconciliation_test';
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const FAULTS_PER_KIND = Number(process.env.BENCH_FAULTS ?? 50);
const KINDS: Fault[] = ['missing_in_ledger', 'missing_at_provider', 'amount_mismatch', 'fee_mismatch', 'duplicate'];
const KEYS = {
  opn: { secret: 'skey_test_5benchopnreconcile0', public: 'pkey_test_5benchopnreconcile0' },
  stripe: {
    secret: 'sk_test_51BenchStripeReconcile000',
    publishable: 'pk_test_51BenchStripeReconcile000',
    webhook: 'whsec_benchStripeReconcileSecret00',
  },
};

interface Row extends Record<string, string | number | boolean> {
  provider: string;
  scenario: string;
  rows: number;
  lines_imported: number;
  seed_ms: number;
  run_ms: number;
  mismatches: number;
  faults_injected: number;
  faults_flagged: number;
  false_positives: number;
  pass: boolean;
}

async function main(): Promise<void> {
  const url = await createDatabase(DB);
  const opn = await fakeOpn(KEYS.opn.secret).start();
  const stripe = await fakeStripe(KEYS.stripe.secret).start();
  Object.assign(process.env, {
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    RUN_JOBS: 'false',
    OPN_SECRET_KEY_TEST: KEYS.opn.secret,
    OPN_PUBLIC_KEY_TEST: KEYS.opn.public,
    OPN_BASE_URL: opn.baseUrl,
    STRIPE_SECRET_KEY_TEST: KEYS.stripe.secret,
    STRIPE_PUBLISHABLE_KEY_TEST: KEYS.stripe.publishable,
    STRIPE_WEBHOOK_SECRET_TEST: KEYS.stripe.webhook,
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String(stripe.port),
    STRIPE_API_PROTOCOL: 'http',
  });
  const { createApp } = await import('../src/app.factory.js');
  const { ApplicationsService } = await import('../src/modules/applications/index.js');
  const { ReconciliationRunsJob, ReconciliationRunsService } = await import('../src/modules/reconciliation/index.js');
  const { RECONCILIATION_ITEM_LIST } = await import('../src/modules/reconciliation/reconciliation-runs.service.js');
  const { parseListQuery } = await import('../src/common/list/index.js');
  const { RequestContext } = await import('../src/common/context/request-context.js');
  const { scopeOf } = await import('../src/common/context/principal.js');
  const app = await createApp();
  await app.init();
  const rows: Row[] = [];
  let n = 0;
  try {
    const context = app.get(RequestContext);
    const referenceOf = (provider: 'opn' | 'stripe', i: number) =>
      `${provider === 'opn' ? 'chrg_test_bench' : 'pi_3Bench'}${n}x${i.toString(36).padStart(5, '0')}`;

    const scenario = async (provider: 'opn' | 'stripe', faults: Fault[]): Promise<Row> => {
      n += 1;
      const { application } = await app
        .get(ApplicationsService)
        .create({ slug: `bench-recon-${n}`, countries: ['TH'] });
      const principal = {
        ...scopeOf(application, 'test', 'TH'),
        credential: {
          applicationId: application.id,
          mode: 'test' as const,
          privilege: 'machine' as const,
          method: 'secret_key' as const,
          subject: 'bench',
        },
      };
      const seed0 = performance.now();
      const lines = await seedSettledCharges(app, application.id, provider, ROWS, (i) => referenceOf(provider, i));
      const seedMs = performance.now() - seed0;
      const { served, expected } = injectFaults(lines, faults, (i) => referenceOf(provider, 10_000_000 + i));
      const payout = provider === 'opn' ? `trsf_test_bench${n}` : `po_bench${n}`;
      serve(provider, payout, served);
      const run0 = performance.now();
      const created = await context.runInMode('test', () =>
        app.get(ReconciliationRunsService).create(principal, { provider, payout }),
      );
      await app.get(ReconciliationRunsJob).runPending({ applicationIds: [application.id], modes: ['test'] });
      const runMs = performance.now() - run0;
      const run = await context.runInMode('test', () =>
        app.get(ReconciliationRunsService).retrieve(principal, created.id),
      );
      if (run.status !== 'succeeded') throw new Error(`${provider} run ended ${run.status}: ${run.error}`);
      const flagged = new Map<string, string>();
      await context.runInMode('test', async () => {
        for (let page = 1; ; page += 1) {
          const query = parseListQuery(
            { limit: '100', page: String(page), 'filter[outcome][ne]': 'matched' },
            RECONCILIATION_ITEM_LIST,
          );
          const list = await app.get(ReconciliationRunsService).items(principal, run.id, query);
          for (const item of list.data) flagged.set(item.reference, item.outcome);
          if (page >= list.total_pages) break;
        }
      });
      let right = 0;
      for (const [reference, outcome] of expected) if (flagged.get(reference) === outcome) right += 1;
      const falsePositives = [...flagged.keys()].filter((reference) => !expected.has(reference)).length;
      return {
        provider,
        scenario: faults.length === 0 ? 'clean' : `${FAULTS_PER_KIND} faults of each kind`,
        rows: ROWS,
        lines_imported: run.line_count ?? 0,
        seed_ms: Math.round(seedMs),
        run_ms: Math.round(runMs),
        mismatches: run.mismatch_count ?? 0,
        faults_injected: expected.size,
        faults_flagged: right,
        false_positives: falsePositives,
        pass: right === expected.size && falsePositives === 0 && (run.mismatch_count ?? 0) === expected.size,
      };
    };
    const serve = (provider: 'opn' | 'stripe', payout: string, lines: SettledLine[]) =>
      provider === 'opn'
        ? serveOpnSettlement(opn, payout, lines, { id: `trsf_test_prev${payout}`, created: lines[0].created - 3600 })
        : serveStripeSettlement(stripe, payout, lines);

    const faults = KINDS.flatMap((kind) => Array.from({ length: FAULTS_PER_KIND }, () => kind));
    for (const provider of ['stripe', 'opn'] as const) {
      rows.push(await scenario(provider, []));
      rows.push(await scenario(provider, faults));
    }
  } finally {
    await app.close();
    await opn.stop();
    await stripe.stop();
    await dropDatabase(DB);
  }
  printTable(rows);
  const load = (await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const path = writeResults('reconciliation.json', {
    benchmark: 'reconciliation',
    measured_at: new Date().toISOString(),
    target: 'clean: 0 mismatches; faults: every injected fault flagged as its kind, 0 false positives',
    load_average: load,
    results: rows,
    pass: rows.every((r) => r.pass),
  });
  console.log(`wrote ${path}`);
  if (!rows.every((r) => r.pass)) process.exitCode = 1;
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
