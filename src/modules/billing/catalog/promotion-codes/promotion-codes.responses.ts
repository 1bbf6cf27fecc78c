import type { CouponResponse } from '../coupons/coupons.responses.js';
import type { PromotionCode } from './entities/promotion-code.entity.js';

/** A promotion code with its coupon embedded (as Stripe's). */
export function toPromotionCodeResponse(p: PromotionCode, coupon: CouponResponse) {
  return {
    id: p.id,
    object: 'promotion_code' as const,
    livemode: p.livemode,
    code: p.code,
    coupon,
    active: p.active,
    max_redemptions: p.max_redemptions,
    expires_at: p.expires_at?.toISOString() ?? null,
    times_redeemed: p.times_redeemed,
    restrictions: {
      first_time_transaction: p.first_time_transaction,
      minimum_amount: p.minimum_amount === null ? null : Number(p.minimum_amount),
      minimum_amount_currency: p.minimum_amount_currency,
    },
    metadata: p.metadata,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export type PromotionCodeResponse = ReturnType<typeof toPromotionCodeResponse>;
