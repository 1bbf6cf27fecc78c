import fc from 'fast-check';
import type { Response } from 'supertest';
import {
  CARDS,
  card,
  confirm,
  connectedAccount,
  createCheckout,
  createPaymentIntent,
  expectLedgerInvariants,
} from '../../factories/checkout.js';
import { ownAccount } from '../../factories/payouts.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies, inspected field by field
type Row = Record<string, any>;

/**
 * Random sequences of the money lifecycle (issue 16) through the real HTTP API: charges (card or
 * PromptPay, own or destination), refunds (full, partial, the sandbox's failing amount, with or
 * without reverse_transfer), disputes (won or lost), payouts (paid, failed, canceled), PromptPay
 * refund settlement and hold releases. The operations of a sequence are sent at once; each may
 * answer 200 or a refusal with one of the catalog codes it names (an over-refund, a balance too
 * low, a charge already disputed, ...), never anything else. After each sequence the ledger
 * invariants hold and the records agree with the ledger.
 */

type Op =
  | { kind: 'charge'; method: 'card' | 'promptpay'; destination: boolean; amount: number }
  | { kind: 'refund'; charge: number; share: 'full' | 'failing' | number; reverseTransfer: boolean; feeBack: boolean }
  | { kind: 'dispute'; charge: number; outcome: 'win' | 'lose'; partial: boolean }
  | { kind: 'payout'; amount: number | 'available'; failing: boolean; then: 'paid' | 'fail' | 'cancel' }
  | { kind: 'settle_refunds' }
  | { kind: 'release_holds' };

/** The codes an operation may be refused with; anything else (a 5xx above all) fails the property. */
const REFUSALS: Record<Op['kind'], string[]> = {
  charge: [],
  // left over, nothing left, balance policy, disputed, not yet booked
  refund: ['E7501', 'E7503', 'E7504', 'E7505', 'E7502'],
  // already disputed, refunded, closed by a concurrent decision
  dispute: ['E9501', 'E9502', 'E9506', 'E9504'],
  // insufficient available, no longer pending (the sandbox sends at once, so cancel is refused)
  payout: ['E6301', 'E6305'],
  // a concurrent settle got there first
  settle_refunds: ['E4090'],
  release_holds: [],
};

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('charge' as const),
      method: fc.constantFrom('card' as const, 'card' as const, 'promptpay' as const),
      destination: fc.boolean(),
      // From PromptPay's smallest payment (20 THB, the registry's limit) up.
      amount: fc.integer({ min: 2000, max: 60000 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      charge: fc.nat(),
      share: fc.oneof(
        fc.constant('full' as const),
        fc.constant('failing' as const),
        fc.double({ min: 0.05, max: 1.2, noNaN: true }),
      ),
      reverseTransfer: fc.boolean(),
      feeBack: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('dispute' as const),
      charge: fc.nat(),
      outcome: fc.constantFrom('win' as const, 'lose' as const),
      partial: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('payout' as const),
      // 'available': all of the merchant's available funds, so later refunds take held funds.
      amount: fc.oneof(fc.integer({ min: 500, max: 40000 }), fc.constant('available' as const)),
      failing: fc.boolean(),
      then: fc.constantFrom('paid' as const, 'fail' as const, 'cancel' as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'settle_refunds' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'release_holds' as const }) },
);

