import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { AppError } from '../../../src/common/errors/app-error.js';
import {
  BalancesService,
  HoldReleaseJob,
  PostingService,
  type Posting,
  type PostingEntry,
} from '../../../src/modules/ledger/index.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { expectLedgerInvariants } from '../../support/ledger-invariants.js';

const DAY = 24 * 3600 * 1000;

interface Account {
  id: string;
  currency: string;
}

/** A journal over 2..4 distinct balances of one currency whose amounts sum to zero; held funds only grow. */
function journalArb(accounts: Account[]): fc.Arbitrary<Omit<Posting, 'application_id'>> {
  const currencies = [...new Set(accounts.map((a) => a.currency))];
  return fc.constantFrom(...currencies).chain((currency) => {
    const mine = accounts.filter((a) => a.currency === currency);
    return fc
      .record({
        picked: fc.shuffledSubarray(mine, { minLength: 2, maxLength: Math.min(4, mine.length) }),
        amounts: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 4, maxLength: 4 }),
        signs: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        states: fc.array(fc.constantFrom('available', 'hold') as fc.Arbitrary<'available' | 'hold'>, {
          minLength: 4,
          maxLength: 4,
        }),
        holdDays: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
      })
      .map(({ picked, amounts, signs, states, holdDays }) => {
        const entries: PostingEntry[] = picked.map((a, i) => ({
          balance_id: a.id,
          currency,
          amount: signs[i] ? amounts[i] : -amounts[i],
          state: states[i],
          available_on: states[i] === 'hold' && holdDays[i] > 0 ? new Date(Date.now() + holdDays[i] * DAY) : null,
          type: 'adjustment',
          source: 'property_test',
        }));
        const rest = entries.slice(0, -1).reduce((sum, e) => sum + e.amount, 0);
        const last = entries[entries.length - 1];
        last.amount = -rest === 0 ? 1 : -rest;
        if (rest === 0) entries[0].amount -= 1;
        // Held funds are only ever added here: taking them (a refund of held funds) is the lifecycle
        // property test's (lifecycle.property.e2e-spec.ts), where a hold never goes below zero.
        for (const e of entries.filter((x) => x.amount < 0))
          Object.assign(e, { state: 'available', available_on: null });
        return { event_type: 'property_test', description: 'random posting', entries };
      });
  });
}

