import { AppError } from '../../common/errors/app-error.js';
import {
  defaultPaymentMethodTypes,
  refusalOf,
  type PaymentMethodType,
  type PaymentShape,
} from '../../providers/ports/payment-method-types.js';
import { CheckoutErrors } from './checkout.errors.js';

/**
 * Collection rules that do not depend on a provider: which currency each country collects, what
 * each payment method type (the registry, src/providers/ports/payment-method-types.ts) can
 * collect, and how long things stay valid.
 */

/** The currency a country collects in (ISO 3166-1 alpha-2 -> ISO 4217). Unlisted countries collect any currency. */
export const COUNTRY_CURRENCY: Readonly<Record<string, string>> = {
  TH: 'THB',
  SG: 'SGD',
  MY: 'MYR',
  ID: 'IDR',
  PH: 'PHP',
  VN: 'VND',
  LA: 'LAK',
  KH: 'KHR',
  MM: 'MMK',
  JP: 'JPY',
  KR: 'KRW',
  CN: 'CNY',
  HK: 'HKD',
  TW: 'TWD',
  IN: 'INR',
  AU: 'AUD',
  NZ: 'NZD',
  US: 'USD',
  CA: 'CAD',
  GB: 'GBP',
  CH: 'CHF',
  SE: 'SEK',
  NO: 'NOK',
  DK: 'DKK',
  DE: 'EUR',
  FR: 'EUR',
  IT: 'EUR',
  ES: 'EUR',
  NL: 'EUR',
  BE: 'EUR',
  AT: 'EUR',
  IE: 'EUR',
  PT: 'EUR',
  FI: 'EUR',
  AE: 'AED',
};

export function currencyAllowedIn(country: string, currency: string): boolean {
  const allowed = COUNTRY_CURRENCY[country];
  return allowed === undefined || allowed === currency;
}

/**
 * The payment method types of a target or checkout: the caller's (each checked against the
 * registry, first refusal wins) or, when it sends none, the registry's defaults for the payment.
 * E7017 (PromptPay's currency) predates the registry and stays for PromptPay; every other refusal
 * is E7400 (country), E7401 (currency), E7402 (amount) or E7403 (the country's provider).
 */
export function checkedPaymentMethodTypes(
  requested: readonly PaymentMethodType[] | undefined,
  payment: PaymentShape,
): PaymentMethodType[] {
  if (requested === undefined) return defaultPaymentMethodTypes(payment);
  for (const type of requested) assertCollectable(type, payment);
  return [...requested];
}

/**
 * Of a target's types, those that can collect `payment` as it is now (its amount due): what a
 * finalized invoice keeps, and what a checkout of a target offers when the caller does not narrow.
 */
export function typesCollecting(types: readonly PaymentMethodType[], payment: PaymentShape): PaymentMethodType[] {
  return types.filter((t) => refusalOf(t, payment) === null);
}

/** Refuses a type that cannot collect the payment, with the precise code. */
export function assertCollectable(type: PaymentMethodType, payment: PaymentShape): void {
  const refusal = refusalOf(type, payment);
  if (!refusal) return;
  const on = (error: AppError) => error.on('payment_method_types');
  switch (refusal.reason) {
    case 'country':
      throw on(
        new AppError(
          CheckoutErrors.E7400,
          `payment_method_types includes ${type}, which collects in ${refusal.allowed.join(', ')} only; the country is ${payment.country}.`,
        ),
      );
    case 'currency':
      if (type === 'promptpay') {
        throw on(
          new AppError(
            CheckoutErrors.E7017,
            `payment_method_types includes promptpay, the currency is ${payment.currency}.`,
          ),
        );
      }
      throw on(
        new AppError(
          CheckoutErrors.E7401,
          `payment_method_types includes ${type}, which collects ${refusal.allowed.join(', ')} only; the currency is ${payment.currency}.`,
        ),
      );
    case 'amount':
      throw on(
        new AppError(
          CheckoutErrors.E7402,
          `payment_method_types includes ${type}, which collects ${refusal.limits.min} to ${refusal.limits.max} ${payment.currency} (minor units); the amount is ${payment.amount}.`,
        ),
      );
    case 'provider':
      throw on(
        new AppError(
          CheckoutErrors.E7403,
          `payment_method_types includes ${type}, which the provider "${refusal.provider}" serving ${payment.country} does not collect.`,
        ),
      );
  }
}

/** A checkout can be paid for 24 hours. */
export const CHECKOUT_LIFETIME_MS = 24 * 3600 * 1000;
/**
 * The checkout's one-time session outlives the checkout by an hour, so that paying a just-expired
 * checkout is answered with the precise E7005 rather than an anonymous E1212.
 */
export const CHECKOUT_SESSION_TTL_SECONDS = 25 * 3600;
/** A PromptPay QR code can be paid for 15 minutes; a new one can be made on the page. */
export const PROMPTPAY_QR_LIFETIME_MS = 15 * 60 * 1000;

/**
 * How long a manual-capture authorization is held before the expiry job voids it: 7 days, the card
 * networks' usual window (Opn's and Stripe's for online card payments), on the service clock.
 */
export const AUTHORIZATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** Largest amount accepted anywhere in collection (minor units): far below 2^53. */
export const MAX_AMOUNT = 99_999_999_999;
