import { rateAdmission } from './credit-rating.js';

const perUnit = {
  billing_scheme: 'per_unit' as const,
  unit_amount: 150,
  tiers: null,
  tiers_mode: null,
  transform_quantity: null,
};
const graduated = {
  billing_scheme: 'tiered' as const,
  unit_amount: null,
  tiers: [
    { up_to: 10, unit_amount: 100, flat_amount: null },
    { up_to: 'inf' as const, unit_amount: 50, flat_amount: null },
  ],
  tiers_mode: 'graduated' as const,
  transform_quantity: null,
};

describe('rateAdmission', () => {
  it('rates a per-unit sum event at value x unit_amount', () => {
    expect(rateAdmission(perUnit, 'sum', { quantity: '4', amount: 600 }, '3')).toEqual({
      quantity: '7',
      amount: 1050,
      cost: 450,
    });
  });

  it('rates a graduated event at the marginal cost of the tiers it lands in', () => {
    // 8 -> 12 units: 2 at 100 and 2 at 50.
    expect(rateAdmission(graduated, 'sum', { quantity: '8', amount: 800 }, '4').cost).toBe(300);
  });

  it('counts one unit per event for count, replaces the quantity for last', () => {
    expect(rateAdmission(perUnit, 'count', { quantity: '2', amount: 300 }, '99').quantity).toBe('3');
    expect(rateAdmission(perUnit, 'last', { quantity: '9', amount: 1350 }, '2')).toEqual({
      quantity: '2',
      amount: 300,
      cost: -1050,
    });
  });

  it('bills a started unit and keeps decimal quantities exact', () => {
    const first = rateAdmission(perUnit, 'sum', { quantity: '0', amount: 0 }, '0.1');
    expect(first).toEqual({ quantity: '0.1', amount: 150, cost: 150 });
    const second = rateAdmission(perUnit, 'sum', { quantity: first.quantity, amount: first.amount }, '0.2');
    expect(second).toEqual({ quantity: '0.3', amount: 150, cost: 0 });
  });
});
