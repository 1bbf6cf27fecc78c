import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { AppError } from '../../../src/common/errors/app-error.js';
import {
  BalancesService,
  HotLegsRepository,
  PostingService,
  type PostedJournal,
  type PostingEntry,
} from '../../../src/modules/ledger/index.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { expectLedgerInvariants } from '../../support/ledger-invariants.js';

const POSTERS = 64;
const onPostgres = process.env.WALLET_TEST_DATABASE === 'postgresql';
const ROUNDS = 6;

/**
 * Hot balances (docs/LEDGER.md, "Hot balances"): postings outside a caller's transaction are
 * group-committed (one transaction locks the batch's balances once and applies its postings in
 * order); inside a caller's transaction, legs on a hot balance (LEDGER_HOT_ACCOUNTS) are queued in
 * that transaction without the balance's lock and applied after its commit. The
 * `non_negative_available` guard holds under 64 concurrent posters on every path.
 */
describe('PostingService on a hot balance (group commit)', () => {
  let t: TestApp;
  let tenant: Tenant;
  let ctx: RequestContext;
  let posting: PostingService;
  let balances: BalancesService;
  let ds: DataSource;

  const inTest = <T>(fn: () => Promise<T>) => ctx.runInMode('test', fn);
  const entry = (balance_id: string, amount: number, extra: Partial<PostingEntry> = {}): PostingEntry => ({
    balance_id,
    amount,
    currency: 'THB',
    state: 'available',
    type: 'transfer',
    source: 'hot_balance_test',
    ...extra,
  });
  const balance = (account: string, currency = 'THB') =>
    inTest(async () => (await balances.getOrCreate({ application_id: tenant.applicationId, account, currency })).id);
  const codeOf = (error: unknown) => (error instanceof AppError ? error.definition.code : String(error));

  beforeAll(async () => {
    // Balances of these accounts are hot: legs on them in callers' transactions are queued.
    t = await startApp({ env: { LEDGER_HOT_ACCOUNTS: 'hot_fees,hot_clearing' } });
    tenant = await createTenant(t);
    ctx = t.app.get(RequestContext);
    posting = t.app.get(PostingService);
    balances = t.app.get(BalancesService);
    ds = t.app.get<DataSource>(getDataSourceToken('wallet_test'));
  });
  afterAll(() => t.close());

  /** The guarded balance's entries in chain order: every running balance >= 0 and each follows the one before. */
  async function expectNeverNegative(balanceId: string, funded: number): Promise<void> {
    const rows: Array<{ amount: string; running_balance: string; chain_seq: string }> = await ds.query(
      `SELECT amount::text, running_balance::text, chain_seq::text FROM wallet_test.balance_transactions
        WHERE balance_id = $1 ORDER BY wallet_test.balance_transactions.chain_seq`,
      [balanceId],
    );
    let running = 0;
    for (const [i, r] of rows.entries()) {
      running += Number(r.amount);
      expect(Number(r.chain_seq)).toBe(i + 1);
      expect(Number(r.running_balance)).toBe(running);
      expect(running).toBeGreaterThanOrEqual(0);
    }
    const [b] = await ds.query(`SELECT available::text, hold::text FROM wallet_test.balances WHERE id = $1`, [
      balanceId,
    ]);
    expect(Number(b.available)).toBe(running);
    expect(Number(b.available)).toBeGreaterThanOrEqual(0);
    expect(running).toBeLessThanOrEqual(funded);
  }

  /** The guarded balance of a race, funded with `funded`, and the merchants' balances it pays and is paid by. */
  async function fundedRace(account: string, merchants: string[], funded: number) {
    const guarded = await balance(account);
    const others = await Promise.all(merchants.map((a) => balance(`merchant_${a}`)));
    const funding = await balance('funding');
    await inTest(() =>
      posting.post({
        application_id: tenant.applicationId,
        event_type: 'hot_test.fund',
        entries: [entry(funding, -funded), entry(guarded, funded)],
      }),
    );
    return { guarded, others };
  }

  /**
   * 64 posters, ROUNDS debits each of the guarded balance (and a credit now and then), more than it
   * holds in total: answers what each posting got.
   */
  async function race(
    guarded: string,
    others: string[],
    post: (entries: PostingEntry[]) => Promise<unknown>,
  ): Promise<{ ok: number; refused: number; other: string[] }> {
    const outcome = { ok: 0, refused: 0, other: [] as string[] };
    await Promise.all(
      Array.from({ length: POSTERS }, async (_, poster) => {
        for (let round = 0; round < ROUNDS; round++) {
          const other = others[(poster + round) % others.length];
          const amount = 1_000 + ((poster * 7919 + round * 104_729) % 9_000);
          const credit = (poster + round) % 8 === 0;
          try {
            await post(
              credit
                ? [entry(other, -amount), entry(guarded, amount)]
                : [entry(guarded, -amount), entry(other, amount)],
            );
            outcome.ok += 1;
          } catch (error) {
            if (codeOf(error) === 'E9005') outcome.refused += 1;
            else outcome.other.push(codeOf(error));
          }
        }
      }),
    );
    return outcome;
  }

  it('never takes a guarded balance below zero under 64 concurrent group-committed posters', async () => {
    const funded = 500_000;
    const { guarded, others } = await fundedRace('platform_fees', ['m1', 'm2', 'm3', 'm4'], funded);
    const outcome = await race(guarded, others, (entries) =>
      inTest(() =>
        posting.post({
          application_id: tenant.applicationId,
          event_type: 'hot_test.grouped',
          entries,
          non_negative_available: [guarded],
        }),
      ),
    );
    expect(outcome.other).toEqual([]);
    expect(outcome.ok + outcome.refused).toBe(POSTERS * ROUNDS);
    // The debits ask for about 5,500 * 384 * 7/8 = 1.8 million of 0.5 million (plus the credits): the guard bites.
    expect(outcome.refused).toBeGreaterThan(0);
    expect(outcome.ok).toBeGreaterThan(0);
    await expectNeverNegative(guarded, funded + 10_000 * POSTERS * ROUNDS);
    const [journals] = await ds.query(
      `SELECT count(*)::int AS n, count(DISTINCT xmin::text)::int AS transactions FROM wallet_test.journals
        WHERE application_id = $1 AND event_type = 'hot_test.grouped'`,
      [tenant.applicationId],
    );
    // Every accepted posting has its journal, no refused one has; and journals shared transactions.
    expect(journals.n).toBe(outcome.ok);
    expect(journals.transactions).toBeLessThan(journals.n);
    await expectLedgerInvariants(t, [tenant.applicationId]);
  });

  it('never takes a guarded balance below zero under 64 concurrent posters in their own transactions', async () => {
    const funded = 300_000;
    const { guarded, others } = await fundedRace('payouts_reserve', ['m5', 'm6'], funded);
    const db = t.app.get(ModeDb);
    const outcome = await race(guarded, others, (entries) =>
      inTest(() =>
        db.transaction((manager) =>
          posting.post(
            {
              application_id: tenant.applicationId,
              event_type: 'hot_test.in_transaction',
              entries,
              non_negative_available: [guarded],
            },
            manager,
          ),
        ),
      ),
    );
    expect(outcome.other).toEqual([]);
    expect(outcome.refused).toBeGreaterThan(0);
    await expectNeverNegative(guarded, funded + 10_000 * POSTERS * ROUNDS);
    await expectLedgerInvariants(t, [tenant.applicationId]);
  });

  it('answers a refused posting its own error while the rest of its batch commits, and chains repeated entries in order', async () => {
    const hot = await balance('platform_fees_2');
    const a = await balance('merchant_a');
    const usd = await balance('merchant_usd', 'USD');
    const unknown = '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b';
    const post = (entries: PostingEntry[], guard: string[] = []) =>
      posting.post({
        application_id: tenant.applicationId,
        event_type: 'hot_test.batch',
        entries,
        non_negative_available: guard,
      });
    // Submitted in one turn of the event loop: they leave in the same batch (or the next).
    const outcomes = await inTest(() =>
      Promise.allSettled([
        post([entry(a, -700), entry(hot, 700)]),
        post([entry(unknown, -5), entry(hot, 5)]),
        post([entry(hot, -300), entry(a, 100), entry(hot, -400), entry(a, 600)], [hot]),
        post([entry(hot, -1), entry(usd, 1)]),
        post([entry(hot, -1), entry(a, 1)], [hot]),
        post([
          entry(a, -50, { state: 'available' }),
          entry(hot, 50, { state: 'hold', available_on: new Date(Date.now() + 86_400_000) }),
        ]),
      ]),
    );
    const codes = outcomes.map((o) => (o.status === 'fulfilled' ? 'ok' : codeOf(o.reason)));
    expect(codes).toEqual(['ok', 'E9003', 'ok', 'E9004', 'E9005', 'ok']);
    const third = outcomes[2];
    if (third.status !== 'fulfilled') throw new Error('the third posting was refused');
    // Two entries on the hot balance in one posting take consecutive places, each running balance after the one before.
    const onHot = third.value.entries.filter((e) => e.balance_id === hot);
    expect(onHot.map((e) => e.running_balance)).toEqual([400, 0]);
    expect(onHot[1].chain_seq).toBe((onHot[0].chain_seq ?? 0) + 1);
    const [queued] = await ds.query(`SELECT count(*)::int AS n FROM wallet_test.hold_releases WHERE balance_id = $1`, [
      hot,
    ]);
    expect(queued.n).toBe(1);
    await expectLedgerInvariants(t, [tenant.applicationId]);
  });

  describe("in callers' transactions, on a hot balance (queued legs)", () => {
    const inTransaction = <T>(work: (manager: EntityManager) => Promise<T>) =>
      inTest(() => t.app.get(ModeDb).transaction(work));

    it("queues the hot leg without the balance's row lock, atomically with the caller's transaction", async () => {
      const hot = await balance('hot_fees');
      const merchant = await balance('merchant_q1');
      let posted: PostedJournal | undefined;
      // The caller's transaction is open with the posting in it: the hot balance's row is not locked
      // (another session locks it NOWAIT), the journal sums to zero counting its queued leg, and
      // nobody else sees anything yet.
      await inTransaction(async (manager) => {
        posted = await posting.post(
          {
            application_id: tenant.applicationId,
            event_type: 'hot_test.queued',
            entries: [entry(merchant, -250), entry(hot, 250)],
          },
          manager,
        );
        expect(posted.entries.map((e) => e.balance_id)).toEqual([merchant]);
        expect(posted.pending).toEqual([
          { id: expect.any(String), balance_id: hot, amount: 250, currency: 'THB', type: 'transfer' },
        ]);
        const [sums] = await manager.query(
          `SELECT (SELECT coalesce(sum(amount), 0) FROM wallet_test.balance_transactions WHERE journal_id = $1)
                + (SELECT coalesce(sum(amount), 0) FROM wallet_test.pending_legs WHERE journal_id = $1) AS total`,
          [posted.journal.id],
        );
        expect(Number(sums.total)).toBe(0);
        // Other sessions (PostgreSQL only: the embedded database has one session, held by this transaction).
        if (onPostgres) {
          await ds.transaction(async (other) => {
            const locked = await other.query(`SELECT id FROM wallet_test.balances WHERE id = $1 FOR UPDATE NOWAIT`, [
              hot,
            ]);
            expect(locked).toHaveLength(1);
          });
          const [outside] = await ds.query(`SELECT count(*)::int AS n FROM wallet_test.journals WHERE id = $1`, [
            posted.journal.id,
          ]);
          expect(outside.n).toBe(0);
        }
      });
      // Committed: the balance's amount counts the leg whether or not the applier has run yet.
      const read = await inTest(() => balances.retrieve({ application: { id: tenant.applicationId } } as never, hot));
      expect(read.available).toBe(250);
      await t.app.get(HotLegsRepository).drain('test');
      const rows: Array<{ id: string; running_balance: string }> = await ds.query(
        `SELECT id, running_balance::text FROM wallet_test.balance_transactions WHERE balance_id = $1`,
        [hot],
      );
      expect(rows).toEqual([{ id: posted!.pending[0].id, running_balance: '250' }]);
      await expectLedgerInvariants(t, [tenant.applicationId]);
    });

    it("leaves no journal and no queued leg when the caller's transaction rolls back", async () => {
      const hot = await balance('hot_fees');
      const merchant = await balance('merchant_q2');
      let journalId = '';
      await expect(
        inTransaction(async (manager) => {
          const posted = await posting.post(
            {
              application_id: tenant.applicationId,
              event_type: 'hot_test.rolled_back',
              entries: [entry(merchant, -40), entry(hot, 40)],
            },
            manager,
          );
          journalId = posted.journal.id;
          throw new Error('the caller fails after posting');
        }),
      ).rejects.toThrow('the caller fails after posting');
      const [left] = await ds.query(
        `SELECT (SELECT count(*) FROM wallet_test.journals WHERE id = $1)::int
              + (SELECT count(*) FROM wallet_test.pending_legs WHERE journal_id = $1)::int
              + (SELECT count(*) FROM wallet_test.balance_transactions WHERE journal_id = $1)::int AS n`,
        [journalId],
      );
      expect(left.n).toBe(0);
    });

    it('never takes a guarded hot balance below zero under 64 concurrent posters in their own transactions (queued credits, guarded debits)', async () => {
      const funded = 400_000;
      const { guarded, others } = await fundedRace('hot_clearing', ['m7', 'm8', 'm9'], funded);
      let queued = 0;
      const outcome = await race(guarded, others, (entries) =>
        inTransaction(async (manager) => {
          // A credit of the hot balance is queued (no guard on it); a debit is guarded, so it locks.
          const credit = entries.some((e) => e.balance_id === guarded && e.amount > 0);
          const posted = await posting.post(
            {
              application_id: tenant.applicationId,
              event_type: 'hot_test.queued_race',
              entries,
              non_negative_available: credit ? [] : [guarded],
            },
            manager,
          );
          expect(posted.pending.map((p) => p.balance_id)).toEqual(credit ? [guarded] : []);
          if (credit) queued += 1;
        }),
      );
      expect(outcome.other).toEqual([]);
      expect(outcome.ok + outcome.refused).toBe(POSTERS * ROUNDS);
      expect(outcome.refused).toBeGreaterThan(0);
      expect(queued).toBeGreaterThan(0);
      await t.app.get(HotLegsRepository).drain('test');
      await expectNeverNegative(guarded, funded + 10_000 * POSTERS * ROUNDS);
      const [journals] = await ds.query(
        `SELECT count(*)::int AS n FROM wallet_test.journals WHERE application_id = $1 AND event_type = 'hot_test.queued_race'`,
        [tenant.applicationId],
      );
      expect(journals.n).toBe(outcome.ok);
      await expectLedgerInvariants(t, [tenant.applicationId]);
    });

    it("counts a hot balance's queued debits against a guarded debit (both queued and guarded on one balance)", async () => {
      const hot = await balance('hot_fees', 'USD');
      const merchant = await balance('merchant_q3', 'USD');
      const usd = (balance_id: string, amount: number) => ({ ...entry(balance_id, amount), currency: 'USD' });
      await inTest(() =>
        posting.post({
          application_id: tenant.applicationId,
          event_type: 'hot_test.fund',
          entries: [usd(merchant, -100), usd(hot, 100)],
        }),
      );
      await inTransaction(async (manager) => {
        // An unguarded debit of 70 is queued; a guarded debit of 40 then sees 100 - 70 = 30.
        const queuedDebit = await posting.post(
          {
            application_id: tenant.applicationId,
            event_type: 'hot_test.q',
            entries: [usd(hot, -70), usd(merchant, 70)],
          },
          manager,
        );
        expect(queuedDebit.pending).toHaveLength(1);
        await expect(
          posting.post(
            {
              application_id: tenant.applicationId,
              event_type: 'hot_test.q',
              entries: [usd(hot, -40), usd(merchant, 40)],
              non_negative_available: [hot],
            },
            manager,
          ),
        ).rejects.toMatchObject({ definition: { code: 'E9005' } });
      });
      await expectLedgerInvariants(t, [tenant.applicationId]);
    });
  });
});
