import type { Posting } from '../ledger/index.js';
import { disputeFee, disputeLostJournal, disputeOpenedJournal, disputeWonJournal } from './dispute.journals.js';

const dispute = { id: 'dp_1', number: 'DP-20261128-ABCDEF', amount: 10_000 };
const charge = { id: 'ch_1', application_id: 'app_1', currency: 'THB', scaling_factor: 100, balance_id: 'merchant' };

/** Each entry as `balance amount type/category`, and the journal's sum (zero when balanced). */
const legs = (posting: Posting) => posting.entries.map((e) => `${e.balance_id} ${e.amount} ${e.type}/${e.category}`);
const sum = (posting: Posting) => posting.entries.reduce((total, e) => total + e.amount, 0);

describe('dispute journals', () => {
  it('withdraws an opened chargeback from the charge balance into disputes', () => {
    const posting = disputeOpenedJournal(dispute, charge, 'disputes');
    expect(posting).toMatchObject({
      application_id: 'app_1',
      event_type: 'dispute.opened',
      event_id: 'dp_1',
      description: 'Dispute DP-20261128-ABCDEF on charge ch_1',
    });
    expect(legs(posting)).toEqual(['merchant -10000 dispute/dispute', 'disputes 10000 dispute/dispute']);
    expect(sum(posting)).toBe(0);
  });

  it('reinstates a won dispute to the charge balance', () => {
    const posting = disputeWonJournal(dispute, charge, 'disputes');
    expect(posting.event_type).toBe('dispute.won');
    expect(legs(posting)).toEqual([
      'disputes -10000 dispute/dispute_reversal',
      'merchant 10000 dispute/dispute_reversal',
    ]);
    expect(sum(posting)).toBe(0);
  });

  it('sends a lost dispute to provider clearing and charges the fee of its currency', () => {
    const balances = { disputes: 'disputes', clearing: 'clearing', fees: 'fees' };
    const posting = disputeLostJournal(dispute, charge, balances);
    expect(posting.event_type).toBe('dispute.lost');
    expect(legs(posting)).toEqual([
      'disputes -10000 dispute/dispute_loss',
      'clearing 10000 dispute/dispute_loss',
      'merchant -50000 dispute_fee/dispute_fee',
      'fees 50000 dispute_fee/dispute_fee',
    ]);
    expect(posting.entries.slice(2).every((e) => e.reporting_category === 'fee')).toBe(true);
    expect(sum(posting)).toBe(0);
    // No fee in a currency without one.
    expect(legs(disputeLostJournal(dispute, { ...charge, currency: 'EUR' }, balances))).toEqual([
      'disputes -10000 dispute/dispute_loss',
      'clearing 10000 dispute/dispute_loss',
    ]);
  });

  it('marks every entry available, from the dispute, in the charge currency', () => {
    for (const entry of disputeOpenedJournal(dispute, charge, 'disputes').entries) {
      expect(entry).toMatchObject({ state: 'available', source: 'dispute', currency: 'THB' });
    }
  });

  it('sets the fee in major units scaled by the charge', () => {
    expect(disputeFee('THB', 100)).toBe(50_000);
    expect(disputeFee('SGD', 100)).toBe(2_000);
    expect(disputeFee('USD', 100)).toBe(1_500);
    expect(disputeFee('JPY', 1)).toBe(0);
  });
});
