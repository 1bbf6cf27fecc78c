import { nextEventAt, nextStep, type Schedulable } from './subscription-schedule.js';

const base: Schedulable = {
  status: 'trialing',
  created: new Date('2026-03-01T00:00:00Z'),
  trial_start: new Date('2026-03-01T00:00:00Z'),
  trial_end: new Date('2026-03-15T00:00:00Z'),
  trial_will_end_sent: false,
  current_period_end: new Date('2026-03-15T00:00:00Z'),
  cancel_at_period_end: false,
};

describe('subscription schedule', () => {
  it('announces the trial end three days before, then ends it', () => {
    expect(nextStep(base)).toEqual({ step: 'trial_will_end', at: new Date('2026-03-12T00:00:00Z') });
    expect(nextStep({ ...base, trial_will_end_sent: true })).toEqual({
      step: 'end_trial',
      at: new Date('2026-03-15T00:00:00Z'),
    });
  });

  it('cancels at trial end when cancel_at_period_end is set', () => {
    expect(nextStep({ ...base, trial_will_end_sent: true, cancel_at_period_end: true })).toEqual({
      step: 'cancel',
      at: new Date('2026-03-15T00:00:00Z'),
    });
  });

  it('announces a trial shorter than three days at once', () => {
    const short = { ...base, trial_end: new Date('2026-03-02T00:00:00Z') };
    expect(nextStep(short)).toEqual({ step: 'trial_will_end', at: base.created });
  });

  it('expires an incomplete subscription after 23 hours', () => {
    expect(nextStep({ ...base, status: 'incomplete' })).toEqual({
      step: 'expire',
      at: new Date('2026-03-01T23:00:00Z'),
    });
  });

  it('renews at period end, or cancels there when asked', () => {
    const active = { ...base, status: 'active' as const, current_period_end: new Date('2026-04-01T00:00:00Z') };
    expect(nextStep(active)).toEqual({ step: 'renew', at: active.current_period_end });
    expect(nextStep({ ...active, status: 'past_due' })?.step).toBe('renew');
    expect(nextStep({ ...active, cancel_at_period_end: true })).toEqual({
      step: 'cancel',
      at: active.current_period_end,
    });
  });

  it('leaves final subscriptions alone', () => {
    expect(nextEventAt({ ...base, status: 'canceled' })).toBeNull();
    expect(nextEventAt({ ...base, status: 'incomplete_expired' })).toBeNull();
  });
});
