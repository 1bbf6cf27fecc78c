import fc from 'fast-check';
import { exclusiveTax, inclusiveTax, lineTaxes } from './tax.js';

describe('tax per line, half-up', () => {
  it('adds Thai VAT 7% on top of an exclusive amount', () => {
    expect(exclusiveTax(29900, 7)).toBe(2093);
    // 7% of 2691 = 188.37 -> 188; of 50 = 3.5 -> 4
    expect(exclusiveTax(2691, '7.0000')).toBe(188);
    expect(exclusiveTax(50, 7)).toBe(4);
  });

  it('takes Thai VAT 7% out of an inclusive amount', () => {
    expect(inclusiveTax(10700, 7)).toBe(700);
    // 100 / 1.07 = 93.457 -> 93, tax 7
    expect(inclusiveTax(100, 7)).toBe(7);
  });

  it('honours 4 decimals exactly', () => {
    // 8.875% of 10000 = 887.5 -> 888
    expect(exclusiveTax(10000, 8.875)).toBe(888);
    expect(exclusiveTax(10000, '0.0001')).toBe(0);
    expect(exclusiveTax(5000, '0.0001')).toBe(0);
    // 0.01% of 5000 = 0.5 -> 1 (half-up)
    expect(exclusiveTax(5000, '0.01')).toBe(1);
  });

  it('splits several inclusive rates so their parts sum to amount - net', () => {
    const [a, b, c] = lineTaxes(11500, [
      { percentage: 10, inclusive: true },
      { percentage: 5, inclusive: true },
      { percentage: 7, inclusive: false },
    ]);
    expect(a + b).toBe(11500 - 10000);
    expect(a).toBe(1000);
    expect(c).toBe(805);
  });

  it('an inclusive tax plus its net give back the amount, and the net taxed exclusively is within one unit (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 11 }), fc.integer({ min: 0, max: 1_000_000 }), (amount, p4) => {
        const percentage = (p4 / 10_000).toString();
        const tax = inclusiveTax(amount, percentage);
        expect(tax).toBeGreaterThanOrEqual(0);
        expect(Math.abs(exclusiveTax(amount - tax, percentage) - tax)).toBeLessThanOrEqual(
          1 + Math.ceil(p4 / 1_000_000),
        );
      }),
    );
  });
});
