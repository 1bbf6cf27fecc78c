import type { Posting } from '../../ledger/index.js';
import { payoutCreatedJournal, payoutPaidJournal, payoutReversalJournal } from './payout.journals.js';

const payout = { id: 'po_1', application_id: 'app_1', currency: 'THB', amount: 5000, balance_id: 'merchant' };

/** Each entry as `balance amount type/category`, and the journal's sum (zero when balanced). */
const legs = (posting: Posting) => posting.entries.map((e) => `${e.balance_id} ${e.amount} ${e.type}/${e.category}`);
const sum = (posting: Posting) => posting.entries.reduce((total, e) => total + e.amount, 0);

describe('payout journals', () => {
  it('books a created payout from its balance into payouts_in_transit', () => {
    const posting = payoutCreatedJournal(payout, 'in_transit');
    expect(posting).toMatchObject({ application_id: 'app_1', event_type: 'payout.created', event_id: 'po_1' });
    expect(legs(posting)).toEqual(['merchant -5000 payout/payout', 'in_transit 5000 payout/payout']);
    expect(sum(posting)).toBe(0);
  });

  it('books a paid payout out of payouts_in_transit through provider clearing', () => {
    const posting = payoutPaidJournal(payout, 'in_transit', 'clearing');
    expect(posting.event_type).toBe('payout.paid');
    expect(legs(posting)).toEqual(['in_transit -5000 payout/payout', 'clearing 5000 payout/payout_clearing']);
    expect(sum(posting)).toBe(0);
  });

  it('returns a failed or canceled payout to the balance it left', () => {
    const failed = payoutReversalJournal(payout, 'failed', 'in_transit');
    expect(failed.event_type).toBe('payout.failed');
    expect(legs(failed)).toEqual([
      'in_transit -5000 payout_failure/payout_reversal',
      'merchant 5000 payout_failure/payout_reversal',
    ]);
    const canceled = payoutReversalJournal(payout, 'canceled', 'in_transit');
    expect(canceled.event_type).toBe('payout.canceled');
    expect(legs(canceled)).toEqual([
      'in_transit -5000 payout_cancel/payout_reversal',
      'merchant 5000 payout_cancel/payout_reversal',
    ]);
  });

  it('marks every entry available and carrying the payout as its transfer', () => {
    for (const entry of payoutReversalJournal(payout, 'failed', 'in_transit').entries) {
      expect(entry).toMatchObject({
        currency: 'THB',
        state: 'available',
        source: 'payout',
        reporting_category: 'payout_reversal',
        transfer_id: 'po_1',
        parent_event_type: 'payout',
        parent_event_id: 'po_1',
      });
    }
    expect(payoutCreatedJournal(payout, 'in_transit').entries[0].reporting_category).toBe('payout');
  });
});