describe('the money lifecycle (property test over concurrent sequences through the API)', () => {
  let t: TestApp;
  let tenant: Tenant;
  let seller: string;
  const banks: { ok: string; failing: string } = { ok: '', failing: '' };
  /** Every charge made so far: what refund and dispute operations pick from. */
  const charges: Array<{ id: string; amount: number; destination: boolean }> = [];
  const outcomes = new Map<string, number>();

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  const post = (path: string, body: object = {}) => t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);

  /** A 200, or a refusal with one of the codes `kind` allows; counts the outcomes for the report. */
  function accept(kind: Op['kind'], res: Response): boolean {
    if (res.status === 200) {
      outcomes.set(`${kind} 200`, (outcomes.get(`${kind} 200`) ?? 0) + 1);
      return true;
    }
    const code = (res.body as Row).code;
    expect({ kind, status: res.status, code, ok: res.status < 500 && REFUSALS[kind].includes(code) }).toEqual({
      kind,
      status: res.status,
      code,
      ok: true,
    });
    expectErrorObject(res.body, code);
    outcomes.set(`${kind} ${code}`, (outcomes.get(`${kind} ${code}`) ?? 0) + 1);
    return false;
  }

  const bankAccount = async (account: string, accountNumber: string) => {
    const res = await post('/bank_accounts', {
      account,
      type: 'bookbank',
      account_holder_name: 'Somchai Jaidee',
      target: 'THB',
      extra_fields: { bankCode: '004', accountNumber },
    });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };

  async function charge(op: Extract<Op, { kind: 'charge' }>): Promise<void> {
    const pi = await createPaymentIntent(t, tenant, {
      amount: op.amount,
      ...(op.destination
        ? { transfer_data: { destination: seller }, application_fee_amount: Math.floor(op.amount / 20) }
        : {}),
    });
    const checkout = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: pi.id });
    let res: Response;
    if (op.method === 'card') res = await confirm(t, tenant, checkout, card(CARDS.visa));
    else {
      expect((await confirm(t, tenant, checkout, { payment_method_type: 'promptpay' })).status).toBe(200);
      res = await post(`/test_helpers/checkouts/${checkout.id}/pay_promptpay`);
    }
    accept('charge', res);
    expect(res.body.charge).toMatchObject({ status: 'succeeded' });
    charges.push({ id: res.body.charge.id, amount: op.amount, destination: op.destination });
  }

  /** 0 is the latest charge (the likeliest to be held still), 1 the one before, ... */
  const pick = (known: typeof charges, n: number) => known[known.length - 1 - (n % known.length)];

  async function refund(op: Extract<Op, { kind: 'refund' }>, known: typeof charges): Promise<void> {
    const target = pick(known, op.charge);
    const amount =
      op.share === 'full'
        ? undefined
        : op.share === 'failing'
          ? 4004
          : Math.max(1, Math.floor(target.amount * op.share));
    const destinationOptions = target.destination
      ? { reverse_transfer: op.reverseTransfer, refund_application_fee: op.feeBack }
      : {};
    accept('refund', await post('/refunds', { charge_id: target.id, amount, ...destinationOptions }));
  }

  async function dispute(op: Extract<Op, { kind: 'dispute' }>, known: typeof charges): Promise<void> {
    const target = pick(known, op.charge);
    const opened = await post('/test_helpers/disputes', {
      charge_id: target.id,
      ...(op.partial ? { amount: Math.max(1, Math.floor(target.amount / 3)) } : {}),
    });
    if (!accept('dispute', opened)) return;
    accept('dispute', await post(`/test_helpers/disputes/${opened.body.id}/${op.outcome}`));
  }

  async function payout(op: Extract<Op, { kind: 'payout' }>): Promise<void> {
    const merchant = async () =>
      ((await get('/balances?filter[account]=merchant&filter[currency]=THB')).body.data as Row[])[0];
    const amount = op.amount === 'available' ? Math.max(1, (await merchant()).available) : op.amount;
    const created = await post('/payouts', {
      amount,
      currency: 'THB',
      destination: op.failing ? banks.failing : banks.ok,
    });
    if (!accept('payout', created)) return;
    if (created.body.status !== 'in_transit' && op.then !== 'cancel') return;
    const path =
      op.then === 'cancel'
        ? `/payouts/${created.body.id}/cancel`
        : `/test_helpers/payouts/${created.body.id}/${op.then}`;
    accept('payout', await post(path));
  }

  async function settleRefunds(): Promise<void> {
    const pending = (await get('/refunds?limit=100&filter[status]=pending')).body.data as Row[];
    await Promise.all(
      pending.map(async (r) => accept('settle_refunds', await post(`/test_helpers/refunds/${r.id}/settle`))),
    );
  }

  const run = (op: Op, known: typeof charges): Promise<void> => {
    switch (op.kind) {
      case 'charge':
        return charge(op);
      case 'refund':
        return refund(op, known);
      case 'dispute':
        return dispute(op, known);
      case 'payout':
        return payout(op);
      case 'settle_refunds':
        return settleRefunds();
      case 'release_holds':
        return post('/test_helpers/holds/release').then((res) => void accept('release_holds', res));
    }
  };

  /** Every record of the application, all pages. */
  async function all(path: string): Promise<Row[]> {
    const out: Row[] = [];
    for (let page = 1; ; page += 1) {
      const res = await get(`${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`);
      expect(res.status).toBe(200);
      out.push(...res.body.data);
      if (page >= res.body.total_pages) return out;
    }
  }

  /** The records agree with the ledger: what each in-between balance holds is what is in flight. */
  async function expectRecordsMatchLedger(): Promise<void> {
    const [refunds, payouts, disputes, balances] = await Promise.all([
      all('/refunds'),
      all('/payouts'),
      all('/disputes'),
      all('/balances'),
    ]);
    const total = (account: string) =>
      balances.filter((b) => b.account === account).reduce((sum, b) => sum + b.available + b.hold, 0);
    const sum = (rows: Row[]) => rows.reduce((s, r) => s + r.amount, 0);
    expect(total('refunds_pending')).toBe(sum(refunds.filter((r) => r.status === 'pending')));
    expect(total('payouts_in_transit')).toBe(sum(payouts.filter((p) => ['pending', 'in_transit'].includes(p.status))));
    expect(total('disputes')).toBe(sum(disputes.filter((d) => ['needs_response', 'under_review'].includes(d.status))));
    for (const c of charges) {
      const got = (await get(`/charges/${c.id}`)).body as Row;
      const mine = refunds.filter((r) => r.charge_id === c.id);
      const counted = sum(mine.filter((r) => r.status === 'succeeded' || r.status === 'pending'));
      expect({ charge: c.id, amount_refunded: got.amount_refunded, refunded: got.refunded }).toEqual({
        charge: c.id,
        amount_refunded: counted,
        refunded: counted === c.amount,
      });
      expect(got.amount_refunded).toBeLessThanOrEqual(got.amount);
      if (got.disputed) expect(counted + got.dispute_amount).toBeLessThanOrEqual(got.amount);
    }
  }

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    seller = (await connectedAccount(t, tenant)).id;
    const own = await ownAccount(t, tenant);
    banks.ok = await bankAccount(own, '1234567890');
    banks.failing = await bankAccount(own, '1234560002');
    for (const amount of [50000, 30000]) await charge({ kind: 'charge', method: 'card', destination: false, amount });
    await charge({ kind: 'charge', method: 'card', destination: true, amount: 40000 });
    expect((await post('/test_helpers/holds/release')).status).toBe(200);
  });
  afterAll(async () => {
    // What the runs exercised (outcome counts), for whoever reads the log of a failing run.
    process.stdout.write(`lifecycle outcomes: ${JSON.stringify(Object.fromEntries([...outcomes].sort()))}\n`);
    await t.close();
  });

  it('keeps the ledger invariants and the records in step under concurrent random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 2, maxLength: 7 }), async (ops) => {
        const known = [...charges];
        await Promise.all(ops.map((op) => run(op, known)));
        await expectLedgerInvariants(t, [tenant.applicationId]);
        await expectRecordsMatchLedger();
      }),
      {
        numRuns: 8,
        // One sequence that always reaches each flow, whatever the random ones draw.
        examples: [
          [
            [
              { kind: 'refund', charge: 0, share: 0.2, reverseTransfer: false, feeBack: false },
              { kind: 'refund', charge: 2, share: 0.3, reverseTransfer: true, feeBack: false },
              { kind: 'dispute', charge: 1, outcome: 'win', partial: true },
              { kind: 'payout', amount: 'available', failing: false, then: 'paid' },
              { kind: 'payout', amount: 5000, failing: false, then: 'fail' },
              { kind: 'charge', method: 'promptpay', destination: false, amount: 20000 },
            ],
          ],
          // Available funds paid out, a refund of held funds, then the hold released.
          [
            [
              { kind: 'payout', amount: 'available', failing: false, then: 'paid' },
              { kind: 'charge', method: 'card', destination: false, amount: 30000 },
            ],
          ],
          [[{ kind: 'refund', charge: 0, share: 0.5, reverseTransfer: false, feeBack: false }]],
          [
            [
              { kind: 'release_holds' },
              { kind: 'refund', charge: 1, share: 'full', reverseTransfer: false, feeBack: false },
            ],
          ],
        ],
      },
    );
    // The runs reached the flows they are about, not only refusals.
    for (const outcome of ['refund 200', 'payout 200', 'dispute 200']) expect(outcomes.get(outcome)).toBeGreaterThan(0);
  });
});
