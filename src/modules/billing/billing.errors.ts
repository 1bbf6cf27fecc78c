import { defineErrors } from '../../common/errors/error-catalog.js';

/** The billing catalog's codes (E7600-E7699; subscriptions take E7700-E7799, invoicing E7800-E7899). */
export const BillingErrors = defineErrors('billing', {
  // Prices
  E7600: { key: 'product_not_found', http_status: 400, message: 'product_id names no product of this application.' },
  E7601: { key: 'product_inactive', http_status: 400, message: 'The product is inactive: it takes no new prices.' },
  E7602: {
    key: 'price_unit_amount_required',
    http_status: 400,
    message: 'A per_unit price needs unit_amount.',
  },
  E7603: {
    key: 'price_unit_amount_with_tiers',
    http_status: 400,
    message: 'A tiered price takes its amounts from tiers: unit_amount is not allowed.',
  },
  E7604: {
    key: 'price_tiers_required',
    http_status: 400,
    message: 'A tiered price needs tiers and tiers_mode (graduated or volume).',
  },
  E7605: {
    key: 'price_tiers_not_allowed',
    http_status: 400,
    message: 'tiers and tiers_mode are only allowed with billing_scheme tiered.',
  },
  E7606: {
    key: 'price_tiers_not_ascending',
    http_status: 400,
    message: 'Each tier up_to must be greater than the one before.',
  },
  E7607: {
    key: 'price_last_tier_not_inf',
    http_status: 400,
    message: 'The last tier, and only the last, must have up_to "inf".',
  },
  E7608: {
    key: 'price_tier_amount_missing',
    http_status: 400,
    message: 'Each tier needs unit_amount, flat_amount or both.',
  },
  E7609: {
    key: 'price_meter_required',
    http_status: 400,
    message: 'A metered price (usage_type metered) needs recurring.meter_id.',
  },
  E7610: {
    key: 'price_meter_not_allowed',
    http_status: 400,
    message: 'A licensed price has no meter: recurring.meter_id is only for usage_type metered.',
  },
  E7611: { key: 'price_meter_not_found', http_status: 400, message: 'meter_id names no meter of this application.' },
  E7612: {
    key: 'price_lookup_key_taken',
    http_status: 409,
    message: 'Another active price has this lookup_key (send transfer_lookup_key: true to move it).',
  },
  E7613: {
    key: 'price_transform_quantity_with_tiers',
    http_status: 400,
    message: 'transform_quantity cannot be combined with billing_scheme tiered.',
  },
  E7614: {
    key: 'price_interval_too_long',
    http_status: 400,
    message: 'A recurring interval may be at most one year (365 days, 52 weeks, 12 months or 1 year).',
  },
  E7615: {
    key: 'price_immutable',
    http_status: 400,
    message:
      'The amounts of a price never change: only active, lookup_key and metadata can be updated (deactivate it and create another).',
  },
  E7617: { key: 'price_not_found', http_status: 400, message: 'No price of this application has this id.' },
  E7618: {
    key: 'price_inactive',
    http_status: 400,
    message: 'The price is inactive: it cannot be used for new purchases.',
  },
  // Coupons
  E7620: {
    key: 'coupon_discount_required',
    http_status: 400,
    message: 'A coupon needs exactly one of percent_off and amount_off.',
  },
  E7621: {
    key: 'coupon_currency_mismatch',
    http_status: 400,
    message: 'amount_off needs currency, and percent_off takes none.',
  },
  E7622: {
    key: 'coupon_percent_off_invalid',
    http_status: 400,
    message: 'percent_off must be greater than 0 and at most 100, with at most 2 decimals.',
  },
  E7623: {
    key: 'coupon_duration_in_months_invalid',
    http_status: 400,
    message: 'duration_in_months is required with duration repeating and allowed only with it.',
  },
  E7624: { key: 'coupon_redeem_by_past', http_status: 400, message: 'redeem_by must be in the future.' },
  E7625: { key: 'coupon_not_found', http_status: 400, message: 'coupon_id names no coupon of this application.' },
  E7626: {
    key: 'coupon_immutable',
    http_status: 400,
    message: 'Only name and metadata of a coupon can be updated: its discount and limits never change.',
  },
  // Promotion codes and redemption
  E7630: {
    key: 'promotion_code_taken',
    http_status: 409,
    message: 'A promotion code with this code exists (codes are compared case-insensitively).',
  },
  E7631: {
    key: 'promotion_code_unknown',
    http_status: 400,
    message: 'No promotion code of this application has this code.',
  },
  E7632: { key: 'promotion_code_inactive', http_status: 400, message: 'The promotion code is inactive.' },
  E7633: { key: 'promotion_code_expired', http_status: 400, message: 'The promotion code has expired.' },
  E7634: {
    key: 'promotion_code_exhausted',
    http_status: 400,
    message: 'The promotion code reached its max_redemptions.',
  },
  E7635: {
    key: 'coupon_expired',
    http_status: 400,
    message: "The coupon's redeem_by has passed, or the coupon was deleted.",
  },
  E7636: { key: 'coupon_exhausted', http_status: 400, message: 'The coupon reached its max_redemptions.' },
  E7637: {
    key: 'promotion_code_first_time_only',
    http_status: 400,
    message: "The promotion code is only for a customer's first transaction.",
  },
  E7638: {
    key: 'promotion_code_minimum_amount',
    http_status: 400,
    message: 'The amount is below the minimum amount of the promotion code.',
  },
  E7639: {
    key: 'discount_currency_mismatch',
    http_status: 400,
    message: "The amount's currency is not the currency of the coupon or of the promotion code's minimum amount.",
  },
  E7640: {
    key: 'promotion_code_minimum_amount_currency',
    http_status: 400,
    message: 'restrictions.minimum_amount and restrictions.minimum_amount_currency go together.',
  },
  E7641: { key: 'promotion_code_expires_at_past', http_status: 400, message: 'expires_at must be in the future.' },
  E7642: {
    key: 'promotion_code_coupon_unusable',
    http_status: 400,
    message: 'The coupon is deleted, expired or exhausted: it takes no new promotion codes.',
  },
  E7643: {
    key: 'promotion_code_immutable',
    http_status: 400,
    message: 'Only active and metadata of a promotion code can be updated.',
  },
  // Tax rates
  E7650: {
    key: 'tax_rate_percentage_invalid',
    http_status: 400,
    message: 'percentage must be from 0 to 100 with at most 4 decimals.',
  },
  E7651: {
    key: 'tax_rate_immutable',
    http_status: 400,
    message: 'percentage and inclusive of a tax rate never change: create another tax rate.',
  },
  E7652: { key: 'tax_rate_not_found', http_status: 400, message: 'No tax rate of this application has this id.' },
  E7653: {
    key: 'tax_rate_inactive',
    http_status: 400,
    message: 'The tax rate is inactive: it cannot be applied to new amounts.',
  },
});
