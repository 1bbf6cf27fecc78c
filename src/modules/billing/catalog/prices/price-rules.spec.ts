import { AppError } from '../../../../common/errors/app-error.js';
import { checkPriceShape, type PriceShape } from './price-rules.js';

const codeOf = (shape: PriceShape): string | undefined => {
  try {
    checkPriceShape(shape);
    return undefined;
  } catch (err) {
    return (err as AppError).definition.code;
  }
};

describe('checkPriceShape', () => {
  it('normalises tiers and recurring terms', () => {
    expect(
      checkPriceShape({
        billing_scheme: 'tiered',
        tiers_mode: 'graduated',
        tiers: [
          { up_to: 5, flat_amount: 100 },
          { up_to: 'inf', unit_amount: 10 },
        ],
        recurring: { interval: 'year' },
      }),
    ).toEqual({
      tiers: [
        { up_to: 5, unit_amount: null, flat_amount: 100 },
        { up_to: 'inf', unit_amount: 10, flat_amount: null },
      ],
      recurring: { interval: 'year', interval_count: 1, usage_type: 'licensed' },
    });
  });

  it.each([
    ['E7602', { billing_scheme: 'per_unit' }],
    [
      'E7603',
      { billing_scheme: 'tiered', unit_amount: 1, tiers_mode: 'volume', tiers: [{ up_to: 'inf', unit_amount: 1 }] },
    ],
    ['E7604', { billing_scheme: 'tiered', tiers_mode: 'volume', tiers: [] }],
    ['E7605', { billing_scheme: 'per_unit', unit_amount: 1, tiers_mode: 'volume' }],
    [
      'E7606',
      {
        billing_scheme: 'tiered',
        tiers_mode: 'volume',
        tiers: [
          { up_to: 9, unit_amount: 1 },
          { up_to: 3, unit_amount: 1 },
          { up_to: 'inf', unit_amount: 1 },
        ],
      },
    ],
    ['E7607', { billing_scheme: 'tiered', tiers_mode: 'volume', tiers: [{ up_to: 9, unit_amount: 1 }] }],
    ['E7608', { billing_scheme: 'tiered', tiers_mode: 'volume', tiers: [{ up_to: 'inf' }] }],
    ['E7609', { billing_scheme: 'per_unit', unit_amount: 1, recurring: { interval: 'day', usage_type: 'metered' } }],
    ['E7610', { billing_scheme: 'per_unit', unit_amount: 1, recurring: { interval: 'day', meter_id: 'm' } }],
    [
      'E7613',
      {
        billing_scheme: 'tiered',
        tiers_mode: 'volume',
        tiers: [{ up_to: 'inf', unit_amount: 1 }],
        transform_quantity: { divide_by: 2, round: 'up' },
      },
    ],
    ['E7614', { billing_scheme: 'per_unit', unit_amount: 1, recurring: { interval: 'week', interval_count: 53 } }],
    [undefined, { billing_scheme: 'per_unit', unit_amount: 1, recurring: { interval: 'day', interval_count: 365 } }],
  ] as Array<[string | undefined, PriceShape]>)('answers %s for %j', (code, shape) => {
    expect(codeOf(shape)).toBe(code);
  });
});
