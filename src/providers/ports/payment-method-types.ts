/**
 * The payment method type registry: every type the service collects with, as data, in one place
 * (docs/COLLECTION.md, "Payment method types"). `PAYMENT_METHOD_TYPES`, the `payment_method_types`
 * defaults, the country/currency/amount checks of targets and checkouts, the hosted page's flows
 * and refundability all read it. Adding a type is one entry here, plus its wiring in the adapters
 * that collect it (`CollectionProvider.paymentMethodTypes`).
 *
 * Amounts are minor units of the currency they are listed under. Facts come from the providers'
 * published references (Opn: docs.opn.ooo `truemoney-jumpapp`, `mobile-banking-*`,
 * `installment-payments`; Stripe: the PaymentIntent `payment_method_types` reference).
 */

/** How the buyer pays: a QR code shown on the page, a redirect (or app deep link) away and back, or card entry. */
export type PaymentFlow = 'qr' | 'redirect' | 'card';

/** A name shown to the buyer, in the hosted page's two languages. */
export interface LocalizedName {
  en: string;
  th: string;
}

/** An app or bank the buyer can pay with (shown on the hosted page); `id` is the provider's code where it has one. */
export interface PaymentApp {
  id: string;
  name: string;
}

/** The smallest and largest amount one charge of the type may have, in minor units of the currency. */
export interface AmountLimits {
  min: number;
  max: number;
}

/** What can be refunded of a charge of the type, as its provider allows. */
export interface RefundRules {
  refundable: boolean;
  /** Less than the whole charge, possibly several times. */
  partial: boolean;
  /** Days after the charge during which a refund is accepted (null: no limit of the method's own). */
  windowDays: number | null;
}

/** Card installments by one issuer: its terms (months) and the smallest monthly amount per currency. */
export interface InstallmentPlan {
  issuer: string;
  terms: readonly number[];
  /** The smallest amount per month, per currency (minor units): `amount / term` must reach it. */
  minMonthly: Readonly<Record<string, number>>;
}

export interface PaymentMethodTypeInfo {
  name: LocalizedName;
  flow: PaymentFlow;
  /** Countries (ISO 3166-1 alpha-2) where it can be collected; null: any. */
  countries: readonly string[] | null;
  /** Currencies (ISO 4217) it collects; null: any. */
  currencies: readonly string[] | null;
  /** Per currency; a currency without an entry has only the service's own limits. */
  limits: Readonly<Record<string, AmountLimits>>;
  refund: RefundRules;
  /** How long a pending charge waits for the buyer before it fails (ms); null: it does not wait (card). */
  expiresAfterMs: number | null;
  /** The provider's own type literal, per provider that collects it (Opn source type, Stripe payment method type). */
  providerTypes: Readonly<Partial<Record<'opn' | 'stripe', string>>>;
  /** The apps or banks the buyer pays with (the page lists them). */
  apps: readonly PaymentApp[];
  /** Redirect flows: on a phone the redirect opens the app itself (a deep link the provider returns). */
  appDeepLink: boolean;
  /**
   * In a target's `payment_method_types` when the caller does not choose (and the currency, country,
   * amount and provider allow it). Installments are opt-in: the merchant chooses who pays interest.
   */
  default: boolean;
  /**
   * Groups types on the hosted page by how the payer approves: on a bank's web site (online
   * banking), in a mobile banking app, by card installments; null: a wallet or app of its own.
   */
  group: 'online_banking' | 'mobile_banking' | 'installment' | null;
  installment: InstallmentPlan | null;
}

const MINUTE = 60_000;
const THB = (min: number, max: number) => ({ THB: { min, max } });
const noRefund: RefundRules = { refundable: false, partial: false, windowDays: null };

/** Opn mobile banking: one app per bank, an off-site payment authorized in the bank's app. */
function mobileBanking(bank: string, app: string, th: string): PaymentMethodTypeInfo {
  return {
    name: { en: app, th },
    flow: 'redirect',
    countries: ['TH'],
    currencies: ['THB'],
    limits: THB(2_000, 15_000_000),
    // No Opn reference states whether a mobile banking charge can be refunded: its pages
    // (docs.omise.co/mobile-banking-kbank, -scb, …) have no refund section and its refund page
    // (docs.omise.co/refunding-charges) lists general rules only. Opn's own WooCommerce plugin
    // offers refunds for TrueMoney (`supports = array('products', 'refunds')`) but not for its Mobile
    // Banking gateway (omise/omise-woocommerce includes/gateway/class-omise-payment-mobilebanking.php),
    // so not refundable through the API, until Opn says otherwise (docs/PROVIDERS.md, "Mobile banking refunds").
    refund: noRefund,
    expiresAfterMs: 15 * MINUTE,
    providerTypes: { opn: `mobile_banking_${bank}` },
    apps: [{ id: bank, name: app }],
    appDeepLink: true,
    default: true,
    group: 'mobile_banking',
    installment: null,
  };
}

