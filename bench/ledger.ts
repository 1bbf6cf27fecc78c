/**
 * npm run bench:ledger — PostingService throughput on real PostgreSQL.
 *
 * Runs the service's Nest application (no HTTP: postings have no public endpoint) against a
 * dedicated database, creates 1,000 balances, then lets CONCURRENCY workers post two-entry journals
 * for DURATION_MS: first across random pairs of balances, then with one hot balance on every
 * journal, then a mix shaped like the money lifecycle (issue 16) on MERCHANTS merchants, each with
 * its own clearing, fees, refunds-pending and payouts-in-transit balances (as an application has):
 * charges (a held credit with a queued release), refunds (the balances locked, available first then
 * held funds, which shrinks the queued release; then the provider's settlement) and payouts
 * (available -> in transit -> paid out), picked at random by every worker. Postings outside a
 * caller's transaction are group-committed (docs/LEDGER.md, "Hot balances"); in the same run, for
 * comparison: the bare baseline (node-pg alone running the posting statement, one statement, lock
 * and commit per journal, no Nest) on random pairs and on the hot balance, the hot balance through
 * the service inside a caller's transaction (the per-journal path), and the hot balance with
 * HOT_WORKERS posters (a server's concurrent requests). In callers' transactions again, on a hot
 * balance of LEDGER_HOT_ACCOUNTS (`platform_fees_queued`): its legs are queued and applied after each
 * commit (docs/LEDGER.md, "Hot balances"); those cases apply what is still queued when the posters
 * stop inside the measured time (`settle_ms`), next to many balances in callers' transactions (the
 * ceiling: one commit per journal, nothing shared). Each case notes the 1-minute load average.
 * Afterwards it checks the ledger (every journal sums to zero, every balance equals its entries, no
 * hold below zero, no queued release above its balance's hold), prints a table, writes
 * bench/results/ledger.json and drops the database (`BENCH_DATABASE` names it, default
 * wallet_bench_ledger_test).
 */
import 'reflect-metadata';
import { loadavg } from 'node:os';
import pg from 'pg';
import type { EntityManager } from 'typeorm';
import { newId } from '../src/common/ids.js';
import type { PostingEntry } from '../src/modules/ledger/index.js';
import { postingStatement } from '../src/modules/ledger/posting.sql.js';
import { createDatabase, dropDatabase, printTable, summarize, writeResults } from './support.js';

const DB = process.env.BENCH_DATABASE ?? 'wallet_bench_ledger_test';
const BALANCES = 1_000;
const MERCHANTS = 50;
const DAY = 24 * 3600 * 1000;
// 16 concurrent posters: on a 2-core host more backends only add context switches (measured
// 2026-11-24: 12 -> 1,604, 16 -> 1,706, 24 -> 1,326, 32 -> 1,190 journals/s across many balances).
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
// Posters of the second hot-balance case (BENCH_HOT_WORKERS).
const HOT_WORKERS = Number(process.env.BENCH_HOT_WORKERS ?? 64);
// BENCH_ONLY=<text>: only the cases whose name contains it (e.g. an A/B of one case).
const ONLY = process.env.BENCH_ONLY ?? '';

