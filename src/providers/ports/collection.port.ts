import type { PaymentMethodType } from './payment-method-types.js';

/** The payment method types (derived from the registry in payment-method-types.ts). */
export { PAYMENT_METHOD_TYPES, type PaymentMethodType } from './payment-method-types.js';

/** A PromptPay QR code as a provider made it (stored on the charge as it is). */
export interface PromptPayDetails {
  raw: string;
  image: string;
  ref1: string | null;
  ref2: string | null;
  ref3: string | null;
  expires_at: string | null;
}

/** Card details as a browser form reads them. Only the test-mode vault ever sees them; no provider port takes them. */
export interface CardDetails {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
  name?: string | null;
}

export interface CardFacts {
  brand: string;
  last4: string;
  issuer: string | null;
  fingerprint: string;
}

/** The outcome a sandbox test card number selects (docs/COLLECTION.md), kept on its vault token. */
export type SandboxOutcome =
  | 'succeeds'
  | 'generic_decline'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'processing_error'
  | 'disputed'
  | 'authentication_required';

/** What the test-mode vault kept of a tokenized card: never the number or the CVC. */
export interface VaultCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  name: string | null;
  sandbox_outcome: SandboxOutcome;
}

/** A card saved to a customer at the provider (docs/COLLECTION.md, "Saved payment methods"). */
export interface SavedCard {
  /** The provider's card (Opn `card_…`, Stripe `pm_…`; the sandbox's `card_sbx_…`). */
  reference: string;
  /** The provider's customer holding it (Opn `cust_…`, Stripe `cus_…`). */
  customer: string | null;
  /** Test mode: what the saved test card's number selected. */
  sandbox_outcome: SandboxOutcome | null;
}

/** What a provider tells of a card it saved to one of its customers (never the number). */
export interface ProviderSavedCard {
  reference: string;
  customer: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  name: string | null;
  funding: string | null;
}

/** Who a card is saved for: the customer, its setup checkout, and its provider customer if any. */
export interface SetupIntentRequest {
  applicationId: string;
  /** This service's customer, and the setup checkout saving the card (the idempotency key). */
  customerId: string;
  checkoutId: string;
  email: string | null;
  /** The provider's customer already holding this customer's cards, if any. */
  providerCustomer: string | null;
}

/**
 * A card to save: the browser's provider token (Omise.js `tokn_…`; for Stripe the SetupIntent
 * `seti_…` the Payment Element confirmed), and who it is for.
 */
export interface SaveCardRequest extends SetupIntentRequest {
  token: string;
}

export interface ProviderFailure {
  /** Stripe-style `failure_code`, e.g. `card_declined`. */
  code: string;
  /** The finer reason, e.g. `generic_decline`, `insufficient_funds`. */
  reason: string;
  message: string;
}

/**
 * The provider's answer to a payment attempt. `authorized`: a manual-capture card payment
 * (`PaymentRequest.captureMethod: 'manual'`) whose amount is held at the provider, to be captured
 * (`captureAuthorization`) or voided (`voidAuthorization`).
 */
export interface ProviderPayment {
  status: 'succeeded' | 'failed' | 'pending' | 'authorized';
  /** The provider's own reference of the charge. */
  reference: string;
  failure?: ProviderFailure;
  promptpay?: PromptPayDetails;
  /**
   * A redirect flow's page (TrueMoney, a mobile banking app, an installment issuer): where the buyer
   * goes to pay; on a phone a deep link that opens the app. The provider sends them back to the return route.
   */
  redirectUrl?: string;
  /** A QR flow other than PromptPay (PayNow): the code to show, as text and as a PNG data URL or image URL. */
  qr?: { raw: string; image: string };
  /** Sandbox only: the cardholder will dispute this payment right after it succeeds. */
  disputeAfterSuccess?: boolean;
}

