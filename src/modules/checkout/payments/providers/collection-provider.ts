import type { PromptPayDetails } from '../../entities/charge.entity.js';
import type { PaymentMethodType } from '../../checkout-rules.js';

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

export interface ProviderFailure {
  /** Stripe-style `failure_code`, e.g. `card_declined`. */
  code: string;
  /** The finer reason, e.g. `generic_decline`, `insufficient_funds`. */
  reason: string;
  message: string;
}

/** The provider's answer to a payment attempt. */
export interface ProviderPayment {
  status: 'succeeded' | 'failed' | 'pending';
  /** The provider's own reference of the charge. */
  reference: string;
  failure?: ProviderFailure;
  promptpay?: PromptPayDetails;
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
}

/**
 * The collection provider port. A provider charges cards, makes PromptPay QR codes and says what
 * it charges for a payment. Amounts are integers in minor units.
 */
export interface CollectionProvider {
  readonly name: string;
  /** The provider's fee for collecting `amount` with `method` (minor units, currency of the payment). */
  fee(method: PaymentMethodType, amount: number, currency: string): number;
  describeCard(card: CardDetails, applicationId: string): CardFacts;
  chargeCard(request: PaymentRequest, card: CardDetails): Promise<ProviderPayment>;
  createPromptPay(request: PaymentRequest, expiresAt: Date): Promise<ProviderPayment>;
  /** Whether a pending PromptPay charge has been paid (the sandbox is told so by a test helper). */
  confirmPromptPay(reference: string): Promise<ProviderPayment>;
}

export class CollectionProviderError extends Error {}
