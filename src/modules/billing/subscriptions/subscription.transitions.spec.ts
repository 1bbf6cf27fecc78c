import { AppError } from '../../../common/errors/app-error.js';
import {
  SUBSCRIPTION_STATUSES,
  assertUpdatable,
  initialStatus,
  subscriptionTransition,
  type SubscriptionEvent,
  type SubscriptionStatus,
} from './subscription.transitions.js';

const codeOf = (fn: () => unknown): string | null => {
  try {
    fn();
  } catch (err) {
    return (err as AppError).definition.code;
  }
  return null;
};

describe('subscription transitions', () => {
  const allowed: Array<[SubscriptionStatus, SubscriptionEvent, SubscriptionStatus]> = [
    ['incomplete', 'first_invoice_paid', 'active'],
    ['incomplete', 'expire', 'incomplete_expired'],
    ['incomplete', 'cancel', 'canceled'],
    ['trialing', 'trial_end', 'active'],
    ['trialing', 'cancel', 'canceled'],
    ['active', 'payment_failed', 'past_due'],
    ['active', 'cancel', 'canceled'],
    ['past_due', 'payment_failed', 'past_due'],
    ['past_due', 'payment_succeeded', 'active'],
    ['past_due', 'retries_exhausted', 'unpaid'],
    ['past_due', 'cancel', 'canceled'],
    ['unpaid', 'payment_succeeded', 'active'],
    ['unpaid', 'cancel', 'canceled'],
  ];

  it.each(allowed)('%s --%s--> %s', (from, event, to) => {
    expect(subscriptionTransition(from, event, 'sub')).toBe(to);
  });

  it('refuses every other move with E7722', () => {
    const events: SubscriptionEvent[] = [
      'first_invoice_paid',
      'expire',
      'trial_end',
      'payment_failed',
      'payment_succeeded',
      'retries_exhausted',
      'cancel',
    ];
    let refused = 0;
    for (const from of SUBSCRIPTION_STATUSES) {
      for (const event of events) {
        if (allowed.some(([f, e]) => f === from && e === event)) continue;
        expect(codeOf(() => subscriptionTransition(from, event, 'sub'))).toBe('E7722');
        refused += 1;
      }
    }
    expect(refused).toBe(SUBSCRIPTION_STATUSES.length * events.length - allowed.length);
  });

  it('keeps final subscriptions unchanged', () => {
    expect(() => assertUpdatable('canceled', 'sub')).toThrow(AppError);
    expect(() => assertUpdatable('incomplete_expired', 'sub')).toThrow(AppError);
    expect(() => assertUpdatable('past_due', 'sub')).not.toThrow();
  });

  it('starts trialing with a trial, else active for send_invoice and incomplete for charge_automatically', () => {
    expect(initialStatus(true, 'charge_automatically')).toBe('trialing');
    expect(initialStatus(true, 'send_invoice')).toBe('trialing');
    expect(initialStatus(false, 'send_invoice')).toBe('active');
    expect(initialStatus(false, 'charge_automatically')).toBe('incomplete');
  });
});
