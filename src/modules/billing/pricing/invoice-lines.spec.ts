import { computeInvoiceLines, type LineInput } from './invoice-lines.js';

const price = (id: string, unit_amount: number): LineInput['price'] => ({
  id,
  currency: 'THB',
  billing_scheme: 'per_unit',
  unit_amount,
  tiers: null,
  tiers_mode: null,
  transform_quantity: null,
});
const VAT = { id: 'vat', percentage: '7.0000', inclusive: false };

describe('computeInvoiceLines', () => {
  it('the worked example: a 299 THB monthly licence, 10% off, Thai VAT 7% exclusive', () => {
    const invoice = computeInvoiceLines({
      currency: 'THB',
      lines: [{ price: price('pro', 29900), quantity: 1 }],
      discount: { id: 'launch', percent_off: 10, amount_off: null },
      default_tax_rates: [VAT],
    });
    expect(invoice).toEqual({
      currency: 'THB',
      subtotal: 29900,
      total_discount: 2990,
      total_tax: 1884,
      total: 28794,
      lines: [
        {
          price_id: 'pro',
          quantity: 1,
          amount: 29900,
          discount_amounts: [{ coupon_id: 'launch', amount: 2990 }],
          tax_amounts: [{ tax_rate_id: 'vat', inclusive: false, taxable_amount: 26910, amount: 1884 }],
        },
      ],
    });
  });

  it('splits an amount_off discount over the lines and taxes each line half-up on its own', () => {
    const invoice = computeInvoiceLines({
      currency: 'THB',
      lines: [
        { price: price('a', 1000), quantity: 1 },
        { price: price('b', 1000), quantity: 2 },
      ],
      discount: { id: 'off', percent_off: null, amount_off: 100, currency: 'THB' },
      default_tax_rates: [VAT],
    });
    expect(invoice.lines.map((l) => l.discount_amounts[0].amount)).toEqual([33, 67]);
    // 967 x 7% = 67.69 -> 68; 1933 x 7% = 135.31 -> 135
    expect(invoice.lines.map((l) => l.tax_amounts[0].amount)).toEqual([68, 135]);
    expect(invoice).toMatchObject({ subtotal: 3000, total_discount: 100, total_tax: 203, total: 3103 });
  });

  it('keeps inclusive tax inside the total', () => {
    const invoice = computeInvoiceLines({
      currency: 'THB',
      lines: [{ price: price('a', 10700), quantity: 1, tax_rates: [{ id: 'vat', percentage: 7, inclusive: true }] }],
    });
    expect(invoice).toMatchObject({ subtotal: 10700, total_discount: 0, total_tax: 700, total: 10700 });
  });

  it('caps an amount_off coupon at the subtotal', () => {
    const invoice = computeInvoiceLines({
      currency: 'THB',
      lines: [{ price: price('a', 500), quantity: 1 }],
      discount: { id: 'big', percent_off: null, amount_off: 1000, currency: 'THB' },
    });
    expect(invoice).toMatchObject({ total_discount: 500, total: 0 });
  });

  it('refuses prices and coupons of another currency', () => {
    expect(() => computeInvoiceLines({ currency: 'USD', lines: [{ price: price('a', 1), quantity: 1 }] })).toThrow(
      /THB/,
    );
    expect(() =>
      computeInvoiceLines({
        currency: 'THB',
        lines: [{ price: price('a', 1), quantity: 1 }],
        discount: { id: 'usd', percent_off: null, amount_off: 1, currency: 'USD' },
      }),
    ).toThrow(/USD/);
  });
});
