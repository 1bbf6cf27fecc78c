import type { PaymentMethodType } from './collection.port.js';

/** Thailand's VAT (7 %), which Opn and Stripe charge on their fees there. */
export const THAI_VAT_BPS = 700;

/** The fee settings an adapter takes; each field defaults to its provider's published figure. */
export interface FeeRates {
  /** Basis points of the amount, per payment method. */
  feeBps?: Partial<Record<PaymentMethodType, number>>;
  /** VAT charged on the provider's fee, in basis points (default THAI_VAT_BPS). */
  feeVatBps?: number;
}

/**
 * A provider's fee for collecting `amount` (minor units) with `method`: its rate in basis points
 * (`published`, unless `rates` overrides it) plus VAT on that fee, rounded half up once on the
 * total, and at least one minor unit, because no provider collects for free.
 */
export function feeWithVat(
  method: PaymentMethodType,
  amount: number,
  published: Readonly<Record<PaymentMethodType, number>>,
  rates: FeeRates = {},
): number {
  const fee = (amount * (rates.feeBps?.[method] ?? published[method])) / 10_000;
  return Math.max(1, Math.round(fee + (fee * (rates.feeVatBps ?? THAI_VAT_BPS)) / 10_000));
}
