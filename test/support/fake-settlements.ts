import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { newId } from '../../src/common/ids.js';
import { BalancesService, PostingService, type PostingEntry } from '../../src/modules/ledger/index.js';
import type { FakeProvider } from './fake-provider.js';

/**
 * Provider settlements served by the fake Opn and Stripe from seeded lines, in each provider's own
 * shapes (Opn: docs.opn.ooo transfers and transactions; Stripe: payouts and balance transactions of a
 * payout, `expand[]=data.source`), paged as the provider pages them, with faults injected by editing
 * the lines before serving.
 */

/** One settled payment as both sides know it: the provider's reference, gross and fee (minor units). */
export interface SettledLine {
  reference: string;
  amount: number;
  fee: number;
  /** Seconds since the epoch. */
  created: number;
}

/** The kinds of fault the reconciliation must flag (docs/RECONCILIATION.md, "Outcomes"). */
export type Fault = 'missing_in_ledger' | 'missing_at_provider' | 'amount_mismatch' | 'fee_mismatch' | 'duplicate';

/**
 * The provider's lines after injecting `faults` (each at its own line, from the end of `lines`):
 * missing_at_provider drops a line, amount/fee_mismatch change it by one minor unit, duplicate
 * repeats it; missing_in_ledger adds a line with a reference the ledger has not (`extraReference`).
 * Answers the served lines and the expected outcome per reference.
 */
