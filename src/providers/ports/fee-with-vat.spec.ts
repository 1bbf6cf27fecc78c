import { feeWithVat, THAI_VAT_BPS } from './fee-with-vat.js';

const PUBLISHED = { card: 365, promptpay: 165 } as const;

describe('feeWithVat', () => {
  it('adds 7 % VAT to the rate of the payment method and rounds the total once, half up', () => {
    expect(feeWithVat('card', 100_000, PUBLISHED)).toBe(3906); // 3650 + 255.5
    expect(feeWithVat('promptpay', 100_000, PUBLISHED)).toBe(1766); // 1650 + 115.5
    expect(feeWithVat('card', 1_000, PUBLISHED)).toBe(39); // 36.5 + 2.555 = 39.055
    expect(feeWithVat('promptpay', 2_000, PUBLISHED)).toBe(35); // 33 + 2.31 = 35.31
  });

  it('charges at least one minor unit', () => {
    expect(feeWithVat('promptpay', 1, PUBLISHED)).toBe(1);
    expect(feeWithVat('card', 0, PUBLISHED)).toBe(1);
  });

  it('takes overridden rates and VAT over the published ones, method by method', () => {
    expect(feeWithVat('card', 100_000, PUBLISHED, { feeBps: { card: 300 } })).toBe(3210); // 3000 + 210
    expect(feeWithVat('promptpay', 100_000, PUBLISHED, { feeBps: { card: 300 } })).toBe(1766);
    expect(feeWithVat('card', 100_000, PUBLISHED, { feeVatBps: 0 })).toBe(3650);
    expect(THAI_VAT_BPS).toBe(700);
  });
});
