import {
  PAYMENT_METHOD_REGISTRY,
  PAYMENT_METHOD_TYPES,
  defaultPaymentMethodTypes,
  paymentMethodInfo,
  paymentMethodTypesFor,
  providerTypeOf,
  refusalOf,
} from './payment-method-types.js';

describe('the payment method type registry', () => {
  it('lists every type once, PAYMENT_METHOD_TYPES derived from it', () => {
    expect(PAYMENT_METHOD_TYPES).toEqual(Object.keys(PAYMENT_METHOD_REGISTRY));
    expect(new Set(PAYMENT_METHOD_TYPES).size).toBe(PAYMENT_METHOD_TYPES.length);
  });

  it('offers Thailand card, PromptPay, TrueMoney, five mobile banking apps and installments; SG and MY two local methods each', () => {
    expect(paymentMethodTypesFor('TH', 'THB').filter((t) => !t.startsWith('installment_'))).toEqual([
      'card',
      'promptpay',
      'truemoney',
      'mobile_banking_kbank',
      'mobile_banking_scb',
      'mobile_banking_bay',
      'mobile_banking_bbl',
      'mobile_banking_ktb',
    ]);
    expect(paymentMethodTypesFor('TH', 'THB').filter((t) => t.startsWith('installment_')).length).toBe(8);
    expect(paymentMethodTypesFor('SG', 'SGD')).toEqual(['card', 'paynow', 'grabpay']);
    expect(paymentMethodTypesFor('MY', 'MYR')).toEqual(['card', 'fpx', 'grabpay']);
  });

  it('keeps every limit, expiry and flow consistent', () => {
    for (const type of PAYMENT_METHOD_TYPES) {
      const info = paymentMethodInfo(type);
      for (const [currency, { min, max }] of Object.entries(info.limits)) {
        expect(Number.isInteger(min) && Number.isInteger(max) && min >= 1 && min < max).toBe(true);
        if (info.currencies) expect(info.currencies).toContain(currency);
      }
      expect(info.expiresAfterMs === null).toBe(info.flow === 'card');
      if (info.refund.partial) expect(info.refund.refundable).toBe(true);
      if (info.installment) {
        expect(info.group).toBe('installment');
        expect(info.limits.THB.min).toBe(info.installment.minMonthly.THB * Math.min(...info.installment.terms));
      }
    }
  });

  it('derives the provider literal: TrueMoney is Opn truemoney_jumpapp, FPX is Stripe fpx', () => {
    expect(providerTypeOf('truemoney', 'opn')).toBe('truemoney_jumpapp');
    expect(providerTypeOf('truemoney', 'stripe')).toBeNull();
    expect(providerTypeOf('mobile_banking_kbank', 'opn')).toBe('mobile_banking_kbank');
    expect(providerTypeOf('installment_ktc', 'opn')).toBe('installment_ktc');
    expect(providerTypeOf('fpx', 'stripe')).toBe('fpx');
  });

  it('refuses by country, then currency, then amount, then provider', () => {
    const opn = { name: 'opn', paymentMethodTypes: ['card', 'promptpay'] as const };
    const th = { country: 'TH', currency: 'THB', amount: 10_000, provider: opn };
    expect(refusalOf('paynow', th)).toEqual({ reason: 'country', allowed: ['SG'] });
    expect(refusalOf('truemoney', { ...th, currency: 'USD' })).toEqual({ reason: 'currency', allowed: ['THB'] });
    expect(refusalOf('installment_kbank', th)).toEqual({
      reason: 'amount',
      limits: { min: 90_000, max: 99_999_999_999 },
    });
    expect(refusalOf('truemoney', th)).toEqual({ reason: 'provider', provider: 'opn' });
    expect(refusalOf('card', { ...th, country: 'ZZ', currency: 'XXX' })).toBeNull();
  });

  it('leaves installments out of the defaults (opt-in), whatever the amount', () => {
    const all = { name: 'sandbox', paymentMethodTypes: PAYMENT_METHOD_TYPES };
    const types = defaultPaymentMethodTypes({ country: 'TH', currency: 'THB', amount: 5_000_001, provider: all });
    // 50,000.01 THB: above TrueMoney's maximum, so it is left out too.
    expect(types).toEqual([
      'card',
      'promptpay',
      'mobile_banking_kbank',
      'mobile_banking_scb',
      'mobile_banking_bay',
      'mobile_banking_bbl',
      'mobile_banking_ktb',
    ]);
  });
});
