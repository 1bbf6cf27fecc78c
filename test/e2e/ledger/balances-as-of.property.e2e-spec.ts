import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { scopeOf, type Scope } from '../../../src/common/context/principal.js';
import { BalancesService, HoldReleaseJob, PostingService } from '../../../src/modules/ledger/index.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { expectLedgerInvariants } from '../../support/ledger-invariants.js';

const MINUTE = 60_000;

interface Entry {
  balance_id: string;
  amount: number;
  state: 'available' | 'hold';
  at: number;
}

/**
 * `as_of` (GET /balances/{id}?as_of=, GET /balances?as_of=) against a brute force: one dataset of
 * postings spread over time (holds, their releases, debits), then 1,000 random moments, each
 * compared with the sum of every entry at or before it, computed from the rows SQL returns.
 */
describe('balances as of a moment', () => {
  let t: TestApp;
  let tenant: Tenant;
  let ctx: RequestContext;
  let scope: Scope;
  let balances: BalancesService;
  let ids: string[];
  let entries: Entry[];
  let first: number;
  let last: number;

  const inTest = <T>(fn: () => Promise<T>) => ctx.runInMode('test', fn);

  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t);
    ctx = t.app.get(RequestContext);
    balances = t.app.get(BalancesService);
    const posting = t.app.get(PostingService);
    const releases = t.app.get(HoldReleaseJob);
    const app = { id: tenant.applicationId, slug: tenant.slug, name: tenant.slug, countries: ['TH'] };
    scope = scopeOf(app, 'test', 'TH');
    first = t.clock.now().getTime();
    ids = await inTest(async () => {
      const made = [];
      for (const account of ['application', 'customer', 'fees']) {
        made.push(await balances.getOrCreate({ application_id: tenant.applicationId, account, currency: 'THB' }));
      }
      return made.map((b) => b.id);
    });
    const [source, merchant, fees] = ids;
    const steps = fc.sample(
      fc.record({
        amount: fc.integer({ min: 1, max: 500_000 }),
        held: fc.boolean(),
        gapMs: fc.integer({ min: 1, max: 90 * MINUTE }),
      }),
      { numRuns: 40, seed: 38 },
    );
    await inTest(async () => {
      for (const [i, step] of steps.entries()) {
        t.clock.advance(step.gapMs);
        const fee = Math.floor(step.amount / 50);
        await posting.post({
          application_id: tenant.applicationId,
          event_type: 'as_of_test',
          entries: [
            {
              balance_id: source,
              currency: 'THB',
              amount: -step.amount,
              state: 'available',
              type: 'adjustment',
              source: 'test',
            },
            {
              balance_id: merchant,
              currency: 'THB',
              amount: step.amount - fee,
              state: step.held ? 'hold' : 'available',
              available_on: step.held ? new Date(t.clock.now().getTime() + 30 * MINUTE) : null,
              type: 'adjustment',
              source: 'test',
            },
            ...(fee > 0
              ? [
                  {
                    balance_id: fees,
                    currency: 'THB',
                    amount: fee,
                    state: 'available' as const,
                    type: 'fee',
                    source: 'test',
                  },
                ]
              : []),
          ],
        });
        // Every few postings the due holds are released (new postings at that moment).
        if (i % 5 === 4)
          await releases.releaseDue(t.clock.now(), { applicationIds: [tenant.applicationId], modes: ['test'] });
      }
      t.clock.advance(MINUTE);
      await releases.releaseDue(t.clock.now(), { applicationIds: [tenant.applicationId], modes: ['test'] });
    });
    last = t.clock.now().getTime();
    const ds = t.app.get<DataSource>(getDataSourceToken('wallet_test'));
    const rows: Array<{ balance_id: string; amount: string; state: 'available' | 'hold'; created_at: Date }> =
      await ds.query(
        `SELECT balance_id, amount::text AS amount, state, created_at FROM wallet_test.balance_transactions
          WHERE application_id = $1`,
        [tenant.applicationId],
      );
    entries = rows.map((r) => ({ ...r, amount: Number(r.amount), at: new Date(r.created_at).getTime() }));
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await t.close();
  });

  const bruteForce = (balanceId: string, at: number) => {
    const mine = entries.filter((e) => e.balance_id === balanceId && e.at <= at);
    const sum = (state: string) => mine.filter((e) => e.state === state).reduce((s, e) => s + e.amount, 0);
    return { available: sum('available'), hold: sum('hold') };
  };

  it('equals the sum of the entries up to the moment, for 1,000 random moments', async () => {
    expect(entries.some((e) => e.state === 'hold' && e.amount < 0)).toBe(true); // releases happened
    // Moments anywhere in the span, and exactly at, just before and just after entries.
    const instants = entries.map((e) => e.at);
    const moment = fc.oneof(
      fc.integer({ min: first - MINUTE, max: last + 0 }),
      fc.constantFrom(...instants).chain((at) => fc.constantFrom(at - 1, at, at + 1)),
    );
    await inTest(() =>
      fc.assert(
        fc.asyncProperty(fc.constantFrom(...ids), moment, async (id, at) => {
          const asOf = new Date(at).toISOString();
          const got = await balances.retrieve(scope, id, asOf);
          const want = bruteForce(id, at);
          expect({ available: got.available, hold: got.hold, total: got.total, as_of: got.as_of }).toEqual({
            ...want,
            total: want.available + want.hold,
            as_of: asOf,
          });
        }),
        { numRuns: 1000, seed: 3803 },
      ),
    );
  });

  it('answers as_of over HTTP for one balance and for the list, and today equals the balance', async () => {
    const at = entries[Math.floor(entries.length / 2)].at;
    const asOf = new Date(at).toISOString();
    const one = await t.http.get(tenant.path(`/balances/${ids[1]}?as_of=${asOf}`)).set(tenant.as('test'));
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: ids[1], object: 'balance', ...bruteForce(ids[1], at), as_of: asOf });

    const list = await t.http
      .get(tenant.path(`/balances?as_of=${encodeURIComponent(asOf)}&limit=10`))
      .set(tenant.as('test'));
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(3);
    for (const b of list.body.data) expect(b).toMatchObject({ ...bruteForce(b.id, at), as_of: asOf });

    const now = await t.http.get(tenant.path(`/balances/${ids[1]}`)).set(tenant.as('test'));
    const asOfNow = await t.http
      .get(tenant.path(`/balances/${ids[1]}?as_of=${encodeURIComponent(t.clock.now().toISOString())}`))
      .set(tenant.as('test'));
    expect(now.body.as_of).toBeUndefined();
    expect({ available: asOfNow.body.available, hold: asOfNow.body.hold }).toEqual({
      available: now.body.available,
      hold: now.body.hold,
    });
  });

  it('lists only the balances that existed at the moment', async () => {
    const before = new Date(first - 1000).toISOString();
    const list = await t.http.get(tenant.path(`/balances?as_of=${encodeURIComponent(before)}`)).set(tenant.as('test'));
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
  });

  it('refuses an as_of that is not RFC 3339 or lies in the future with E2004', async () => {
    for (const bad of ['yesterday', encodeURIComponent(new Date(t.clock.now().getTime() + MINUTE).toISOString())]) {
      const one = await t.http.get(tenant.path(`/balances/${ids[0]}?as_of=${bad}`)).set(tenant.as('test'));
      expect(one.status).toBe(400);
      expectErrorObject(one.body, 'E2004');
      const list = await t.http.get(tenant.path(`/balances?as_of=${bad}`)).set(tenant.as('test'));
      expect(list.status).toBe(400);
      expectErrorObject(list.body, 'E2004');
    }
  });
});
