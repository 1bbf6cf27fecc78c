import { admitInOrder, rateAdmission } from './credit-rating.js';

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

describe('admitInOrder', () => {
  it('admits concurrent events in arrival order until the credit is used, and lets a later smaller one through', () => {
    // 150 a unit, 400 of credit, 0 used: 2 units (300) fit, then 1 more unit would pass 400, 0 units cost nothing.
    const run = admitInOrder(perUnit, 'sum', { quantity: '0', amount: 0 }, ['2', '1', '3', '0'], 0, 400);
    expect(run.decisions).toEqual([
      { admitted: true, cost: 300 },
      { admitted: false, cost: 150, available: 100 },
      { admitted: false, cost: 450, available: 100 },
      { admitted: true, cost: 0 },
    ]);
    expect(run).toMatchObject({ bucket: { quantity: '2', amount: 300 }, unbilled: 300, changed: true });
  });

  it('rates each admitted event on the quantity the ones before it left (graduated tiers)', () => {
    const run = admitInOrder(graduated, 'sum', { quantity: '9', amount: 900 }, ['1', '1', '1'], 900, 1_000);
    expect(run.decisions).toEqual([
      { admitted: true, cost: 100 },
      { admitted: false, cost: 50, available: 0 },
      { admitted: false, cost: 50, available: 0 },
    ]);
    expect(run.unbilled).toBe(1_000);
  });

  it('refuses every costly event of a customer without a usage row, and changes nothing when all are refused', () => {
    const run = admitInOrder(perUnit, 'sum', { quantity: '0', amount: 0 }, ['1', '2'], null, 10_000);
    expect(run.decisions.map((d) => d.admitted)).toEqual([false, false]);
    expect(run).toMatchObject({ bucket: { quantity: '0', amount: 0 }, unbilled: null, changed: false });
  });
});
