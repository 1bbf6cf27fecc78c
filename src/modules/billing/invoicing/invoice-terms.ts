import type { Coupon } from '../catalog/coupons/entities/coupon.entity.js';
import { addRecurrences } from '../subscriptions/subscription-periods.js';

/**
 * Whether a subscription's coupon discounts the invoice of a period starting at `periodStart`
 * (Stripe's durations): `forever` always; `once` on the subscription's first invoice only;
 * `repeating` while the period starts within `duration_in_months` months of the subscription's
 * creation (by the customer's clock).
 */
export function couponApplies(
  coupon: Pick<Coupon, 'duration' | 'duration_in_months'>,
  input: { subscriptionCreated: Date; periodStart: Date; earlierInvoices: number },
): boolean {
  switch (coupon.duration) {
    case 'forever':
      return true;
    case 'once':
      return input.earlierInvoices === 0;
    case 'repeating': {
      const months = coupon.duration_in_months ?? 0;
      const until = addRecurrences(input.subscriptionCreated, { interval: 'month', interval_count: months }, 1);
      return input.periodStart < until;
    }
  }
}