async function main(): Promise<void> {
  const url = await createDatabase(DB);
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL = 'warn';
  process.env.RUN_JOBS = 'false';
  process.env.DB_POOL_SIZE = String(Math.max(CONCURRENCY, HOT_WORKERS) + 4);
  // The queued-legs cases' hot balance (docs/LEDGER.md, "Hot balances"): its legs in callers'
  // transactions are queued and applied after commit instead of taking its row lock.
  process.env.LEDGER_HOT_ACCOUNTS = 'platform_fees_queued';
  const { createApp } = await import('../src/app.factory.js');
  const { ApplicationsService } = await import('../src/modules/applications/index.js');
  const { RequestContext } = await import('../src/common/context/request-context.js');
  const { BalancesService, HotLegsRepository, PostingService } = await import('../src/modules/ledger/index.js');
  const { ModeDb } = await import('../src/common/database/mode-db.js');
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
    const hotQueued = await inTest(
      async () =>
        (
          await balances.getOrCreate({
            application_id: application.id,
            account: 'platform_fees_queued',
            currency: 'THB',
          })
        ).id,
    );
    const hotLegs = app.get(HotLegsRepository);

    /**
     * CONCURRENCY workers repeat `op` (which answers how many journals it posted) for DURATION_MS;
     * `settle` (the queued-legs cases: applying what is still queued) runs after them and counts in the time.
     */
    const measure = async (
      name: string,
      target: number | null,
      op: () => Promise<number>,
      workers = CONCURRENCY,
      settle?: () => Promise<unknown>,
    ) => {
      if (ONLY && !name.includes(ONLY)) return null;
      console.log(`running: ${name}`);
      const latencies: number[] = [];
      let journals = 0;
      const started = performance.now();
      const deadline = started + DURATION_MS;
      await inTest(() =>
        Promise.all(
          Array.from({ length: workers }, async () => {
            while (performance.now() < deadline) {
              const t0 = performance.now();
              const posted = await op();
              latencies.push((performance.now() - t0) / Math.max(posted, 1));
              journals += posted;
            }
          }),
        ),
      );
      const settleStarted = performance.now();
      if (settle) await inTest(settle);
      const settleMs = performance.now() - settleStarted;
      const seconds = (performance.now() - started) / 1000;
      const perSecond = Math.round(journals / seconds);
      const s = summarize(latencies);
      return {
        scenario: name,
        journals,
        seconds: Math.round(seconds * 10) / 10,
        workers,
        journals_per_s: perSecond,
        target_per_s: target ?? 'none',
        meets_target: target === null ? 'n/a' : perSecond >= target,
        post_p50_ms: s.p50,
        post_p99_ms: s.p99,
        load_avg_1m: Math.round(loadavg()[0] * 10) / 10,
        settle_ms: settle ? Math.round(settleMs) : 'n/a',
      };
    };
    const entry = (balance_id: string, amount: number, extra: Partial<PostingEntry> = {}): PostingEntry => ({
      balance_id,
      amount,
      currency: 'THB',
      state: 'available',
      type: 'transfer',
      source: 'bench',
      ...extra,
    });
    const run = (name: string, target: number, pair: () => [string, string], workers?: number) =>
      measure(
        name,
        target,
        async () => {
          const [from, to] = pair();
          const amount = 1 + Math.floor(Math.random() * 100_000);
          await posting.post({
            application_id: application.id,
            description: 'bench transfer',
            event_type: 'bench',
            entries: [entry(from, -amount), entry(to, amount)],
          });
          return 1;
        },
        workers,
      );
    const random = () => Math.floor(Math.random() * BALANCES);
    const randomPair = (): [string, string] => {
      const a = random();
      let b = random();
      while (b === a) b = random();
      return [ids[a], ids[b]];
    };
    const hotPair = (): [string, string] => {
      const other = 1 + Math.floor(Math.random() * (BALANCES - 1));
      return Math.random() < 0.5 ? [hot, ids[other]] : [ids[other], hot];
    };
    const db = app.get(ModeDb);
    // The bare baseline, in the same run: node-pg alone (no Nest, no group commit) running the
    // posting statement itself, one statement and so one row lock and one commit per journal.
    const bare = new pg.Pool({ connectionString: url, max: CONCURRENCY });
    const tables = {
      balances: 'wallet_test.balances',
      journals: 'wallet_test.journals',
      entries: 'wallet_test.balance_transactions',
      holdReleases: 'wallet_test.hold_releases',
      pendingLegs: 'wallet_test.pending_legs',
      entryHash: 'wallet_test.ledger_entry_hash',
    };
    const runBare = (name: string, pair: () => [string, string]) =>
      measure(name, null, async () => {
        const [from, to] = pair();
        const amount = 1 + Math.floor(Math.random() * 100_000);
        const { sql, params } = postingStatement(
          tables,
          {
            id: newId(),
            applicationId: application.id,
            description: 'bench transfer',
            eventType: 'bench',
            eventId: null,
            now: new Date(),
          },
          [
            { ...entry(from, -amount), id: newId() },
            { ...entry(to, amount), id: newId() },
          ],
        );
        const { rows } = await bare.query({ name: 'bench_bare_post', text: sql, values: params });
        if (!rows[0].ok) throw new Error('bare posting refused');
        return 1;
      });
    // In a caller's transaction: the service's per-journal path (one lock per journal), for the A/B;
    // on the queued hot balance, its legs are queued and applied after each commit (settle: the
    // legs still queued when the workers stop are applied inside the measured time).
    const inTransaction = (
      name: string,
      pair: () => [string, string],
      target: number | null = null,
      workers?: number,
    ) =>
      measure(
        name,
        target,
        async () => {
          const [from, to] = pair();
          const amount = 1 + Math.floor(Math.random() * 100_000);
          await db.transaction((manager) =>
            posting.post(
              {
                application_id: application.id,
                description: 'bench transfer',
                event_type: 'bench',
                entries: [entry(from, -amount), entry(to, amount)],
              },
              manager,
            ),
          );
          return 1;
        },
        workers,
        target === null ? undefined : () => hotLegs.drain('test'),
      );
    const queuedPair = (): [string, string] => {
      const other = 1 + Math.floor(Math.random() * (BALANCES - 1));
      return Math.random() < 0.5 ? [hotQueued, ids[other]] : [ids[other], hotQueued];
    };
    const results = [];
    results.push(await runBare('bare pg: many balances, statement per journal', randomPair));
    results.push(await run('many balances (random pairs)', 2000, randomPair));
    results.push(await runBare('bare pg: one hot balance, statement per journal', hotPair));
    // The ceiling of postings in callers' transactions: no balance shared (one commit per journal each).
    results.push(await inTransaction('many balances, in a caller transaction', randomPair));
    results.push(await inTransaction('one hot balance, in a caller transaction', hotPair));
    results.push(await inTransaction('one hot balance, in a caller transaction, queued legs', queuedPair, 5000));
    results.push(
      await inTransaction(
        `one hot balance, in a caller transaction, queued legs, ${HOT_WORKERS} posters`,
        queuedPair,
        5000,
        HOT_WORKERS,
      ),
    );
    results.push(await run('one hot balance on every journal', 5000, hotPair));
    results.push(await run(`one hot balance, ${HOT_WORKERS} posters`, 5000, hotPair, HOT_WORKERS));
    await bare.end();

    // The mix: every merchant starts with available funds, so payouts have something to pay out.
    const merchants = await inTest(async () => {
      const out: Array<Record<'merchant' | 'clearing' | 'fees' | 'pending' | 'transit', string>> = [];
      for (let i = 0; i < MERCHANTS; i++) {
        const balance = async (account: string) =>
          (await balances.getOrCreate({ application_id: application.id, account: `${account}_${i}`, currency: 'THB' }))
            .id;
        const m = {
          merchant: await balance('merchant'),
          clearing: await balance('provider_clearing'),
          fees: await balance('fees'),
          pending: await balance('refunds_pending'),
          transit: await balance('payouts_in_transit'),
        };
        await posting.post({
          application_id: application.id,
          event_type: 'bench.seed',
          entries: [entry(m.clearing, -5_000_000), entry(m.merchant, 5_000_000)],
        });
        out.push(m);
      }
      return out;
    });
    const post = (event_type: string, entries: PostingEntry[], manager?: EntityManager) =>
      posting.post({ application_id: application.id, event_type, entries }, manager);
    const charge = async (m: (typeof merchants)[number]) => {
      const gross = 1_000 + Math.floor(Math.random() * 100_000);
      const fee = Math.floor((gross * 365) / 10_000);
      const availableOn = new Date(Date.now() + 7 * DAY);
      await post('charge.succeeded', [
        entry(m.clearing, -gross, { type: 'charge' }),
        entry(m.merchant, gross - fee, { type: 'charge', state: 'hold', available_on: availableOn }),
        entry(m.fees, fee, { type: 'fee' }),
      ]);
      return 1;
    };
    const refund = async (m: (typeof merchants)[number]) => {
      const amount = 100 + Math.floor(Math.random() * 20_000);
      const created = await db.transaction(async (manager) => {
        const now = await balances.lockAmounts(application.id, [m.merchant, m.pending], manager);
        const { available, hold } = now.get(m.merchant)!;
        if (available + hold < amount) return false;
        const held = Math.max(0, Math.min(amount - Math.max(0, Math.min(amount, available)), hold));
        const parts = [entry(m.merchant, -(amount - held), { type: 'refund' })];
        if (held > 0) parts.push(entry(m.merchant, -held, { type: 'refund', state: 'hold' }));
        await post('refund.created', [...parts, entry(m.pending, amount, { type: 'refund' })], manager);
        return true;
      });
      if (!created) return 0;
      await post('refund.succeeded', [entry(m.pending, -amount, { type: 'refund' }), entry(m.clearing, amount)]);
      return 2;
    };
    const payout = async (m: (typeof merchants)[number]) => {
      const amount = 1_000 + Math.floor(Math.random() * 50_000);
      const created = await db.transaction(async (manager) => {
        const now = await balances.lockAmounts(application.id, [m.merchant, m.transit], manager);
        if (now.get(m.merchant)!.available < amount) return false;
        await post(
          'payout.created',
          [entry(m.merchant, -amount, { type: 'payout' }), entry(m.transit, amount)],
          manager,
        );
        return true;
      });
      if (!created) return 0;
      await post('payout.paid', [entry(m.transit, -amount, { type: 'payout' }), entry(m.clearing, amount)]);
      return 2;
    };
    results.push(
      await measure('mixed: charges, refunds, payouts', null, () => {
        const m = merchants[Math.floor(Math.random() * MERCHANTS)];
        const pick = Math.random();
        return pick < 0.5 ? charge(m) : pick < 0.75 ? refund(m) : payout(m);
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
    const [belowPolicy] = await ds.query(
      `SELECT count(*) AS n FROM wallet_test.balances b
         LEFT JOIN (SELECT balance_id, sum(amount) AS queued FROM wallet_test.hold_releases GROUP BY balance_id) q
           ON q.balance_id = b.id
        WHERE b.hold < 0 OR coalesce(q.queued, 0) > b.hold`,
    );
    const [queued] = await ds.query(`SELECT count(*) AS n FROM wallet_test.pending_legs`);
    const consistent =
      Number(unbalanced.n) === 0 && Number(drift.n) === 0 && Number(belowPolicy.n) === 0 && Number(queued.n) === 0;
    printTable(results.filter((r) => r !== null));
    console.log(
      `ledger consistent after the run: ${consistent} (unbalanced journals ${unbalanced.n}, drifted balances ${drift.n}, holds below zero or below their queued releases ${belowPolicy.n}, legs still queued ${queued.n})`,
    );
    const path = writeResults('ledger.json', {
      benchmark: 'ledger',
      measured_at: new Date().toISOString(),
      database: 'PostgreSQL at ' + url.replace(/\/[^/]*$/, ''),
      balances: BALANCES,
      concurrency: CONCURRENCY,
      hot_workers: HOT_WORKERS,
      duration_ms_per_scenario: DURATION_MS,
      consistent,
      results: results.filter((r) => r !== null),
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
