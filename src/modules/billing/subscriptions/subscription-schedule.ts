import type { SubscriptionStatus } from './subscription.transitions.js';

/** An incomplete subscription whose first invoice is not paid in 23 hours expires (as Stripe's). */
export const INCOMPLETE_EXPIRES_AFTER_MS = 23 * 3_600_000;
/** `customer.subscription.trial_will_end` goes out this long before trial_end (as Stripe's). */
export const TRIAL_WILL_END_BEFORE_MS = 3 * 86_400_000;

/** What the time-driven job reads of a subscription. */
export interface Schedulable {
  status: SubscriptionStatus;
  /** When it was created, by its customer's clock. */
  created: Date;
  trial_start: Date | null;
  trial_end: Date | null;
  trial_will_end_sent: boolean;
  current_period_end: Date;
  cancel_at_period_end: boolean;
}

/**
 * The time-driven steps, each due at a time of the customer's clock:
 * - `expire`: incomplete, 23 h after creation -> incomplete_expired;
 * - `trial_will_end`: trialing, 3 days before trial_end (at once for a trial shorter than that), once;
 * - `end_trial`: trialing, at trial_end -> active, its first paid period begins (`cancel` instead
 *   when cancel_at_period_end: the trial is the period);
 * - `cancel`: active/past_due/unpaid with cancel_at_period_end, at current_period_end -> canceled;
 * - `renew`: active/past_due/unpaid, at current_period_end -> the next period (part 2 invoices it).
 */
export type ScheduledStep = 'expire' | 'trial_will_end' | 'end_trial' | 'cancel' | 'renew';

export interface DueStep {
  step: ScheduledStep;
  at: Date;
}

/** The subscription's next step and when it is due, or null when time changes nothing (final). */
export function nextStep(s: Schedulable): DueStep | null {
  switch (s.status) {
    case 'incomplete':
      return { step: 'expire', at: new Date(s.created.getTime() + INCOMPLETE_EXPIRES_AFTER_MS) };
    case 'trialing': {
      const trialEnd = s.trial_end!;
      if (!s.trial_will_end_sent) {
        const notice = Math.max(trialEnd.getTime() - TRIAL_WILL_END_BEFORE_MS, (s.trial_start ?? s.created).getTime());
        return { step: 'trial_will_end', at: new Date(Math.min(notice, trialEnd.getTime())) };
      }
      return { step: s.cancel_at_period_end ? 'cancel' : 'end_trial', at: trialEnd };
    }
    case 'active':
    case 'past_due':
    case 'unpaid':
      return { step: s.cancel_at_period_end ? 'cancel' : 'renew', at: s.current_period_end };
    case 'incomplete_expired':
    case 'canceled':
      return null;
  }
}

/** When the job must look at the subscription next (the `next_event_at` column). */
export function nextEventAt(s: Schedulable): Date | null {
  return nextStep(s)?.at ?? null;
}
