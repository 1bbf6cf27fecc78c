import type Stripe from 'stripe';

/**
 * Stripe's local payment methods of Singapore and Malaysia, as its references publish them
 * (docs/PROVIDERS.md, "Stripe: PayNow, FPX and GrabPay"):
 *
 * - PayNow (https://docs.stripe.com/payments/paynow): SGD, a QR code the payer scans
 *   (`next_action.paynow_display_qr_code`), refundable in full or in part for 90 days, 1.3 %.
 * - FPX (https://docs.stripe.com/payments/fpx): MYR, a redirect to the payer's bank chosen with
 *   `payment_method_data[fpx][bank]` (`next_action.redirect_to_url`), refundable for 60 days.
 * - GrabPay (https://docs.stripe.com/payments/grabpay): SGD or MYR, a redirect to GrabPay
 *   (`next_action.redirect_to_url`), refundable for 90 days.
 *
 * Refunds of all three are asynchronous at Stripe (pending, then `refund.updated`).
 */
export interface StripeLocalMethod {
  /** How the payer pays: scans a QR code, or is sent to the bank's or wallet's page and back. */
  flow: 'qr' | 'redirect';
  /** Days after the payment during which Stripe takes a refund. */
  refundWindowDays: number;
  /** Stripe's published rate in basis points. */
  feeBps: number;
}

export const STRIPE_LOCAL_METHODS = {
  paynow: { flow: 'qr', refundWindowDays: 90, feeBps: 130 },
  fpx: { flow: 'redirect', refundWindowDays: 60, feeBps: 250 },
  grabpay: { flow: 'redirect', refundWindowDays: 90, feeBps: 330 },
} as const satisfies Record<string, StripeLocalMethod>;

export type StripeLocalMethodType = keyof typeof STRIPE_LOCAL_METHODS;

export function isStripeLocalMethod(type: string): type is StripeLocalMethodType {
  return Object.hasOwn(STRIPE_LOCAL_METHODS, type);
}

/**
 * The banks FPX takes, as `payment_method_data[fpx][bank]` names them: the enum of API
 * `2026-10-28.endive` (stripe@23.1.0's `PaymentIntentCreateParams.PaymentMethodData.Fpx.Bank`,
 * with `bnp_paribas`, `citibank` and `mbsb_bank` added by the 2026-07-29 changelog).
 */
export const FPX_BANKS = [
  'affin_bank',
  'agrobank',
  'alliance_bank',
  'ambank',
  'bank_islam',
  'bank_muamalat',
  'bank_of_china',
  'bank_rakyat',
  'bnp_paribas',
  'bsn',
  'cimb',
  'citibank',
  'deutsche_bank',
  'hong_leong_bank',
  'hsbc',
  'kfh',
  'maybank2e',
  'maybank2u',
  'mbsb_bank',
  'ocbc',
  'pb_enterprise',
  'public_bank',
  'rhb',
  'standard_chartered',
  'uob',
] as const;

/** Tax Stripe adds on its fee per currency, in basis points: Singapore's GST (9 %), Malaysia's SST (8 %). */
export const LOCAL_FEE_TAX_BPS: Readonly<Record<string, number>> = { SGD: 900, MYR: 800 };

/** A local-method payment to create: which method, the FPX bank, and where the payer comes back. */
export interface LocalIntentInput {
  type: StripeLocalMethodType;
  /** FPX only: one of FPX_BANKS. */
  bank: string | null;
  /** Redirect methods: `return_url`, the service's `/provider_returns/stripe/{charge id}`. */
  returnUrl: string;
}

/**
 * The PaymentIntent parameters that make and confirm a local-method payment at once:
 * `allowed_payment_method_types` (API 2026-10-28.endive's name for `payment_method_types`), the
 * PaymentMethod made inline (`payment_method_data`), `confirm: true`, and `return_url` for the
 * redirect methods (Stripe refuses to confirm them without it).
 */
export function localIntentParams(input: LocalIntentInput): Partial<Stripe.PaymentIntentCreateParams> {
  const { type, bank, returnUrl } = input;
  const data: Stripe.PaymentIntentCreateParams.PaymentMethodData =
    type === 'fpx'
      ? { type: 'fpx', fpx: { bank: bank as Stripe.PaymentIntentCreateParams.PaymentMethodData.Fpx.Bank } }
      : { type };
  return {
    allowed_payment_method_types: [type],
    payment_method_data: data,
    confirm: true,
    ...(STRIPE_LOCAL_METHODS[type].flow === 'redirect' ? { return_url: returnUrl } : {}),
  };
}