/** Opn card installments by issuer (the redirect integration): terms and monthly minimums as Opn publishes them. */
function installment(
  issuer: string,
  bank: string,
  th: string,
  terms: number[],
  minMonthlyThb: number,
): PaymentMethodTypeInfo {
  return {
    name: { en: `${bank} installments`, th: `ผ่อนชำระ ${th}` },
    flow: 'redirect',
    countries: ['TH'],
    currencies: ['THB'],
    limits: THB(minMonthlyThb * 100 * Math.min(...terms), 99_999_999_999),
    refund: { refundable: true, partial: true, windowDays: 365 },
    expiresAfterMs: 15 * MINUTE,
    providerTypes: { opn: `installment_${issuer}` },
    apps: [{ id: issuer, name: bank }],
    appDeepLink: false,
    default: false,
    group: 'installment',
    installment: { issuer, terms, minMonthly: { THB: minMonthlyThb * 100 } },
  };
}

/** Stripe's FPX banks (`payment_method_data[fpx][bank]`). */
export const FPX_BANKS: readonly PaymentApp[] = [
  { id: 'affin_bank', name: 'Affin Bank' },
  { id: 'agrobank', name: 'AGRONet' },
  { id: 'alliance_bank', name: 'Alliance Bank' },
  { id: 'ambank', name: 'AmBank' },
  { id: 'bank_islam', name: 'Bank Islam' },
  { id: 'bank_muamalat', name: 'Bank Muamalat' },
  { id: 'bank_of_china', name: 'Bank of China' },
  { id: 'bank_rakyat', name: 'Bank Rakyat' },
  { id: 'bsn', name: 'BSN' },
  { id: 'cimb', name: 'CIMB Clicks' },
  { id: 'hong_leong_bank', name: 'Hong Leong Bank' },
  { id: 'hsbc', name: 'HSBC Bank' },
  { id: 'kfh', name: 'KFH' },
  { id: 'maybank2u', name: 'Maybank2U' },
  { id: 'ocbc', name: 'OCBC Bank' },
  { id: 'public_bank', name: 'Public Bank' },
  { id: 'rhb', name: 'RHB Bank' },
  { id: 'standard_chartered', name: 'Standard Chartered' },
  { id: 'uob', name: 'UOB Bank' },
];

/**
 * Every payment method type. The key is the service's own type, sent in `payment_method_types` and
 * `payment_method_type`; the provider's literal is derived from it (`providerTypes`).
 */
