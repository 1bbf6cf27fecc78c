import { AppError } from '../../common/errors/app-error.js';
import type { Posting } from '../ledger/index.js';
import type { RefundDebitPart } from './entities/refund.entity.js';
import {
  refundCreatedJournal,
  refundFailedJournal,
  refundSucceededJournal,
  splitRefundDebit,
  type RefundDebit,
} from './refund.journals.js';

const amounts = (entries: Record<string, [available: number, hold: number]>) =>
  new Map(Object.entries(entries).map(([id, [available, hold]]) => [id, { available, hold }]));

/** Each entry as `balance amount state type/category`, and the journal's sum (zero when balanced). */
const legs = (posting: Posting) =>
  posting.entries.map((e) => `${e.balance_id} ${e.amount} ${e.state} ${e.type}/${e.category}`);
const sum = (posting: Posting) => posting.entries.reduce((total, e) => total + e.amount, 0);

/** The catalog code `work` is refused with. */
function refusal(work: () => unknown): string {
  try {
    work();
  } catch (err) {
    if (err instanceof AppError) return err.definition.code;
    throw err;
  }
  throw new Error('not refused');
}

describe('splitRefundDebit', () => {
  it('takes available funds first, then held funds, then lets available go below zero', () => {
    const balances = amounts({ a: [600, 1000], b: [0, 300], c: [-50, 100] });
    expect(splitRefundDebit([{ balanceId: 'a', amount: 500 }], balances, 0)).toEqual([
      { balance_id: 'a', amount: 500, available: 500, hold: 0 },
    ]);
    expect(splitRefundDebit([{ balanceId: 'a', amount: 1000 }], balances, 0)).toEqual([
      { balance_id: 'a', amount: 1000, available: 600, hold: 400 },
    ]);
    // Hold down to zero, the rest from available, within the charge's unreturned fees.
    expect(splitRefundDebit([{ balanceId: 'b', amount: 320 }], balances, 20)).toEqual([
      { balance_id: 'b', amount: 320, available: 20, hold: 300 },
    ]);
    // Available already below zero: nothing more comes from it before the hold.
    expect(splitRefundDebit([{ balanceId: 'c', amount: 50 }], balances, 0)).toEqual([
      { balance_id: 'c', amount: 50, available: 0, hold: 50 },
    ]);
  });

  it('splits each part of a destination charge on its own balance', () => {
    const split = splitRefundDebit(
      [
        { balanceId: 'connected', amount: 900 },
        { balanceId: 'merchant', amount: 100 },
      ],
      amounts({ connected: [0, 900], merchant: [100, 0] }),
      0,
    );
    expect(split).toEqual([
      { balance_id: 'connected', amount: 900, available: 0, hold: 900 },
      { balance_id: 'merchant', amount: 100, available: 100, hold: 0 },
    ]);
  });

  it('refuses with E7504 a part above its balance plus what it may go below zero', () => {
    const balances = amounts({ a: [100, 50] });
    expect(splitRefundDebit([{ balanceId: 'a', amount: 160 }], balances, 10)[0].available).toBe(110);
    expect(refusal(() => splitRefundDebit([{ balanceId: 'a', amount: 161 }], balances, 10))).toBe('E7504');
    expect(refusal(() => splitRefundDebit([{ balanceId: 'unknown', amount: 1 }], balances, 0))).toBe('E7504');
  });
});

describe('refund journals', () => {
  const debit: RefundDebit = {
    id: 're_1',
    applicationId: 'app_1',
    chargeId: 'ch_1',
    currency: 'THB',
    parts: [{ balanceId: 'merchant', amount: 1000 }],
    allowedNegative: 0,
  };
  const split: RefundDebitPart[] = [{ balance_id: 'merchant', amount: 1000, available: 600, hold: 400 }];
  const refund = {
    id: 're_1',
    application_id: 'app_1',
    charge_id: 'ch_1',
    currency: 'THB',
    amount: 1000,
    debits: split,
  };

  it('books a created refund from the split into refunds_pending', () => {
    const posting = refundCreatedJournal(debit, split, 'pending');
    expect(posting).toMatchObject({ event_type: 'refund.created', event_id: 're_1' });
    expect(legs(posting)).toEqual([
      'merchant -600 available refund/refund',
      'merchant -400 hold refund/refund',
      'pending 1000 available refund/clearing',
    ]);
    expect(sum(posting)).toBe(0);
    expect(posting.entries.every((e) => e.parent_event_id === 'ch_1' && e.reporting_category === 'refund')).toBe(true);
  });

  it('books a succeeded refund out through provider clearing', () => {
    const posting = refundSucceededJournal(refund, 'pending', 'clearing');
    expect(posting.event_type).toBe('refund.succeeded');
    expect(legs(posting)).toEqual([
      'pending -1000 available refund/clearing',
      'clearing 1000 available refund/clearing',
    ]);
    expect(sum(posting)).toBe(0);
  });

  it('returns a failed refund to each debited balance as available funds', () => {
    const posting = refundFailedJournal(refund, 'pending');
    expect(posting.event_type).toBe('refund.failed');
    expect(legs(posting)).toEqual([
      'pending -1000 available refund_failure/refund_failure',
      'merchant 1000 available refund_failure/refund_failure',
    ]);
    expect(sum(posting)).toBe(0);
  });
});
