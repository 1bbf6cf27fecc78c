import type { Coupon } from './entities/coupon.entity.js';

/** Whether the coupon can still be redeemed at `now`: not deleted, before redeem_by, below max_redemptions. */
export function couponValid(c: Coupon, now: Date): boolean {
  if (c.deleted_at !== null) return false;
  if (c.redeem_by !== null && c.redeem_by.getTime() <= now.getTime()) return false;
  return c.max_redemptions === null || c.times_redeemed < c.max_redemptions;
}

export function toCouponResponse(c: Coupon, now: Date) {
  return {
    id: c.id,
    object: 'coupon' as const,
    livemode: c.livemode,
    name: c.name,
    /** The stored decimal (at most 2 decimals) as a JSON number. */
    percent_off: c.percent_off === null ? null : Number(c.percent_off),
    amount_off: c.amount_off === null ? null : Number(c.amount_off),
    currency: c.currency,
    scaling_factor: c.scaling_factor,
    duration: c.duration,
    duration_in_months: c.duration_in_months,
    max_redemptions: c.max_redemptions,
    redeem_by: c.redeem_by?.toISOString() ?? null,
    times_redeemed: c.times_redeemed,
    valid: couponValid(c, now),
    metadata: c.metadata,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

export type CouponResponse = ReturnType<typeof toCouponResponse>;
