import { AppError } from '../../common/errors/app-error.js';
import { checkoutTransition } from './checkouts/checkout.transitions.js';
import { invoiceTransition } from './targets/invoice.transitions.js';
import { paymentIntentTransition } from './targets/payment-intent.transitions.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return (err as AppError).definition.code;
  }
}

describe('checkout, payment intent and invoice transitions', () => {
  it('completes or expires an open checkout, and nothing else', () => {
    expect(checkoutTransition('open', 'complete', 'co')).toBe('complete');
    expect(checkoutTransition('open', 'expire', 'co')).toBe('expired');
    expect(codeOf(() => checkoutTransition('complete', 'expire', 'co'))).toBe('E7006');
    expect(codeOf(() => checkoutTransition('expired', 'complete', 'co'))).toBe('E7005');
  });

  it('moves a payment intent through processing to succeeded, back on failure, and refuses after the end', () => {
    expect(paymentIntentTransition('requires_payment_method', 'process', 'pi')).toBe('processing');
    expect(paymentIntentTransition('processing', 'fail', 'pi')).toBe('requires_payment_method');
    expect(paymentIntentTransition('processing', 'succeed', 'pi')).toBe('succeeded');
    expect(paymentIntentTransition('requires_payment_method', 'cancel', 'pi')).toBe('canceled');
    expect(codeOf(() => paymentIntentTransition('succeeded', 'cancel', 'pi'))).toBe('E7016');
    expect(codeOf(() => paymentIntentTransition('canceled', 'succeed', 'pi'))).toBe('E7016');
  });

  it('finalizes, pays and voids invoices only from the states that allow it', () => {
    expect(invoiceTransition('draft', 'finalize', 'in')).toBe('open');
    expect(invoiceTransition('open', 'pay', 'in')).toBe('paid');
    expect(invoiceTransition('open', 'void', 'in')).toBe('void');
    expect(codeOf(() => invoiceTransition('paid', 'void', 'in'))).toBe('E7015');
    expect(codeOf(() => invoiceTransition('open', 'finalize', 'in'))).toBe('E7015');
    expect(codeOf(() => invoiceTransition('draft', 'pay', 'in'))).toBe('E7015');
  });
});
