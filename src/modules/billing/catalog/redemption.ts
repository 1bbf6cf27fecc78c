/** What a caller redeeming a coupon or promotion code says about the purchase it applies to. */
export interface RedemptionInput {
  /** The customer paying, if known (a first-time restriction needs firstTimeTransaction). */
  customerId?: string | null;
  /** The amount the discount applies to, in minor units of `currency` (before discount). */
  amount: number;
  currency: string;
  /** True when the customer has never paid before (the caller knows its charges); first_time_transaction codes need it. */
  firstTimeTransaction?: boolean;
}