describe('PostingService (property tests over random postings)', () => {
  let t: TestApp;
  let tenant: Tenant;
  let ctx: RequestContext;
  let posting: PostingService;
  let releases: HoldReleaseJob;
  let ds: DataSource;
  let accounts: Account[];

  const inTest = <T>(fn: () => Promise<T>) => ctx.runInMode('test', fn);

  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t);
    ctx = t.app.get(RequestContext);
    posting = t.app.get(PostingService);
    releases = t.app.get(HoldReleaseJob);
    ds = t.app.get<DataSource>(getDataSourceToken('wallet_test'));
    const balances = t.app.get(BalancesService);
    accounts = await inTest(async () => {
      const out: Account[] = [];
      for (const [i, currency] of ['THB', 'THB', 'THB', 'THB', 'USD', 'USD', 'USD'].entries()) {
        const b = await balances.getOrCreate({
          application_id: tenant.applicationId,
          account: i === 0 ? 'application' : 'customer',
          name: `account ${i}`,
          currency,
        });
        out.push({ id: b.id, currency: b.currency });
      }
      return out;
    });
  });
  afterAll(() => t.close());

  const snapshot = async () =>
    new Map(
      (
        (await ds.query(
          `SELECT id, journal_id, balance_id, amount::text, state, currency, created_at, available_on
             FROM wallet_test.balance_transactions WHERE application_id = $1`,
          [tenant.applicationId],
        )) as Array<Record<string, unknown>>
      ).map((r) => [r.id as string, JSON.stringify(r)]),
    );

  /** The ledger invariants (test/support/ledger-invariants.ts), and no entry changed since `before`. */
  async function expectLedgerConsistent(before: Map<string, string>): Promise<void> {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    const after = await snapshot();
    for (const [id, row] of before) expect(after.get(id)).toBe(row);
  }

  it('keeps every journal at zero and every balance equal to its entries under concurrent postings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(journalArb(accounts), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        async (waves) => {
          const before = await snapshot();
          for (const wave of waves) {
            // Each posting of a wave runs in its own transaction on its own pool connection, at once.
            await inTest(() =>
              Promise.all(wave.map((p) => posting.post({ ...p, application_id: tenant.applicationId }))),
            );
          }
          await expectLedgerConsistent(before);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('releases due holds as new postings and stays consistent', async () => {
    const before = await snapshot();
    const pending = Number(
      (
        await ds.query(`SELECT count(*) AS n FROM wallet_test.hold_releases WHERE application_id = $1`, [
          tenant.applicationId,
        ])
      )[0].n,
    );
    expect(pending).toBeGreaterThan(0);
    t.clock.advance(4 * DAY);
    const released = await releases.releaseDue(t.clock.now());
    expect(released).toBeGreaterThanOrEqual(pending);
    const left = await ds.query(`SELECT count(*) AS n FROM wallet_test.hold_releases WHERE application_id = $1`, [
      tenant.applicationId,
    ]);
    expect(Number(left[0].n)).toBe(0);
    await expectLedgerConsistent(before);
    const releaseJournals = await ds.query(
      `SELECT count(*) AS n FROM wallet_test.journals WHERE application_id = $1 AND event_type = 'hold_release'`,
      [tenant.applicationId],
    );
    expect(Number(releaseJournals[0].n)).toBe(pending);
  });

  it('refuses to update or delete an entry (the database trigger)', async () => {
    const [row] = await ds.query(`SELECT id FROM wallet_test.balance_transactions WHERE application_id = $1 LIMIT 1`, [
      tenant.applicationId,
    ]);
    await expect(
      ds.query(`UPDATE wallet_test.balance_transactions SET amount = amount + 1 WHERE id = $1`, [row.id]),
    ).rejects.toThrow(/immutable/);
    await expect(ds.query(`DELETE FROM wallet_test.balance_transactions WHERE id = $1`, [row.id])).rejects.toThrow(
      /immutable/,
    );
  });

  it('refuses unbalanced journals, unknown balances and currency mismatches without writing anything', async () => {
    const before = await snapshot();
    const [thb, , , , usd] = accounts;
    const entry = { type: 'adjustment', source: 'test', state: 'available' as const };
    const attempt = (entries: PostingEntry[]) =>
      inTest(() => posting.post({ application_id: tenant.applicationId, event_type: 'bad', entries }));
    const codeOf = async (p: Promise<unknown>) => {
      try {
        await p;
        return 'no error';
      } catch (e) {
        return e instanceof AppError ? e.definition.code : String(e);
      }
    };
    expect(
      await codeOf(
        attempt([
          { ...entry, balance_id: thb.id, currency: 'THB', amount: 100 },
          { ...entry, balance_id: accounts[1].id, currency: 'THB', amount: -99 },
        ]),
      ),
    ).toBe('E9001');
    expect(
      await codeOf(
        attempt([
          { ...entry, balance_id: thb.id, currency: 'USD', amount: 100 },
          { ...entry, balance_id: usd.id, currency: 'USD', amount: -100 },
        ]),
      ),
    ).toBe('E9004');
    expect(
      await codeOf(
        attempt([
          { ...entry, balance_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', currency: 'THB', amount: 100 },
          { ...entry, balance_id: thb.id, currency: 'THB', amount: -100 },
        ]),
      ),
    ).toBe('E9003');
    expect(await codeOf(attempt([{ ...entry, balance_id: thb.id, currency: 'THB', amount: 0 }]))).toBe('E9002');
    expect(await snapshot()).toEqual(before);
  });
});
