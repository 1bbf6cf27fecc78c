import type { Coupon } from '../catalog/coupons/entities/coupon.entity.js';
import type { Price } from '../catalog/prices/entities/price.entity.js';
import type { TaxRate } from '../catalog/tax-rates/entities/tax-rate.entity.js';
import type { Subscription } from './entities/subscription.entity.js';
import type { SubscriptionResponse } from './subscriptions.responses.js';

/** A subscription just created, with what its first invoice is priced from. */
export interface CreatedSubscription {
  stored: SubscriptionResponse;
  subscription: Subscription;
  /** Each item's price and quantity (null: metered, billed from usage). */
  lines: Array<{ price: Price; quantity: number | null }>;
  coupon: Coupon | null;
  taxRates: TaxRate[];
}