export const PAYMENT_METHOD_REGISTRY = {
  card: {
    name: { en: 'Card', th: 'บัตรเครดิต/เดบิต' },
    flow: 'card',
    countries: null,
    currencies: null,
    limits: {},
    refund: { refundable: true, partial: true, windowDays: 365 },
    expiresAfterMs: null,
    providerTypes: { opn: 'card', stripe: 'card' },
    apps: [],
    appDeepLink: false,
    default: true,
    group: null,
    installment: null,
  },
  promptpay: {
    name: { en: 'PromptPay', th: 'พร้อมเพย์' },
    flow: 'qr',
    countries: ['TH'],
    currencies: ['THB'],
    limits: THB(2_000, 15_000_000),
    refund: { refundable: true, partial: true, windowDays: 365 },
    expiresAfterMs: 15 * MINUTE,
    providerTypes: { opn: 'promptpay', stripe: 'promptpay' },
    apps: [],
    appDeepLink: false,
    default: true,
    group: null,
    installment: null,
  },
  truemoney: {
    name: { en: 'TrueMoney', th: 'ทรูมันนี่' },
    flow: 'redirect',
    countries: ['TH'],
    currencies: ['THB'],
    limits: THB(2_000, 5_000_000),
    refund: { refundable: true, partial: true, windowDays: 30 },
    expiresAfterMs: 15 * MINUTE,
    // App redirection (`truemoney_jumpapp`), not the legacy `truemoney` (phone number + OTP on Opn's page).
    providerTypes: { opn: 'truemoney_jumpapp' },
    apps: [{ id: 'truemoney', name: 'TrueMoney Wallet' }],
    appDeepLink: true,
    default: true,
    group: null,
    installment: null,
  },
  mobile_banking_kbank: mobileBanking('kbank', 'K PLUS', 'เค พลัส (กสิกรไทย)'),
  mobile_banking_scb: mobileBanking('scb', 'SCB Easy', 'SCB Easy (ไทยพาณิชย์)'),
  mobile_banking_bay: mobileBanking('bay', 'Krungsri KMA', 'KMA (กรุงศรี)'),
  mobile_banking_bbl: mobileBanking('bbl', 'Bangkok Bank Mobile Banking', 'บัวหลวง เอ็มแบงกิ้ง (กรุงเทพ)'),
  mobile_banking_ktb: mobileBanking('ktb', 'Krungthai NEXT', 'เป๋าตัง/กรุงไทย NEXT'),
  installment_bay: installment('bay', 'Krungsri', 'กรุงศรี', [3, 4, 6, 9, 10], 500),
  installment_bbl: installment('bbl', 'Bangkok Bank', 'ธนาคารกรุงเทพ', [4, 6, 8, 9, 10], 500),
  installment_first_choice: installment(
    'first_choice',
    'Krungsri First Choice',
    'กรุงศรี เฟิร์สช้อยส์',
    [3, 4, 6, 9, 10, 12, 18, 24, 36],
    300,
  ),
  installment_kbank: installment('kbank', 'Kasikorn Bank', 'กสิกรไทย', [3, 4, 6, 10], 300),
  installment_ktc: installment('ktc', 'KTC', 'เคทีซี', [3, 4, 5, 6, 7, 8, 9, 10], 300),
  installment_scb: installment('scb', 'SCB', 'ไทยพาณิชย์', [3, 4, 6, 9, 10], 500),
  installment_ttb: installment('ttb', 'ttb', 'ทีทีบี', [3, 4, 6, 10], 500),
  installment_uob: installment('uob', 'UOB', 'ยูโอบี', [3, 4, 6, 10], 500),
  paynow: {
    name: { en: 'PayNow', th: 'เพย์นาว' },
    flow: 'qr',
    countries: ['SG'],
    currencies: ['SGD'],
    // Stripe's PayNow FAQ (support.stripe.com/questions/paynow-faq): SGD 0.50 to 200,000.00;
    // refunds in full or in part up to 90 days after the payment (docs.stripe.com/payments/paynow#refunds).
    limits: { SGD: { min: 50, max: 20_000_000 } },
    refund: { refundable: true, partial: true, windowDays: 90 },
    expiresAfterMs: 60 * MINUTE,
    providerTypes: { stripe: 'paynow' },
    apps: [],
    appDeepLink: false,
    default: true,
    group: null,
    installment: null,
  },
  fpx: {
    name: { en: 'FPX online banking', th: 'FPX (ธนาคารออนไลน์มาเลเซีย)' },
    flow: 'redirect',
    countries: ['MY'],
    currencies: ['MYR'],
    limits: { MYR: { min: 200, max: 3_000_000 } },
    refund: { refundable: true, partial: true, windowDays: 60 },
    expiresAfterMs: 15 * MINUTE,
    providerTypes: { stripe: 'fpx' },
    apps: FPX_BANKS,
    appDeepLink: false,
    default: true,
    // A bank redirect: the payer approves on the chosen bank's site, not in an app.
    group: 'online_banking',
    installment: null,
  },
  grabpay: {
    name: { en: 'GrabPay', th: 'แกร็บเพย์' },
    flow: 'redirect',
    // Stripe takes GrabPay in SGD from businesses in Singapore and in MYR from businesses in Malaysia
    // (docs.stripe.com/payments/grabpay/accept-a-payment, "Determine compatibility").
    countries: ['SG', 'MY'],
    currencies: ['SGD', 'MYR'],
    // Stripe's smallest charges are S$0.50 and RM 2.00 (docs.stripe.com/currencies#minimum-and-maximum-charge-amounts);
    // the largest are the GrabPay wallet's own: S$5,000 (a verified wallet) and RM 1,500. Refunds in full or in
    // part up to 90 days after the payment (docs.stripe.com/payments/grabpay#refunds).
    limits: { SGD: { min: 50, max: 500_000 }, MYR: { min: 200, max: 150_000 } },
    refund: { refundable: true, partial: true, windowDays: 90 },
    expiresAfterMs: 15 * MINUTE,
    providerTypes: { stripe: 'grabpay' },
    apps: [{ id: 'grabpay', name: 'GrabPay' }],
    appDeepLink: true,
    default: true,
    group: null,
    installment: null,
  },
} as const satisfies Record<string, PaymentMethodTypeInfo>;

