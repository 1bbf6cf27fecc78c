import { billableQuantity, composeInvoice, meteredAmount } from './compose-invoice.js';

const graduated = {
  billing_scheme: 'tiered' as const,
  unit_amount: null,
  tiers_mode: 'graduated' as const,
  tiers: [
    { up_to: 100, unit_amount: 0, flat_amount: null },
    { up_to: 'inf' as const, unit_amount: 50, flat_amount: null },
  ],
  transform_quantity: null,
};

describe('composeInvoice', () => {
  it('discounts the positive lines once, taxes each line half-up, credits negatively', () => {
    const vat = { id: 'vat', percentage: '7.0000', inclusive: false };
    const out = composeInvoice([29_900, 1_001, -15_000], { percent_off: '10', amount_off: null }, [vat]);
    // discount 10% of 30,901 = 3,090.1 -> 3,090, split 2,990 / 100
    expect(out.total_discount).toBe(3_090);
    expect(out.lines.map((l) => l.discount_amount)).toEqual([2_990, 100, 0]);
    // taxes: 26,910 x 7% = 1,883.7 -> 1,884; 901 x 7% = 63.07 -> 63; -15,000 x 7% = -1,050
    expect(out.lines.map((l) => l.tax_amounts[0].amount)).toEqual([1_884, 63, -1_050]);
    expect(out.subtotal).toBe(15_901);
    expect(out.total).toBe(15_901 - 3_090 + 1_884 + 63 - 1_050);
  });

  it('answers zero for no lines', () => {
    expect(composeInvoice([], null, [])).toEqual({ lines: [], subtotal: 0, total_discount: 0, total_tax: 0, total: 0 });
  });
});

describe('metered quantities', () => {
  it('rounds a fractional aggregate up to a whole unit, never below zero', () => {
    expect(billableQuantity('12')).toBe(12);
    expect(billableQuantity('12.000')).toBe(12);
    expect(billableQuantity('12.01')).toBe(13);
    expect(billableQuantity('-3')).toBe(0);
  });

  it('rates late usage as what it adds to the period, graduated tiers continuing', () => {
    expect(meteredAmount(graduated, '150', null)).toBe(2_500);
    expect(meteredAmount(graduated, '10', { quantity: '150', combined: '160' })).toBe(500);
    expect(meteredAmount(graduated, '10', { quantity: '50', combined: '60' })).toBe(0);
  });
});

describe('couponApplies', () => {
  const created = new Date('2026-01-31T00:00:00Z');
  it('follows once, repeating and forever', async () => {
    const { couponApplies } = await import('./invoice-terms.js');
    const at = (periodStart: string, earlierInvoices = 1) => ({
      subscriptionCreated: created,
      periodStart: new Date(periodStart),
      earlierInvoices,
    });
    expect(couponApplies({ duration: 'once', duration_in_months: null }, at('2026-01-31T00:00:00Z', 0))).toBe(true);
    expect(couponApplies({ duration: 'once', duration_in_months: null }, at('2026-02-28T00:00:00Z'))).toBe(false);
    const threeMonths = { duration: 'repeating' as const, duration_in_months: 3 };
    expect(couponApplies(threeMonths, at('2026-03-31T00:00:00Z'))).toBe(true);
    expect(couponApplies(threeMonths, at('2026-04-30T00:00:00Z'))).toBe(false);
    expect(couponApplies({ duration: 'forever', duration_in_months: null }, at('2030-01-01T00:00:00Z'))).toBe(true);
  });
});
