import { AppError } from '../../common/errors/app-error.js';
import { NEW_REFUND_STATUS, REFUND_STATUSES, refundTransition, type RefundEvent } from './refund.transitions.js';

describe('refund transitions', () => {
  it('starts pending and leaves pending for each outcome', () => {
    expect(NEW_REFUND_STATUS).toBe('pending');
    expect(refundTransition('pending', 'succeed', 'r')).toBe('succeeded');
    expect(refundTransition('pending', 'fail', 'r')).toBe('failed');
    expect(refundTransition('pending', 'cancel', 'r')).toBe('canceled');
  });

  it('refuses every event from a final state with E4090', () => {
    for (const from of REFUND_STATUSES.filter((s) => s !== 'pending')) {
      for (const event of ['succeed', 'fail', 'cancel'] as RefundEvent[]) {
        let error: unknown;
        try {
          refundTransition(from, event, 'r');
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).definition.code).toBe('E4090');
      }
    }
  });
});