export type PaymentMethodType = keyof typeof PAYMENT_METHOD_REGISTRY;

/** Every type, in the registry's order (the order the hosted page offers them in). */
export const PAYMENT_METHOD_TYPES = Object.keys(PAYMENT_METHOD_REGISTRY) as readonly PaymentMethodType[] as [
  PaymentMethodType,
  ...PaymentMethodType[],
];

export function isPaymentMethodType(value: string): value is PaymentMethodType {
  return Object.prototype.hasOwnProperty.call(PAYMENT_METHOD_REGISTRY, value);
}

export function paymentMethodInfo(type: PaymentMethodType): PaymentMethodTypeInfo {
  return PAYMENT_METHOD_REGISTRY[type];
}

/** Why a type cannot collect a payment: the first rule it breaks, or null when it can. */
export type PaymentMethodRefusal =
  | { reason: 'country'; allowed: readonly string[] }
  | { reason: 'currency'; allowed: readonly string[] }
  | { reason: 'amount'; limits: AmountLimits }
  | { reason: 'provider'; provider: string };

/** What a payment is: its country, currency, amount, and the provider that would collect it. */
export interface PaymentShape {
  country: string;
  currency: string;
  /** Minor units; null while it is not known yet (a draft invoice's lines may still change): no amount limit applies. */
  amount: number | null;
  /** The provider serving the country in this mode, and the types it collects. */
  provider?: { name: string; paymentMethodTypes: readonly PaymentMethodType[] };
}

/** Whether `type` can collect `payment`: the country, then the currency, the amount, the provider. */
export function refusalOf(type: PaymentMethodType, payment: PaymentShape): PaymentMethodRefusal | null {
  const info = paymentMethodInfo(type);
  if (info.countries && !info.countries.includes(payment.country))
    return { reason: 'country', allowed: info.countries };
  if (info.currencies && !info.currencies.includes(payment.currency)) {
    return { reason: 'currency', allowed: info.currencies };
  }
  const limits = info.limits[payment.currency];
  const { amount } = payment;
  if (limits && amount !== null && (amount < limits.min || amount > limits.max)) return { reason: 'amount', limits };
  if (payment.provider && !payment.provider.paymentMethodTypes.includes(type)) {
    return { reason: 'provider', provider: payment.provider.name };
  }
  return null;
}

/**
 * What a target allows when the caller does not say: every `default` type that can collect the
 * payment (country, currency, amount, and the provider serving the country).
 */
export function defaultPaymentMethodTypes(payment: PaymentShape): PaymentMethodType[] {
  return PAYMENT_METHOD_TYPES.filter((t) => paymentMethodInfo(t).default && refusalOf(t, payment) === null);
}

/** The types a currency can be collected with in a country, whatever the amount or provider (docs, SDKs). */
export function paymentMethodTypesFor(country: string, currency: string): PaymentMethodType[] {
  return PAYMENT_METHOD_TYPES.filter((t) => {
    const refusal = refusalOf(t, { country, currency, amount: paymentMethodInfo(t).limits[currency]?.min ?? 1 });
    return refusal === null;
  });
}

/** The provider's own literal for `type` (Opn source type, Stripe payment method type), or null if it has none. */
export function providerTypeOf(type: PaymentMethodType, provider: 'opn' | 'stripe'): string | null {
  const types: Partial<Record<'opn' | 'stripe', string>> = paymentMethodInfo(type).providerTypes;
  return types[provider] ?? null;
}

/** The types a provider has a literal for (what its adapter can be wired to collect). */
export function typesWithProviderLiteral(provider: 'opn' | 'stripe'): PaymentMethodType[] {
  return PAYMENT_METHOD_TYPES.filter((t) => providerTypeOf(t, provider) !== null);
}

/** The type a charge was made with: its recorded type, or for a charge older than that column, PromptPay when it has a QR code, else card. */
export function chargeMethodType(charge: {
  payment_method_type?: string | null;
  promptpay?: unknown;
}): PaymentMethodType {
  const recorded = charge.payment_method_type;
  if (recorded && isPaymentMethodType(recorded)) return recorded;
  return charge.promptpay ? 'promptpay' : 'card';
}
