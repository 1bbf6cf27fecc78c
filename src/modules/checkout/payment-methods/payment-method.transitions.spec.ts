import type { AppError } from '../../../common/errors/app-error.js';
import { NEW_SAVED_STATUS, savedPaymentMethodTransition } from './payment-method.transitions.js';

describe('saved payment method transitions', () => {
  it('starts attached and detaches once', () => {
    expect(NEW_SAVED_STATUS).toBe('attached');
    expect(savedPaymentMethodTransition('attached', 'detach', 'pm')).toBe('detached');
  });

  it('refuses to detach a detached method with E7031', () => {
    let code = 'ok';
    try {
      savedPaymentMethodTransition('detached', 'detach', 'pm');
    } catch (err) {
      code = (err as AppError).definition.code;
    }
    expect(code).toBe('E7031');
  });
});
