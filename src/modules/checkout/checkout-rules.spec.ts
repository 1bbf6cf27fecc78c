import { formatMoney } from '../../common/http/hosted-page.js';
import { currencyAllowedIn, defaultPaymentMethodTypes } from './checkout-rules.js';
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
    expect(formatMoney(5000, 'JPY', 1, 'en')).toBe('¥5,000');
  });

  it('collects the country currency, PromptPay only in THB', () => {
    expect(currencyAllowedIn('TH', 'THB')).toBe(true);
    expect(currencyAllowedIn('TH', 'USD')).toBe(false);
    expect(currencyAllowedIn('ZZ', 'USD')).toBe(true);
    expect(defaultPaymentMethodTypes('THB')).toEqual(['card', 'promptpay']);
    expect(defaultPaymentMethodTypes('SGD')).toEqual(['card']);
  });
});
