/**
 * npm run bench:ledger — PostingService throughput on real PostgreSQL.
 *
 * Runs the service's Nest application (no HTTP: postings have no public endpoint) against a
 * dedicated database, creates 1,000 balances, then lets CONCURRENCY workers post two-entry journals
 * for DURATION_MS: first across random pairs of balances, then with one hot balance on every
 * journal. Afterwards it checks the ledger (every journal sums to zero, every balance equals its
 * entries), prints a table, writes bench/results/ledger.json and drops the database.
 */
import 'reflect-metadata';
import { createDatabase, dropDatabase, printTable, summarize, writeResults } from './support.js';

const DB = 'wallet_bench_ledger_test';
const BALANCES = 1_000;
// 16 concurrent posters: on a 2-core host more backends only add context switches (measured
// 2026-11-24: 12 -> 1,604, 16 -> 1,706, 24 -> 1,326, 32 -> 1,190 journals/s across many balances).
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);

async function main(): Promise<void> {
  const url = await createDatabase(DB);
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL = 'warn';
  process.env.RUN_JOBS = 'false';
  process.env.DB_POOL_SIZE = String(CONCURRENCY + 4);
  const { createApp } = await import('../src/app.factory.js');
  const { ApplicationsService } = await import('../src/modules/applications/index.js');
  const { RequestContext } = await import('../src/common/context/request-context.js');
  const { BalancesService, PostingService } = await import('../src/modules/ledger/index.js');
  const { getDataSourceToken } = await import('@nestjs/typeorm');
  const app = await createApp();
  await app.init();
  try {
    const application = (await app.get(ApplicationsService).create({ slug: 'bench', countries: ['TH'] })).application;
    const ctx = app.get(RequestContext);
    const posting = app.get(PostingService);
    const balances = app.get(BalancesService);
    const inTest = <T>(fn: () => Promise<T>) => ctx.runInMode('test', fn);
    const ids: string[] = [];
    await inTest(async () => {
      for (let i = 0; i < BALANCES; i++) {
        const b = await balances.getOrCreate({
          application_id: application.id,
          // One account per balance: (account, customer, currency) names a balance.
          account: i === 0 ? 'application' : `bench_${i}`,
          currency: 'THB',
        });
        ids.push(b.id);
      }
    });
    const hot = ids[0];

    const run = async (name: string, target: number, pair: () => [string, string]) => {
      console.log(`running: ${name}`);
      const latencies: number[] = [];
      let journals = 0;
      const started = performance.now();
      const deadline = started + DURATION_MS;
      await inTest(() =>
        Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (performance.now() < deadline) {
              const [from, to] = pair();
              const amount = 1 + Math.floor(Math.random() * 100_000);
              const t0 = performance.now();
              await posting.post({
                application_id: application.id,
                description: 'bench transfer',
                event_type: 'bench',
                entries: [
                  {
                    balance_id: from,
                    amount: -amount,
                    currency: 'THB',
                    state: 'available',
                    type: 'transfer',
                    source: 'bench',
                  },
                  { balance_id: to, amount, currency: 'THB', state: 'available', type: 'transfer', source: 'bench' },
                ],
              });
              latencies.push(performance.now() - t0);
              journals += 1;
            }
          }),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      const perSecond = Math.round(journals / seconds);
      const s = summarize(latencies);
      return {
        scenario: name,
        journals,
        seconds: Math.round(seconds * 10) / 10,
        journals_per_s: perSecond,
        target_per_s: target,
        meets_target: perSecond >= target,
        post_p50_ms: s.p50,
        post_p99_ms: s.p99,
      };
    };
    const random = () => Math.floor(Math.random() * BALANCES);
    const results = [];
    results.push(
      await run('many balances (random pairs)', 2000, () => {
        const a = random();
        let b = random();
        while (b === a) b = random();
        return [ids[a], ids[b]];
      }),
    );
    results.push(
      await run('one hot balance on every journal', 500, () => {
        const other = 1 + Math.floor(Math.random() * (BALANCES - 1));
        return Math.random() < 0.5 ? [hot, ids[other]] : [ids[other], hot];
      }),
    );

    const ds = app.get(getDataSourceToken('wallet_test'));
    const [unbalanced] = await ds.query(
      `SELECT count(*) AS n FROM (SELECT journal_id FROM wallet_test.balance_transactions GROUP BY journal_id HAVING sum(amount) <> 0) x`,
    );
    const [drift] = await ds.query(
      `SELECT count(*) AS n FROM wallet_test.balances b
         LEFT JOIN (SELECT balance_id, sum(amount) AS total FROM wallet_test.balance_transactions GROUP BY balance_id) s
           ON s.balance_id = b.id
        WHERE b.available + b.hold <> coalesce(s.total, 0)`,
    );
    const consistent = Number(unbalanced.n) === 0 && Number(drift.n) === 0;
    printTable(results);
    console.log(
      `ledger consistent after the run: ${consistent} (unbalanced journals ${unbalanced.n}, drifted balances ${drift.n})`,
    );
    const path = writeResults('ledger.json', {
      benchmark: 'ledger',
      measured_at: new Date().toISOString(),
      database: 'PostgreSQL at ' + url.replace(/\/[^/]*$/, ''),
      balances: BALANCES,
      concurrency: CONCURRENCY,
      duration_ms_per_scenario: DURATION_MS,
      consistent,
      results,
    });
    console.log(`wrote ${path}`);
    if (!consistent) process.exitCode = 1;
  } finally {
    await app.close();
    await dropDatabase(DB);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
