import { CollectionProviderError, type PaymentMethodType } from './collection.port.js';

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
  published: Readonly<Partial<Record<PaymentMethodType, number>>>,
  rates: FeeRates = {},
): number {
  const bps = rates.feeBps?.[method] ?? published[method];
  // Targets allow only the types the country's adapter collects (E7403), so this is a wiring bug.
  if (bps === undefined) throw new CollectionProviderError(`no published fee for payment method type "${method}"`);
  const fee = (amount * bps) / 10_000;
  return Math.max(1, Math.round(fee + (fee * (rates.feeVatBps ?? THAI_VAT_BPS)) / 10_000));
}