export interface PaymentRequest {
  applicationId: string;
  chargeId: string;
  amount: number;
  currency: string;
  scalingFactor: number;
  livemode: boolean;
  /** `manual`: authorize the card only (cards only; docs/COLLECTION.md, "Manual capture"). Default `automatic`. */
  captureMethod?: 'automatic' | 'manual';
  /**
   * A destination charge (the target's `transfer_data.destination`): the connected account, its
   * account at this provider (Stripe Connect `acct_…`; null when the provider keeps none for it)
   * and the application's fee. Providers without Connect settle it in the service's books only.
   */
  destination?: { account: string; providerAccount: string | null; applicationFeeAmount: number };
}

/** The buyer's device as the hosted page reports it: a phone gets the app's deep link. */
export type BuyerPlatform = 'ios' | 'android' | null;

/**
 * A payment of a non-card type (registry flow `qr` or `redirect`, PromptPay aside): pending at the
 * provider until the buyer pays in the app, bank or wallet it names.
 */
export interface SourcePaymentRequest {
  type: PaymentMethodType;
  /** The charge fails at the provider if unpaid by then (the registry's `expiresAfterMs`). */
  expiresAt: Date;
  platform: BuyerPlatform;
  /** Installment types: the term (months) chosen, and whether the merchant absorbs the interest. */
  installment?: { term: number; zeroInterest: boolean };
  /** The bank the payer picked, for a type whose registry entry lists several (FPX); null otherwise. */
  bank?: string | null;
}

/** An authorization a provider holds: captured in part or in full, or voided. */
export interface AuthorizationRequest {
  applicationId: string;
  /** The service's charge id: the idempotency key of the capture or void at the provider. */
  chargeId: string;
  /** The provider's own reference of the authorized charge (`charges.reference_id`). */
  chargeReference: string;
  /** The authorized amount (minor units). */
  amount: number;
  currency: string;
  livemode: boolean;
}

export interface CaptureRequest extends AuthorizationRequest {
  /** At most `amount`; the rest of the authorization is released by the capture. */
  amountToCapture: number;
}

/**
 * The provider's answer to a capture or a void: `captured` (`amountCaptured`, the rest released),
 * `voided` (nothing captured, all released), or `failed` (nothing changed at the provider that can
 * be captured: the authorization expired or was already voided there).
 */
export interface ProviderAuthorizationResult {
  status: 'captured' | 'voided' | 'failed';
  reference: string;
  amountCaptured: number;
  amountReleased: number;
  failure?: ProviderFailure;
}

/**
 * An authorization as its provider holds it now (a read-back): still `authorized` (nothing
 * captured or voided), or how it ended.
 */
export type ProviderAuthorizationState =
  ProviderAuthorizationResult | { status: 'authorized'; reference: string; amountCaptured: 0; amountReleased: 0 };

/** A refund of (part of) a charge, sent to the provider that made the charge. */
export interface RefundRequest {
  applicationId: string;
  /** The service's refund id: also the idempotency key at the provider, so a retry never refunds twice. */
  refundId: string;
  /** The provider's own reference of the charge (`charges.reference_id`). */
  chargeReference: string;
  method: PaymentMethodType;
  /** Minor units; at most what is left of the charge (the refunds service checks before calling). */
  amount: number;
  currency: string;
  scalingFactor: number;
  livemode: boolean;
}

/** The provider's answer to a refund: card refunds usually succeed at once, PromptPay ones settle later. */
export interface ProviderRefund {
  status: 'succeeded' | 'pending' | 'failed';
  /** The provider's own reference of the refund. */
  reference: string;
  failure?: ProviderFailure;
}

/**
 * The collection provider port. A provider charges cards, makes PromptPay QR codes and says what
 * it charges for a payment. Amounts are integers in minor units.
 */
