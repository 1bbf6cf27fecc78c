import type Stripe from 'stripe';
import { paymentMethodInfo, providerTypeOf } from '../ports/payment-method-types.js';

/**
 * What the Stripe adapter adds to the registry's facts (src/providers/ports/payment-method-types.ts)
 * for the local methods it collects in Singapore and Malaysia: Stripe's published rate per method
 * (docs/PROVIDERS.md, "PayNow, FPX and GrabPay"). The registry has the flow, countries,
 * currencies, limits, refund rules and Stripe's literal.
 */
export const STRIPE_LOCAL_FEE_BPS = { paynow: 130, fpx: 250, grabpay: 330 } as const;

export type StripeLocalMethodType = keyof typeof STRIPE_LOCAL_FEE_BPS;

/** The local methods this adapter collects, in the registry's order. */
export const STRIPE_LOCAL_METHOD_TYPES = Object.keys(STRIPE_LOCAL_FEE_BPS) as StripeLocalMethodType[];

export function isStripeLocalMethod(type: string): type is StripeLocalMethodType {
  return Object.hasOwn(STRIPE_LOCAL_FEE_BPS, type);
}

/**
 * The banks FPX takes, as `payment_method_data[fpx][bank]` names them: the enum of API
 * `2026-10-28.endive` (stripe@23.1.0's `PaymentIntentCreateParams.PaymentMethodData.Fpx.Bank`,
 * with `bnp_paribas`, `citibank` and `mbsb_bank` added by the 2026-07-29 changelog).
 */
export const STRIPE_FPX_BANKS = [
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
  const literal = providerTypeOf(type, 'stripe') as Stripe.PaymentIntentCreateParams.PaymentMethodData.Type;
  const data: Stripe.PaymentIntentCreateParams.PaymentMethodData =
    literal === 'fpx'
      ? { type: 'fpx', fpx: { bank: bank as Stripe.PaymentIntentCreateParams.PaymentMethodData.Fpx.Bank } }
      : { type: literal };
  return {
    allowed_payment_method_types: [literal],
    payment_method_data: data,
    confirm: true,
    ...(paymentMethodInfo(type).flow === 'redirect' ? { return_url: returnUrl } : {}),
  };
}
