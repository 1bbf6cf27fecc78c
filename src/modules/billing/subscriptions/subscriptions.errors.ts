import { defineErrors } from '../../../common/errors/error-catalog.js';

/** Subscription codes: 7710-7799 of billing's subscriptions and test clocks range (7700-7799); subscription checkouts from 7750. */
export const SubscriptionErrors = defineErrors('billing', {
  E7710: { key: 'subscription_price_unknown', http_status: 400, message: 'No price with this id in this application.' },
  E7711: {
    key: 'subscription_price_inactive',
    http_status: 400,
    message: 'The price is inactive: new subscription items cannot use it.',
  },
  E7712: {
    key: 'subscription_currency_mismatch',
    http_status: 400,
    message: "All prices of a subscription share one currency, which is the customer's currency when it has one.",
  },
  E7713: {
    key: 'subscription_interval_mismatch',
    http_status: 400,
    message: 'All recurring prices of a subscription share one interval and interval_count.',
  },
  E7714: {
    key: 'subscription_price_not_recurring',
    http_status: 400,
    message: 'A one_time price cannot be a subscription item: subscription items need recurring prices.',
  },
  E7715: {
    key: 'subscription_metered_quantity',
    http_status: 400,
    message: 'A metered price takes no quantity: its usage comes from meter events.',
  },
  E7716: {
    key: 'subscription_duplicate_price',
    http_status: 400,
    message: 'A price can be on a subscription once: change the quantity of its item instead.',
  },
  E7717: { key: 'subscription_trial_end_past', http_status: 400, message: 'trial_end must be in the future.' },
  E7718: {
    key: 'subscription_days_until_due_invalid',
    http_status: 400,
    message: 'days_until_due is for collection_method send_invoice only.',
  },
  E7719: {
    key: 'subscription_trial_conflict',
    http_status: 400,
    message: 'Send trial_period_days or trial_end, not both.',
  },
  E7720: {
    key: 'subscription_discount_conflict',
    http_status: 400,
    message: 'Send coupon or promotion_code, not both.',
  },
  E7721: {
    key: 'subscription_billing_cycle_anchor_invalid',
    http_status: 400,
    message: 'billing_cycle_anchor must lie within one interval after the start (or the trial end).',
  },
  E7722: {
    key: 'subscription_status_invalid',
    http_status: 409,
    message: "The subscription's status does not allow this change.",
  },
  E7723: { key: 'subscription_customer_unknown', http_status: 400, message: 'No customer with this id.' },
  E7724: {
    key: 'subscription_items_empty',
    http_status: 400,
    message: 'A subscription keeps at least one item.',
  },
  E7725: {
    key: 'subscription_item_unknown',
    http_status: 400,
    message: 'No item with this id on this subscription.',
  },
  E7726: {
    key: 'subscription_invoice_now_unsupported',
    http_status: 400,
    message: 'invoice_now is not available yet: subscriptions are not invoiced by this version.',
  },
  E7727: {
    key: 'subscription_licensed_quantity_invalid',
    http_status: 400,
    message: 'A licensed item has a quantity of at least 1 (an item of quantity 0 is removed with deleted: true).',
  },
  E7729: {
    key: 'subscription_promotion_code_unknown',
    http_status: 400,
    message: 'No promotion code with this id in this application.',
  },
  E7750: {
    key: 'subscription_checkout_subscription_ended',
    http_status: 400,
    message:
      'The subscription of this checkout is no longer waiting for it (incomplete_expired or canceled): the checkout cannot start it.',
  },
});
