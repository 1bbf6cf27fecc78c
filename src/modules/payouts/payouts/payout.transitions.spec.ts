import { AppError } from '../../../common/errors/app-error.js';
import { schedulePeriod } from './payout-schedules.job.js';
import { canPayout, isFinalPayoutStatus, payoutTransition, type PayoutStatus } from './payout.transitions.js';

describe('payout transitions', () => {
  it('pending -> in_transit -> paid | failed, pending -> failed | canceled', () => {
    expect(payoutTransition('pending', 'send', 'p')).toBe('in_transit');
    expect(payoutTransition('in_transit', 'pay', 'p')).toBe('paid');
    expect(payoutTransition('in_transit', 'fail', 'p')).toBe('failed');
    expect(payoutTransition('pending', 'fail', 'p')).toBe('failed');
    expect(payoutTransition('pending', 'cancel', 'p')).toBe('canceled');
  });

  it('refuses everything else with E6305, and the final states take nothing', () => {
    expect(canPayout('in_transit', 'cancel')).toBe(false);
    expect(canPayout('pending', 'pay')).toBe(false);
    expect(() => payoutTransition('in_transit', 'cancel', 'p')).toThrow(AppError);
    for (const s of ['paid', 'failed', 'canceled'] as PayoutStatus[]) {
      expect(isFinalPayoutStatus(s)).toBe(true);
      for (const e of ['send', 'pay', 'fail', 'cancel'] as const) expect(canPayout(s, e)).toBe(false);
    }
  });

  it('schedule periods: daily every UTC day, weekly on the anchor day only', () => {
    const wednesday = new Date('2026-11-25T23:59:00Z');
    expect(schedulePeriod({ schedule_interval: 'daily', weekly_anchor: null }, wednesday)).toBe('daily:2026-11-25');
    expect(schedulePeriod({ schedule_interval: 'weekly', weekly_anchor: 'wednesday' }, wednesday)).toBe(
      'weekly:2026-11-25',
    );
    expect(schedulePeriod({ schedule_interval: 'weekly', weekly_anchor: null }, wednesday)).toBeNull();
    expect(schedulePeriod({ schedule_interval: 'manual', weekly_anchor: null }, wednesday)).toBeNull();
  });
});
