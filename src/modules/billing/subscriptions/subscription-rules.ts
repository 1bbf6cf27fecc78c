import { AppError } from '../../../common/errors/app-error.js';
import type { Recurrence } from './subscription-periods.js';
import { SubscriptionErrors } from './subscriptions.errors.js';

/** What the rules read of a catalog price. */
export interface PriceFacts {
  id: string;
  active: boolean;
  type: 'one_time' | 'recurring';
  currency: string;
  billing_scheme: 'per_unit' | 'tiered';
  recurring: { interval: Recurrence['interval']; interval_count: number; usage_type: 'licensed' | 'metered' } | null;
}

/** An item as requested: its price and the quantity sent (undefined when none was). */
export interface ItemRequest<P extends PriceFacts = PriceFacts> {
  price: P;
  quantity: number | undefined;
}

export interface ItemSet {
  currency: string;
  recurrence: Recurrence;
}

/** Duplicate price ids among the items: E7716 names the first. */
export function assertNoDuplicatePrices(priceIds: string[]): void {
  const seen = new Set<string>();
  for (const id of priceIds) {
    if (seen.has(id)) throw new AppError(SubscriptionErrors.E7716, `Price "${id}" is on the subscription twice.`);
    seen.add(id);
  }
}

/**
 * The quantity a new or changed item keeps: none for a metered price (E7715 if one was sent), at
 * least 1 for a licensed one (default 1; 0 is E7727).
 */
export function itemQuantity(price: PriceFacts, quantity: number | undefined): number | null {
  if (price.recurring?.usage_type === 'metered') {
    if (quantity !== undefined)
      throw new AppError(SubscriptionErrors.E7715, `Price "${price.id}" is metered: send no quantity.`);
    return null;
  }
  if (quantity === undefined) return 1;
  if (quantity < 1)
    throw new AppError(
      SubscriptionErrors.E7727,
      `Price "${price.id}": quantity must be at least 1 (or delete the item).`,
    );
  return quantity;
}

/**
 * Checks a subscription's whole set of prices and answers its currency and recurrence: every price
 * active (E7711) and recurring (E7714), one currency (E7712, also against the customer's currency
 * when it has one), one interval and interval_count (E7713).
 */
export function checkItemSet(prices: PriceFacts[], customerCurrency: string | null): ItemSet {
  for (const price of prices) {
    if (!price.active) throw new AppError(SubscriptionErrors.E7711, `Price "${price.id}" is inactive.`);
    if (price.type !== 'recurring' || !price.recurring)
      throw new AppError(
        SubscriptionErrors.E7714,
        `Price "${price.id}" is one_time; subscriptions need recurring prices.`,
      );
  }
  const [first] = prices;
  const currency = first.currency;
  for (const price of prices) {
    if (price.currency !== currency)
      throw new AppError(
        SubscriptionErrors.E7712,
        `Price "${price.id}" is in ${price.currency}; the subscription's other prices are in ${currency}.`,
      );
  }
  if (customerCurrency && customerCurrency !== currency)
    throw new AppError(
      SubscriptionErrors.E7712,
      `The prices are in ${currency}; the customer's currency is ${customerCurrency}.`,
    );
  const recurrence = { interval: first.recurring!.interval, interval_count: first.recurring!.interval_count };
  for (const price of prices) {
    const r = price.recurring!;
    if (r.interval !== recurrence.interval || r.interval_count !== recurrence.interval_count)
      throw new AppError(
        SubscriptionErrors.E7713,
        `Price "${price.id}" recurs every ${r.interval_count} ${r.interval}; the others every ` +
          `${recurrence.interval_count} ${recurrence.interval}.`,
      );
  }
  return { currency, recurrence };
}
