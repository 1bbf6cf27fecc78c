import type { PaymentMethodType } from '../../providers/ports/collection.port.js';

/**
 * Collection rules that do not depend on a provider: which currency each country collects, what
 * each payment method type (src/providers/ports/collection.port.ts) can collect, and how long
 * things stay valid.
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

/** What a target allows when the caller does not say: every type that can collect its currency. */
export function defaultPaymentMethodTypes(currency: string): PaymentMethodType[] {
  return currency === 'THB' ? ['card', 'promptpay'] : ['card'];
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
