import fc from 'fast-check';
import { ratePrice, type RatablePrice } from './rate-price.js';

const perUnit = (unit_amount: number, transform_quantity: RatablePrice['transform_quantity'] = null): RatablePrice => ({
  billing_scheme: 'per_unit',
  unit_amount,
  tiers: null,
  tiers_mode: null,
  transform_quantity,
});

const tiered = (tiers_mode: 'graduated' | 'volume'): RatablePrice => ({
  billing_scheme: 'tiered',
  unit_amount: null,
  tiers_mode,
  transform_quantity: null,
  tiers: [
    { up_to: 5, unit_amount: 1000, flat_amount: null },
    { up_to: 10, unit_amount: 800, flat_amount: 500 },
    { up_to: 'inf', unit_amount: 500, flat_amount: 2000 },
  ],
});

describe('ratePrice', () => {
  it('multiplies a per_unit price', () => {
    expect(ratePrice(perUnit(29900), 3)).toBe(89700);
    expect(ratePrice(perUnit(29900), 0)).toBe(0);
  });

  it('rounds a transformed quantity up or down', () => {
    expect(ratePrice(perUnit(1000, { divide_by: 10, round: 'up' }), 11)).toBe(2000);
    expect(ratePrice(perUnit(1000, { divide_by: 10, round: 'down' }), 19)).toBe(1000);
    expect(ratePrice(perUnit(1000, { divide_by: 10, round: 'up' }), 10)).toBe(1000);
    expect(ratePrice(perUnit(1000, { divide_by: 10, round: 'up' }), 0)).toBe(0);
  });

  it('rates graduated tiers unit by unit, with each entered tier flat amount once', () => {
    expect(ratePrice(tiered('graduated'), 0)).toBe(0);
    expect(ratePrice(tiered('graduated'), 5)).toBe(5000);
    // 5 x 1000 + (500 + 1 x 800)
    expect(ratePrice(tiered('graduated'), 6)).toBe(6300);
    // 5 x 1000 + (500 + 5 x 800) + (2000 + 2 x 500)
    expect(ratePrice(tiered('graduated'), 12)).toBe(12500);
  });

  it('rates every unit at the volume tier the quantity falls in, plus its flat amount', () => {
    expect(ratePrice(tiered('volume'), 5)).toBe(5000);
    expect(ratePrice(tiered('volume'), 6)).toBe(500 + 6 * 800);
    expect(ratePrice(tiered('volume'), 12)).toBe(2000 + 12 * 500);
  });

  it('never decreases as the quantity grows under graduated tiers (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (q) => {
        expect(ratePrice(tiered('graduated'), q + 1)).toBeGreaterThanOrEqual(ratePrice(tiered('graduated'), q));
      }),
    );
  });

  it('is exact beyond what a double multiplies exactly', () => {
    expect(ratePrice(perUnit(99_999_999_999), 90_000)).toBe(8_999_999_999_910_000);
  });
});