export function injectFaults(
  lines: readonly SettledLine[],
  faults: readonly Fault[],
  extraReference: (i: number) => string,
): { served: SettledLine[]; expected: Map<string, Fault> } {
  const served = lines.map((l) => ({ ...l }));
  const expected = new Map<string, Fault>();
  const drop = new Set<number>();
  faults.forEach((fault, i) => {
    const at = lines.length - 1 - i;
    const line = served[at];
    if (fault === 'missing_in_ledger') {
      const reference = extraReference(i);
      served.push({ ...line, reference });
      expected.set(reference, fault);
      return;
    }
    expected.set(line.reference, fault);
    if (fault === 'missing_at_provider') drop.add(at);
    else if (fault === 'amount_mismatch') line.amount += 1;
    else if (fault === 'fee_mismatch') line.fee += 1;
    else served.push({ ...line });
  });
  return { served: served.filter((_, i) => !drop.has(i)), expected };
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Opn: the transfer `id` settles `lines` (each a `charge.capture` credit of the gross and a
 * `charge.capture.fee` debit of the fee, plus the transfer's own debit), created one second after
 * the last line; `previous` is the transfer before it (the window starts after it).
 */
export function serveOpnSettlement(
  opn: FakeProvider,
  id: string,
  lines: readonly SettledLine[],
  previous: { id: string; created: number },
): void {
  const created = Math.max(...lines.map((l) => l.created)) + 1;
  const net = lines.reduce((sum, l) => sum + l.amount - l.fee, 0);
  const transfer = (tid: string, at: number, amount: number) => ({
    object: 'transfer',
    id: tid,
    livemode: false,
    location: `/transfers/${tid}`,
    recipient: 'recp_test_5086be32wsp9iy2exem',
    sent: true,
    paid: true,
    amount,
    currency: 'thb',
    failure_code: null,
    failure_message: null,
    created_at: iso(at),
  });
  const transfers = [transfer(previous.id, previous.created, 1000), transfer(id, created, net)];
  const transactions = lines.flatMap((l, i) => [
    {
      object: 'transaction',
      id: `trxn_test_${i}g`,
      livemode: false,
      currency: 'THB',
      amount: l.amount,
      direction: 'credit',
      key: 'charge.capture',
      origin: l.reference,
      transferable_at: iso(l.created),
      created_at: iso(l.created),
    },
    {
      object: 'transaction',
      id: `trxn_test_${i}f`,
      livemode: false,
      currency: 'THB',
      amount: l.fee,
      direction: 'debit',
      key: 'charge.capture.fee',
      origin: l.reference,
      transferable_at: iso(l.created),
      created_at: iso(l.created),
    },
  ]);
  transactions.push({
    object: 'transaction',
    id: 'trxn_test_transfer',
    livemode: false,
    currency: 'THB',
    amount: net,
    direction: 'debit',
    key: 'transfer',
    origin: id,
    transferable_at: iso(created),
    created_at: iso(created),
  });
  const times = transactions.map((t) => Date.parse(t.created_at));
  const list = (data: unknown[], q: Record<string, string>, total: number) => ({
    object: 'list',
    data,
    limit: Number(q.limit ?? 20),
    offset: Number(q.offset ?? 0),
    total,
    order: q.order ?? 'chronological',
    location: '/',
  });
  opn.on(`GET /transfers/${id}`, { status: 200, json: transfers[1] });
  opn.on('GET /transfers', {
    answer: ({ query }) => {
      const to = query.to ? Date.parse(query.to) : Infinity;
      const from = query.from ? Date.parse(query.from) : -Infinity;
      let found = transfers.filter((t) => Date.parse(t.created_at) <= to && Date.parse(t.created_at) >= from);
      if (query.order === 'reverse_chronological') found = [...found].reverse();
      return { status: 200, json: list(found.slice(0, Number(query.limit ?? 20)), query, found.length) };
    },
  });
  opn.on('GET /transactions', {
    answer: ({ query }) => {
      const from = Date.parse(query.from);
      const to = Date.parse(query.to);
      const inWindow = transactions.filter((_, i) => times[i] >= from && times[i] <= to);
      const offset = Number(query.offset ?? 0);
      const limit = Math.min(Number(query.limit ?? 20), 100);
      return { status: 200, json: list(inWindow.slice(offset, offset + limit), query, inWindow.length) };
    },
  });
}

/**
 * Stripe: the automatic payout `id` settles `lines`, each a `payment` balance transaction whose
 * source is a charge of the payment intent `reference`, plus the payout's own line.
 */
export function serveStripeSettlement(stripe: FakeProvider, id: string, lines: readonly SettledLine[]): void {
  const created = Math.max(...lines.map((l) => l.created)) + 1;
  const net = lines.reduce((sum, l) => sum + l.amount - l.fee, 0);
  const payout = {
    id,
    object: 'payout',
    amount: net,
    arrival_date: created + 86400,
    automatic: true,
    balance_transaction: `txn_${id}`,
    created,
    currency: 'thb',
    livemode: false,
    method: 'standard',
    reconciliation_status: 'completed',
    status: 'paid',
    type: 'bank_account',
  };
  const bt = (i: number, l: SettledLine) => ({
    id: `txn_${id}_${String(i).padStart(6, '0')}`,
    object: 'balance_transaction',
    amount: l.amount,
    available_on: l.created,
    created: l.created,
    currency: 'thb',
    fee: l.fee,
    fee_details: [
      { amount: l.fee, currency: 'thb', type: 'stripe_fee', application: null, description: 'Stripe fees' },
    ],
    net: l.amount - l.fee,
    reporting_category: 'charge',
    source: { id: `ch_${l.reference.slice(3)}`, object: 'charge', payment_intent: l.reference },
    status: 'available',
    type: 'charge',
  });
  const data = [
    ...lines.map((l, i) => bt(i, l)),
    {
      ...bt(lines.length, { reference: 'pi_none', amount: -net, fee: 0, created }),
      id: `txn_${id}`,
      source: id,
      type: 'payout',
      reporting_category: 'payout',
    },
  ];
  stripe.on(`GET /v1/payouts/${id}`, { status: 200, json: payout });
  stripe.on('GET /v1/payouts', {
    answer: () => ({ status: 200, json: { object: 'list', data: [payout], has_more: false, url: '/v1/payouts' } }),
  });
  stripe.on('GET /v1/balance_transactions', {
    answer: ({ query }) => {
      if (query.payout !== id) return { status: 200, json: { object: 'list', data: [], has_more: false, url: '/' } };
      const start = query.starting_after ? data.findIndex((t) => t.id === query.starting_after) + 1 : 0;
      const limit = Math.min(Number(query.limit ?? 10), 100);
      const page = data.slice(start, start + limit);
      return {
        status: 200,
        json: { object: 'list', data: page, has_more: start + limit < data.length, url: '/v1/balance_transactions' },
      };
    },
  });
}

/** Entries per posting: 3 per charge, under the posting service's 100. */
const CHARGES_PER_POSTING = 33;

/**
 * `count` succeeded charges of `provider` in test mode, booked as the collection module books them
 * (one `charge.succeeded` journal: clearing -gross, fees +fee, merchant +net): the charges' rows
 * written set-based, the entries through the posting service, 33 charges a posting, all at one
 * frozen moment of the service's clock. Answers the lines the provider settles for them.
 */
export async function seedSettledCharges(
  app: INestApplicationContext,
  applicationId: string,
  provider: 'opn' | 'stripe',
  count: number,
  referenceOf: (i: number) => string,
): Promise<SettledLine[]> {
  const clock = app.get(Clock);
  const ds = app.get<DataSource>(getDataSourceToken('wallet_test'));
  clock.freeze();
  try {
    const at = clock.now();
    const charges = Array.from({ length: count }, (_, i) => {
      const amount = 10_000 + ((i * 7919) % 90_000);
      return { id: newId(), reference: referenceOf(i), amount, fee: Math.round(amount * 0.0365) };
    });
    await ds.query(
      `INSERT INTO wallet_test.charges
         (id, application_id, status, currency, amount, provider, reference_id, provider_fee_amount, paid, captured, created_at, updated_at)
       SELECT id, $1, 'succeeded', 'THB', amount, $2, reference, fee, true, true, $3, $3
         FROM unnest($4::uuid[], $5::bigint[], $6::text[], $7::bigint[]) AS c(id, amount, reference, fee)`,
      [
        applicationId,
        provider,
        at,
        charges.map((c) => c.id),
        charges.map((c) => c.amount),
        charges.map((c) => c.reference),
        charges.map((c) => c.fee),
      ],
    );
    const posting = app.get(PostingService);
    const balances = app.get(BalancesService);
    await app.get(RequestContext).runInMode('test', async () => {
      const balance = async (account: string) =>
        (await balances.getOrCreate({ application_id: applicationId, account, currency: 'THB' })).id;
      const [clearing, fees, merchant] = [
        await balance('provider_clearing'),
        await balance('fees'),
        await balance('application'),
      ];
      for (let start = 0; start < charges.length; start += CHARGES_PER_POSTING) {
        const entries: PostingEntry[] = charges.slice(start, start + CHARGES_PER_POSTING).flatMap((c) => {
          const common = {
            currency: 'THB',
            source: 'payment',
            parent_event_type: 'charge',
            parent_event_id: c.id,
            state: 'available' as const,
          };
          return [
            { ...common, balance_id: clearing, amount: -c.amount, type: 'charge', category: 'clearing' },
            { ...common, balance_id: fees, amount: c.fee, type: 'fee', category: 'provider_fee' },
            { ...common, balance_id: merchant, amount: c.amount - c.fee, type: 'charge', category: 'payment' },
          ];
        });
        await posting.post({ application_id: applicationId, event_type: 'charge.succeeded', entries });
      }
    });
    const created = Math.floor(at.getTime() / 1000);
    return charges.map((c) => ({ reference: c.reference, amount: c.amount, fee: c.fee, created }));
  } finally {
    clock.thaw();
  }
}
