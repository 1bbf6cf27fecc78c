// A process that posts journals on one hot balance without end, for the kill -9 test of group
// commit (test/e2e/ledger/hot-balance-kill.e2e-spec.ts): the compiled service's Nest application
// (dist/, no HTTP: postings have no public endpoint), POSTERS concurrent posters, each journal
// acknowledged on stdout (`ack <journal id>`) the moment PostingService.post resolves, i.e. after
// the transaction that carried it has committed. stdout is a pipe, written synchronously on Linux:
// an acknowledged line is in the pipe before the poster posts again.
// HOT_POSTER_MODE=transaction: each journal is posted inside a caller's transaction (ModeDb.transaction,
// the service's own flows' path; with LEDGER_HOT_ACCOUNTS naming the hot balance's account its leg is
// queued, docs/LEDGER.md "Hot balances") and acknowledged once that transaction has committed.
// Usage: node test/support/hot-poster.mjs APPLICATION_ID HOT_BALANCE_ID OTHER_BALANCE_ID...
import 'reflect-metadata';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const POSTERS = 64;
const [applicationId, hot, ...others] = process.argv.slice(2);
const dist = (path) => import(pathToFileURL(join(process.cwd(), 'dist', path)).href);
const { createApp } = await dist('src/app.factory.js');
const { RequestContext } = await dist('src/common/context/request-context.js');
const { PostingService } = await dist('src/modules/ledger/index.js');
const { ModeDb } = await dist('src/common/database/mode-db.js');
const inTransaction = process.env.HOT_POSTER_MODE === 'transaction';
const app = await createApp();
await app.init();
const ctx = app.get(RequestContext);
const posting = app.get(PostingService);
const db = app.get(ModeDb);
const entry = (balance_id, amount) => ({
  balance_id,
  amount,
  currency: process.env.HOT_POSTER_CURRENCY ?? 'THB',
  state: 'available',
  type: 'transfer',
  source: 'hot_kill_test',
});
process.stdout.write('ready\n');
let n = 0;
await ctx.runInMode('test', () =>
  Promise.all(
    Array.from({ length: POSTERS }, async () => {
      for (;;) {
        n += 1;
        const other = others[n % others.length];
        const amount = 1 + (n % 997);
        const entries =
          n % 2 ? [entry(hot, -amount), entry(other, amount)] : [entry(other, -amount), entry(hot, amount)];
        const journal = { application_id: applicationId, event_type: 'hot_kill_test', entries };
        const posted = inTransaction
          ? await db.transaction((manager) => posting.post(journal, manager))
          : await posting.post(journal);
        process.stdout.write(`ack ${posted.journal.id}\n`);
      }
    }),
  ),
);