export interface CollectionProvider {
  readonly name: string;
  /** A sandbox: serves test mode only, and charges this service's vault tokens (`tok_…`). */
  readonly testOnly?: boolean;
  /**
   * The payment method types this adapter is wired to collect (a subset of the registry's); targets
   * in a country it serves may allow only these (E7403).
   */
  readonly paymentMethodTypes: readonly PaymentMethodType[];
  /** The provider's fee for collecting `amount` with `method` (minor units, currency of the payment). */
  fee(method: PaymentMethodType, amount: number, currency: string): number;
  /**
   * Charges a card by its token, never by card details: the provider's own token in live mode
   * (Omise.js `tokn_…`, a Stripe `pi_…`/`pm_…`), a `tok_…` of this service's test-mode vault for a
   * test-only provider (the sandbox), which then also gets what the vault kept (`vaultCard`).
   */
  chargeCard(request: PaymentRequest, token: string, vaultCard?: VaultCard): Promise<ProviderPayment>;
  createPromptPay(request: PaymentRequest, expiresAt: Date): Promise<ProviderPayment>;
  /**
   * A payment of any other non-card type it lists in `paymentMethodTypes`: `pending` with
   * `redirectUrl` (redirect flows) or `qr` (QR flows); its outcome arrives as PromptPay's does
   * (webhook, `confirmPromptPay`'s read, the reconciliation job). Keyed by the charge id.
   */
  createSourcePayment?(request: PaymentRequest, source: SourcePaymentRequest): Promise<ProviderPayment>;
  /**
   * Test mode only: the buyer pays (`succeeded`) or the payment fails (`failed`) at the provider,
   * as the provider's own test mode lets a merchant do (Opn `mark_as_paid` / `mark_as_failed`; the
   * sandbox in process). The outcome is then read back like any other (`confirmPromptPay`).
   */
  simulate?(reference: string, outcome: 'succeeded' | 'failed'): Promise<void>;
  /**
   * The payment this provider made for OUR charge id (`PaymentRequest.chargeId`, sent as metadata
   * and in the idempotency key), or null when it made none: how a charge whose call's answer was
   * lost is read back (docs/PROVIDERS.md). `createdAt` is when the charge was recorded, just before
   * the call: providers that list by time look around it.
   */
  paymentByChargeId(chargeId: string, createdAt: Date): Promise<ProviderPayment | null>;
  /**
   * Charges a saved card. Off-session (`offSession`), a card that needs 3-D Secure answers `failed`
   * with failure code `authentication_required` (the customer is not there to authenticate);
   * on-session (the customer back on the hosted page) it is authenticated there. Providers without
   * saved cards leave it out.
   */
  chargeSavedCard?(request: PaymentRequest, card: SavedCard, offSession: boolean): Promise<ProviderPayment>;
  /**
   * Saves a browser-made card token to a provider customer (made when `providerCustomer` is null);
   * a card the provider refuses is `{failure}`, not an exception.
   */
  saveCard?(request: SaveCardRequest): Promise<ProviderSavedCard | { failure: ProviderFailure }>;
  /** Removes a saved card from its provider customer (idempotent: an already removed card is fine). */
  detachSavedCard?(card: SavedCard): Promise<void>;
  /**
   * A pending charge's state now, by the provider's reference: PromptPay, 3-D Secure and every
   * `createSourcePayment` charge (the name predates the other flows).
   */
  confirmPromptPay(reference: string): Promise<ProviderPayment>;
  /**
   * Captures `amountToCapture` of an authorization it holds, releasing the rest, at most once per
   * charge (keyed by the charge id: a resend answers the same capture). Throws
   * CollectionProviderError when it cannot be reached.
   */
  captureAuthorization(request: CaptureRequest): Promise<ProviderAuthorizationResult>;
  /** Voids (reverses) an authorization it holds, releasing all of it; an already voided one is `voided`. */
  voidAuthorization(request: AuthorizationRequest): Promise<ProviderAuthorizationResult>;
  /**
   * Reads an authorization back without changing it: how a capture or void claim whose process
   * died is finished. Throws CollectionProviderError when it cannot be reached.
   */
  readAuthorization(request: AuthorizationRequest): Promise<ProviderAuthorizationState>;
  /** Refunds `amount` of a charge it made. Throws CollectionProviderError when it cannot be reached. */
  refund(request: RefundRequest): Promise<ProviderRefund>;
  /** A refund's outcome now, by the provider's reference (pending refunds, and reconciling a lost answer). */
  refundStatus(reference: string): Promise<ProviderRefund>;
}

export class CollectionProviderError extends Error {}
