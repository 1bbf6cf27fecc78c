import { AppError } from '../../../common/errors/app-error.js';
import { chargeTransition, type ChargeEvent, type ChargeStatus } from './charge.transitions.js';

describe('charge transitions', () => {
  it('moves a pending charge to succeeded, failed or canceled', () => {
    expect(chargeTransition('pending', 'succeed')).toBe('succeeded');
    expect(chargeTransition('pending', 'fail')).toBe('failed');
    expect(chargeTransition('pending', 'cancel')).toBe('canceled');
  });

  it.each<[ChargeStatus, ChargeEvent]>([
    ['succeeded', 'fail'],
    ['succeeded', 'cancel'],
    ['failed', 'succeed'],
    ['canceled', 'succeed'],
  ])('refuses a %s charge to %s with E4090', (from, event) => {
    expect(() => chargeTransition(from, event)).toThrow(AppError);
    try {
      chargeTransition(from, event);
    } catch (err) {
      expect((err as AppError).definition.code).toBe('E4090');
    }
  });
});
