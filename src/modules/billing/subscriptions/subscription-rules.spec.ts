import type { AppError } from '../../../common/errors/app-error.js';
import { assertNoDuplicatePrices, checkItemSet, itemQuantity, type PriceFacts } from './subscription-rules.js';

const price = (over: Partial<PriceFacts> = {}): PriceFacts => ({
  id: 'p1',
  active: true,
  type: 'recurring',
  currency: 'THB',
  billing_scheme: 'per_unit',
  recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
  ...over,
});

const codeOf = (fn: () => unknown): string | null => {
  try {
    fn();
  } catch (err) {
    return (err as AppError).definition.code;
  }
  return null;
};

describe('subscription item rules', () => {
  it('answers the currency and recurrence of a consistent set', () => {
    expect(checkItemSet([price(), price({ id: 'p2' })], 'THB')).toEqual({
      currency: 'THB',
      recurrence: { interval: 'month', interval_count: 1 },
    });
  });

  it('refuses each inconsistency with its own code', () => {
    expect(codeOf(() => checkItemSet([price({ active: false })], null))).toBe('E7711');
    expect(codeOf(() => checkItemSet([price({ type: 'one_time', recurring: null })], null))).toBe('E7714');
    expect(codeOf(() => checkItemSet([price(), price({ id: 'p2', currency: 'USD' })], null))).toBe('E7712');
    expect(codeOf(() => checkItemSet([price()], 'USD'))).toBe('E7712');
    const yearly = price({ id: 'p2', recurring: { interval: 'year', interval_count: 1, usage_type: 'licensed' } });
    expect(codeOf(() => checkItemSet([price(), yearly], null))).toBe('E7713');
    const every2 = price({ id: 'p2', recurring: { interval: 'month', interval_count: 2, usage_type: 'licensed' } });
    expect(codeOf(() => checkItemSet([price(), every2], null))).toBe('E7713');
    expect(codeOf(() => assertNoDuplicatePrices(['a', 'b', 'a']))).toBe('E7716');
  });

  it('gives licensed items a quantity (default 1) and metered items none', () => {
    const metered = price({ recurring: { interval: 'month', interval_count: 1, usage_type: 'metered' } });
    expect(itemQuantity(price(), undefined)).toBe(1);
    expect(itemQuantity(price(), 3)).toBe(3);
    expect(itemQuantity(metered, undefined)).toBeNull();
    expect(codeOf(() => itemQuantity(metered, 1))).toBe('E7715');
    expect(codeOf(() => itemQuantity(price(), 0))).toBe('E7727');
  });
});
