import { AppError } from '../../../common/errors/app-error.js';
import type { CreateCheckoutDto } from '../dto/checkout.dto.js';
import { assertCurrency, collectedTarget, savesDefault, subscriptionRequest } from './subscription-mode.js';

const CUSTOMER = '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b';
const base = {
  mode: 'subscription',
  target_type: 'customer',
  target_id: CUSTOMER,
  line_items: [{ price: 'price_1', quantity: 2 }],
} as CreateCheckoutDto;

const codeOf = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (err) {
    return err instanceof AppError ? err.definition.code : 'not an AppError';
  }
};

describe('collectedTarget: what a checkout collects', () => {
  it('is the target in mode payment, the first invoice in mode subscription, nothing in setup or a trial', () => {
    expect(collectedTarget({ mode: 'payment', target_type: 'invoice', target_id: 'i', invoice_id: null })).toEqual({
      type: 'invoice',
      id: 'i',
    });
    expect(
      collectedTarget({ mode: 'payment', target_type: 'payment_intent', target_id: 'p', invoice_id: null }),
    ).toEqual({ type: 'payment_intent', id: 'p' });
    expect(
      collectedTarget({ mode: 'subscription', target_type: 'customer', target_id: 'c', invoice_id: 'inv' }),
    ).toEqual({ type: 'invoice', id: 'inv' });
    expect(
      collectedTarget({ mode: 'subscription', target_type: 'customer', target_id: 'c', invoice_id: null }),
    ).toBeNull();
    expect(collectedTarget({ mode: 'setup', target_type: 'customer', target_id: 'c', invoice_id: null })).toBeNull();
  });
});

describe('subscriptionRequest', () => {
  it('maps line items and subscription_data to a subscription, the promotion code apart', () => {
    const request = subscriptionRequest({
      ...base,
      promotion_code: 'WELCOME10',
      subscription_data: { default_tax_rates: ['vat'], trial_period_days: 7, metadata: { a: 1 } },
    } as CreateCheckoutDto);
    expect(request).toEqual({
      promotionCode: 'WELCOME10',
      subscription: {
        customer_id: CUSTOMER,
        items: [{ price_id: 'price_1', quantity: 2 }],
        collection_method: 'charge_automatically',
        trial_period_days: 7,
        default_tax_rates: ['vat'],
        metadata: { a: 1 },
      },
    });
  });

  it.each([
    [{ target_type: 'invoice' }, 'E7070'],
    [{ subscription_data: { customer_id: 'someone-else' } }, 'E7070'],
    [{ line_items: [] }, 'E7071'],
    [{ payment_method_types: ['promptpay'] }, 'E7007'],
    [{ payment_method_collection: 'if_required' }, 'E7072'],
    [{ subscription_data: { default_fees: ['f'] } }, 'E7072'],
    [{ subscription_data: { collection_method: 'send_invoice' } }, 'E7072'],
    [{ subscription_data: { payment_settings: { save_default_payment_method: 'x' } } }, 'E7072'],
    [{ promotion_code: 'A', subscription_data: { coupon: 'c' } }, 'E7072'],
  ])('refuses %j with %s', (change, code) => {
    expect(codeOf(() => subscriptionRequest({ ...base, ...change } as CreateCheckoutDto))).toBe(code);
  });

  it('takes subscription_data.customer_id equal to the target', () => {
    expect(codeOf(() => subscriptionRequest({ ...base, subscription_data: { customer_id: CUSTOMER } }))).toBeNull();
  });
});

describe('assertCurrency and savesDefault', () => {
  it('compares subscription_data.currency case-insensitively (E7074)', () => {
    expect(codeOf(() => assertCurrency({ ...base, subscription_data: { currency: 'thb' } }, 'THB'))).toBeNull();
    expect(codeOf(() => assertCurrency({ ...base, subscription_data: { currency: 'USD' } }, 'THB'))).toBe('E7074');
    expect(codeOf(() => assertCurrency(base, 'THB'))).toBeNull();
  });

  it('saves the default unless save_default_payment_method is off', () => {
    expect(savesDefault({ subscription_data: null })).toBe(true);
    expect(
      savesDefault({ subscription_data: { payment_settings: { save_default_payment_method: 'on_subscription' } } }),
    ).toBe(true);
    expect(savesDefault({ subscription_data: { payment_settings: { save_default_payment_method: 'off' } } })).toBe(
      false,
    );
  });
});
