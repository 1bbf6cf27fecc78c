import { AppError } from '../../../common/errors/app-error.js';
import type { CreateSubscriptionDto } from '../../billing/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { CreateCheckoutDto } from '../dto/checkout.dto.js';
import type { Checkout, TargetType } from '../entities/checkout.entity.js';

/** A subscription checkout lives as long as its `incomplete` subscription waits for its first payment. */
export const SUBSCRIPTION_CHECKOUT_LIFETIME_MS = 23 * 3600 * 1000;

/** Stripe's values of subscription_data.payment_settings.save_default_payment_method. */
export const SAVE_DEFAULT_VALUES = ['on_subscription', 'off'] as const;

/**
 * What a checkout collects: its target (mode `payment`), the subscription's first invoice (mode
 * `subscription`), or nothing (mode `setup`, and a subscription checkout that starts a trial).
 */
export function collectedTarget(checkout: Pick<Checkout, 'mode' | 'target_type' | 'target_id' | 'invoice_id'>): {
  type: TargetType;
  id: string;
} | null {
  if (checkout.mode === 'subscription')
    return checkout.invoice_id ? { type: 'invoice', id: checkout.invoice_id } : null;
  if (checkout.target_type === 'customer') return null;
  return { type: checkout.target_type, id: checkout.target_id };
}

/** Whether a paid (or trial) subscription checkout makes the saved card its subscription's default. */
export function savesDefault(checkout: Pick<Checkout, 'subscription_data'>): boolean {
  const settings = checkout.subscription_data?.payment_settings as { save_default_payment_method?: string } | undefined;
  return settings?.save_default_payment_method !== 'off';
}

/** A subscription checkout's request as a subscription: what it cannot honour is refused, never ignored. */
export interface SubscriptionRequest {
  subscription: CreateSubscriptionDto;
  promotionCode: string | null;
}

/**
 * Checks a checkout in mode `subscription` (docs/BILLING.md, "Subscription checkout"): the
 * customer is its target (E7070), it has line items (E7071), takes cards only (E7007), and
 * subscription_data holds only what this service honours (E7072). Prices, currencies, intervals,
 * quantities, coupons and tax rates are checked by billing in the creating transaction.
 */
export function subscriptionRequest(dto: CreateCheckoutDto): SubscriptionRequest {
  if (dto.target_type !== 'customer') {
    throw new AppError(CheckoutErrors.E7070, 'A checkout in mode "subscription" has target_type "customer".');
  }
  const data = dto.subscription_data ?? {};
  if (data.customer_id !== undefined && data.customer_id !== dto.target_id) {
    throw new AppError(
      CheckoutErrors.E7070,
      `subscription_data.customer_id "${data.customer_id}" is not the target customer "${dto.target_id}".`,
    );
  }
  if (!dto.line_items || dto.line_items.length === 0) {
    throw new AppError(CheckoutErrors.E7071, 'line_items is required in mode "subscription".');
  }
  const other = (dto.payment_method_types ?? []).filter((t) => t !== 'card');
  if (other.length > 0) {
    throw new AppError(CheckoutErrors.E7007, `A subscription checkout takes cards only (not ${other.join(', ')}).`);
  }
  if (dto.payment_method_collection !== undefined && dto.payment_method_collection !== 'always') {
    throw new AppError(
      CheckoutErrors.E7072,
      'payment_method_collection: a subscription checkout always collects the card ("always").',
    );
  }
  if (data.default_fees !== undefined && data.default_fees.length > 0) {
    throw new AppError(CheckoutErrors.E7072, 'subscription_data.default_fees: this service bills no fees.');
  }
  if (data.collection_method !== undefined && data.collection_method !== 'charge_automatically') {
    throw new AppError(
      CheckoutErrors.E7072,
      'subscription_data.collection_method: a checkout charges the card ("charge_automatically").',
    );
  }
  const save = data.payment_settings?.save_default_payment_method;
  if (save !== undefined && !(SAVE_DEFAULT_VALUES as readonly string[]).includes(save)) {
    throw new AppError(
      CheckoutErrors.E7072,
      `subscription_data.payment_settings.save_default_payment_method: one of ${SAVE_DEFAULT_VALUES.join(', ')}.`,
    );
  }
  if (data.coupon !== undefined && dto.promotion_code !== undefined) {
    throw new AppError(CheckoutErrors.E7072, 'Send subscription_data.coupon or promotion_code, not both.');
  }
  const subscription = {
    customer_id: dto.target_id,
    items: dto.line_items.map((l) => ({ price_id: l.price, quantity: l.quantity })),
    collection_method: 'charge_automatically',
    ...(data.trial_period_days !== undefined ? { trial_period_days: data.trial_period_days } : {}),
    ...(data.trial_end !== undefined ? { trial_end: data.trial_end } : {}),
    ...(data.billing_cycle_anchor !== undefined ? { billing_cycle_anchor: data.billing_cycle_anchor } : {}),
    ...(data.coupon !== undefined ? { coupon: data.coupon } : {}),
    ...(data.default_tax_rates !== undefined ? { default_tax_rates: data.default_tax_rates } : {}),
    ...(data.metadata !== undefined ? { metadata: data.metadata } : {}),
  } as CreateSubscriptionDto;
  return { subscription, promotionCode: dto.promotion_code ?? null };
}

/** subscription_data.currency, when sent, is the line items' (E7074). */
export function assertCurrency(dto: CreateCheckoutDto, currency: string): void {
  const wanted = dto.subscription_data?.currency;
  if (wanted !== undefined && wanted.toUpperCase() !== currency.toUpperCase()) {
    throw new AppError(
      CheckoutErrors.E7074,
      `subscription_data.currency is ${wanted}; the line items are in ${currency}.`,
    );
  }
}
