import fc from 'fast-check';
import { allocate, couponDiscount } from './discount.js';

describe('couponDiscount', () => {
  it('rounds a percent discount half-up to the minor unit', () => {
    expect(couponDiscount(29900, { percent_off: 10, amount_off: null })).toBe(2990);
    // 12.5% of 1001 = 125.125 -> 125; of 1004 = 125.5 -> 126
    expect(couponDiscount(1001, { percent_off: 12.5, amount_off: null })).toBe(125);
    expect(couponDiscount(1004, { percent_off: '12.50', amount_off: null })).toBe(126);
    expect(couponDiscount(3, { percent_off: 50, amount_off: null })).toBe(2);
    expect(couponDiscount(999, { percent_off: 100, amount_off: null })).toBe(999);
  });

  it('caps an amount_off discount at the amount', () => {
    expect(couponDiscount(5000, { percent_off: null, amount_off: 1500 })).toBe(1500);
    expect(couponDiscount(1000, { percent_off: null, amount_off: 1500 })).toBe(1000);
  });

  it('never exceeds the amount (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 11 }), fc.integer({ min: 1, max: 10000 }), (amount, hundredths) => {
        const d = couponDiscount(amount, { percent_off: hundredths / 100, amount_off: null });
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(amount);
      }),
    );
  });
});

describe('allocate', () => {
  it('splits in proportion, the remainder to the largest remainders', () => {
    expect(allocate(100, [100, 100, 100])).toEqual([34, 33, 33]);
    expect(allocate(10, [300, 100])).toEqual([8, 2]);
    expect(allocate(0, [5, 5])).toEqual([0, 0]);
  });

  it('sums exactly to the discount and caps each share at its amount (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10 ** 9 }), { minLength: 1, maxLength: 20 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (amounts, f) => {
          const total = amounts.reduce((s, a) => s + a, 0);
          const discount = Math.floor(total * f);
          const shares = allocate(discount, amounts);
          expect(shares.reduce((s, a) => s + a, 0)).toBe(discount);
          shares.forEach((s, i) => expect(s).toBeLessThanOrEqual(amounts[i]));
        },
      ),
    );
  });
});
