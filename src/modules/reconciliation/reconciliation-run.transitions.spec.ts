import { outcomeCounts } from './outcomes.js';
import { reconciliationRunTransition } from './reconciliation-run.transitions.js';

describe('reconciliation run transitions', () => {
  it('moves a pending run to succeeded or failed, and nothing further', () => {
    expect(reconciliationRunTransition('pending', 'succeed', 'r')).toBe('succeeded');
    expect(reconciliationRunTransition('pending', 'fail', 'r')).toBe('failed');
    expect(() => reconciliationRunTransition('succeeded', 'fail', 'r')).toThrow(/cannot fail/);
    expect(() => reconciliationRunTransition('failed', 'succeed', 'r')).toThrow(/cannot succeed/);
  });
});

describe('outcome counts', () => {
  it('names every outcome, 0 when none, and ignores what is not an outcome', () => {
    expect(
      outcomeCounts([
        { outcome: 'matched', count: 3 },
        { outcome: 'duplicate', count: 1 },
        { outcome: 'bogus', count: 9 },
      ]),
    ).toEqual({
      matched: 3,
      missing_in_ledger: 0,
      missing_at_provider: 0,
      amount_mismatch: 0,
      fee_mismatch: 0,
      duplicate: 1,
    });
  });
});
