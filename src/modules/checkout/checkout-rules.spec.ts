import { formatMoney } from '../../common/http/hosted-page.js';
import type { AppError } from '../../common/errors/app-error.js';
import { checkedPaymentMethodTypes, currencyAllowedIn } from './checkout-rules.js';
import { luhn } from '../../common/http/card-data.js';
import { describeCardNumber } from './payments/card-tokens.service.js';
import { SandboxCollectionProvider, sandboxOutcomeOf } from './payments/providers/sandbox-collection.provider.js';

describe('collection rules', () => {
  it('checks card numbers with Luhn', () => {
    for (const n of ['4242424242424242', '4000000000000002', '4000000000000259', '5555555555554444']) {
      expect(luhn(n)).toBe(true);
    }
    expect(luhn('4242424242424241')).toBe(false);
  });

  it('charges the sandbox fee in basis points, rounded half up, at least one unit', () => {
    const sandbox = new SandboxCollectionProvider();
    expect(sandbox.fee('card', 125000)).toBe(4563);
    expect(sandbox.fee('promptpay', 45075)).toBe(744);
    expect(sandbox.fee('card', 1)).toBe(1);
  });

  it('describes cards without keeping the number', () => {
    const facts = describeCardNumber('4242424242424242', 'app');
    expect(facts).toMatchObject({ brand: 'visa', last4: '4242' });
    expect(facts.fingerprint).not.toContain('4242424242424242');
    expect(describeCardNumber('4242424242424242', 'other').fingerprint).not.toBe(facts.fingerprint);
  });

  it('selects the sandbox outcome from the test card number (kept on the token instead of the number)', () => {
    expect(sandboxOutcomeOf('4242424242424242')).toBe('succeeds');
    expect(sandboxOutcomeOf('4000000000000002')).toBe('generic_decline');
    expect(sandboxOutcomeOf('4000000000009995')).toBe('insufficient_funds');
    expect(sandboxOutcomeOf('4000000000000259')).toBe('disputed');
  });

  it('formats amounts with the currency decimals', () => {
    expect(formatMoney(123450, 'THB', 100, 'th')).toBe('฿1,234.50');
    expect(formatMoney(123450, 'THB', 100, 'en')).toBe('฿1,234.50');
    expect(formatMoney(5000, 'JPY', 1, 'en')).toBe('JPY\u00a05,000');
  });

  it('collects the country currency, PromptPay only in THB', () => {
    expect(currencyAllowedIn('TH', 'THB')).toBe(true);
    expect(currencyAllowedIn('TH', 'USD')).toBe(false);
    expect(currencyAllowedIn('ZZ', 'USD')).toBe(true);
  });

  it('defaults to what the registry allows and refuses a requested type with its precise code', () => {
    const sandbox = { name: 'sandbox', paymentMethodTypes: ['card', 'promptpay', 'truemoney'] as const };
    const th = { country: 'TH', currency: 'THB', amount: 125_000, provider: sandbox };
    expect(checkedPaymentMethodTypes(undefined, th)).toEqual(['card', 'promptpay', 'truemoney']);
    expect(checkedPaymentMethodTypes(undefined, { ...th, amount: 1_000 })).toEqual(['card']);
    expect(checkedPaymentMethodTypes(undefined, { ...th, country: 'SG', currency: 'SGD' })).toEqual(['card']);
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as AppError).definition.code;
      }
      return null;
    };
    expect(code(() => checkedPaymentMethodTypes(['truemoney'], { ...th, country: 'SG' }))).toBe('E7400');
    expect(code(() => checkedPaymentMethodTypes(['promptpay'], { ...th, currency: 'USD' }))).toBe('E7017');
    expect(code(() => checkedPaymentMethodTypes(['truemoney'], { ...th, currency: 'USD' }))).toBe('E7401');
    expect(code(() => checkedPaymentMethodTypes(['truemoney'], { ...th, amount: 1_999 }))).toBe('E7402');
    expect(code(() => checkedPaymentMethodTypes(['truemoney'], { ...th, amount: 5_000_001 }))).toBe('E7402');
    expect(code(() => checkedPaymentMethodTypes(['mobile_banking_scb'], th))).toBe('E7403');
    expect(checkedPaymentMethodTypes(['truemoney', 'card'], th)).toEqual(['truemoney', 'card']);
  });
});
