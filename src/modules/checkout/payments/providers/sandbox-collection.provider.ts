import { randomBytes } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../../../config/app.config.js';
import generatePromptPayPayload from 'promptpay-qr';
import QRCode from 'qrcode';
import {
  PAYMENT_METHOD_TYPES,
  paymentMethodInfo,
  type PaymentFlow,
} from '../../../../providers/ports/payment-method-types.js';
import {
  CollectionProviderError,
  type CollectionProvider,
  type PaymentMethodType,
  type AuthorizationRequest,
  type CaptureRequest,
  type PaymentRequest,
  type ProviderAuthorizationResult,
  type ProviderAuthorizationState,
  type ProviderFailure,
  type ProviderPayment,
  type ProviderRefund,
  type RefundRequest,
  type SandboxOutcome,
  type SavedCard,
  type SourcePaymentRequest,
  type VaultCard,
} from '../../../../providers/ports/collection.port.js';

/** The sandbox's test cards (common practice); any other valid card number succeeds. */
const TEST_CARDS: Record<string, SandboxOutcome> = {
  '4000000000000002': 'generic_decline',
  '4000000000009995': 'insufficient_funds',
  '4000000000000069': 'expired_card',
  '4000000000000127': 'incorrect_cvc',
  '4000000000000119': 'processing_error',
  '4000000000000259': 'disputed',
  // Stripe's "authentication required on every charge": off-session it is declined with
  // authentication_required; on-session (the customer on the hosted page) it is authenticated.
  '4000002500003155': 'authentication_required',
};

/** The outcome a (valid) card number selects: what the test-mode vault keeps on its token instead of the number. */
export function sandboxOutcomeOf(number: string): SandboxOutcome {
  return TEST_CARDS[number] ?? 'succeeds';
}

const FAILURES: Partial<Record<SandboxOutcome, ProviderFailure>> = {
  generic_decline: { code: 'card_declined', reason: 'generic_decline', message: 'Your card was declined.' },
  insufficient_funds: {
    code: 'card_declined',
    reason: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  expired_card: { code: 'expired_card', reason: 'expired_card', message: 'Your card has expired.' },
  incorrect_cvc: {
    code: 'incorrect_cvc',
    reason: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  authentication_required: {
    code: 'authentication_required',
    reason: 'authentication_required',
    message: 'The card requires authentication (3-D Secure): the customer must complete the payment.',
  },
  processing_error: {
    code: 'processing_error',
    reason: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};

/** Fee schedule in basis points of the amount, by flow: cards 3.65 %, QR codes 1.65 %, redirects 1.65 %. */
const FEE_BPS: Record<PaymentFlow, number> = { card: 365, qr: 165, redirect: 165 };

/**
 * The PromptPay proxy the sandbox collects to: a 15-digit e-Wallet ID, so the QR code is a real
 * EMVCo merchant-presented PromptPay payload that any Thai banking app can parse.
 */
export const SANDBOX_PROMPTPAY_ID = '004999000000001';

/** A held answer: the provider does not answer an application's payment attempts until released. */
export interface ProviderGate {
  /** Answer the held attempts (and later ones) normally. */
  release(): void;
  /** Answer the held attempts (and later ones) as a provider that failed to answer. */
  fail(message: string): void;
}

/** The built-in, deterministic, in-process collection provider. */
@Injectable()
export class SandboxCollectionProvider implements CollectionProvider {
  readonly name = 'sandbox';
  /** Serves test mode only: a live map naming it fails at boot. */
  readonly testOnly = true;
  /** Every type of the registry: test mode simulates them all (docs/COLLECTION.md, "Payment method types"). */
  readonly paymentMethodTypes: readonly PaymentMethodType[] = PAYMENT_METHOD_TYPES;
  /** Where the sandbox's stand-in for a provider's payment page is served (PUBLIC_URL). */
  private readonly publicUrl: string;

  private readonly gates = new Map<string, Promise<void>>();
  /** The sandbox's own records: the payment made for each charge id (oldest dropped past SANDBOX_RECORDS). */
  private readonly payments = new Map<string, ProviderPayment>();
  /** Authorizations it holds, by its reference: what is held, and how each ended (once: a resend answers the same). */
  private readonly authorizations = new Map<string, SandboxAuthorization>();
  /**
   * Pending payments of the QR and redirect types, by reference: what the buyer (a test helper) made
   * of each, and the bank the payer picked (FPX), whose page the sandbox's payment page stands in for.
   */
  private readonly sources = new Map<
    string,
    { chargeId: string; status: 'pending' | 'succeeded' | 'failed'; bank?: string | null }
  >();

  constructor(@Optional() config?: ConfigService<AllConfig, true>) {
    this.publicUrl = config?.get('app.publicUrl', { infer: true }) ?? 'http://localhost:3000';
  }

  /**
   * Test control (in this process, never reachable through the API): hold this application's
   * payment attempts as a slow or dead provider would, until the gate is released or failed.
   */
  hold(applicationId: string): ProviderGate {
    let open!: () => void;
    let shut!: (err: Error) => void;
    const gate = new Promise<void>((resolve, reject) => {
      open = resolve;
      shut = reject;
    });
    gate.catch(() => undefined);
    this.gates.set(applicationId, gate);
    return {
      release: () => {
        this.gates.delete(applicationId);
        open();
      },
      fail: (message) => {
        this.gates.delete(applicationId);
        shut(new CollectionProviderError(message));
      },
    };
  }

  private async answerAfterGate(applicationId: string): Promise<void> {
    const gate = this.gates.get(applicationId);
    if (gate) await gate;
  }

  fee(method: PaymentMethodType, amount: number): number {
    return Math.max(1, Math.floor((amount * FEE_BPS[paymentMethodInfo(method).flow] + 5_000) / 10_000));
  }

  /**
   * Charges a vault token: the outcome is the one its card number selected at tokenization. Without
   * the vault's card (the test harness's live double, handed a provider-style token) it succeeds.
   */
  async chargeCard(request: PaymentRequest, _token: string, vaultCard?: VaultCard): Promise<ProviderPayment> {
    await this.answerAfterGate(request.applicationId);
    const made = this.payments.get(request.chargeId);
    if (made) return made;
    const reference = providerReference('ch');
    const answer = answerFor(reference, vaultCard?.sandbox_outcome ?? 'succeeds', false);
    return this.record(request.chargeId, this.authorizeIfManual(request, answer));
  }

  /** A manual-capture card payment that would succeed is held instead: `authorized`, the amount held. */
  private authorizeIfManual(request: PaymentRequest, answer: ProviderPayment): ProviderPayment {
    if (request.captureMethod !== 'manual' || answer.status !== 'succeeded') return answer;
    this.authorizations.set(answer.reference, { amount: request.amount, ended: null });
    if (this.authorizations.size > SANDBOX_RECORDS) {
      this.authorizations.delete(this.authorizations.keys().next().value!);
    }
    return { status: 'authorized', reference: answer.reference };
  }

  /** Captures an authorization it holds (once; a resend answers the first capture), releasing the rest. */
  async captureAuthorization(request: CaptureRequest): Promise<ProviderAuthorizationResult> {
    await this.answerAfterGate(request.applicationId);
    const held = this.authorizations.get(request.chargeReference);
    if (!held) return authorizationGone(request.chargeReference);
    held.ended ??= {
      status: 'captured',
      reference: request.chargeReference,
      amountCaptured: request.amountToCapture,
      amountReleased: held.amount - request.amountToCapture,
    };
    return held.ended.status === 'captured' ? held.ended : authorizationGone(request.chargeReference);
  }

  /** Voids an authorization it holds (an already voided one answers the same). */
  async voidAuthorization(request: AuthorizationRequest): Promise<ProviderAuthorizationResult> {
    await this.answerAfterGate(request.applicationId);
    const held = this.authorizations.get(request.chargeReference);
    if (!held) return authorizationGone(request.chargeReference);
    held.ended ??= {
      status: 'voided',
      reference: request.chargeReference,
      amountCaptured: 0,
      amountReleased: held.amount,
    };
    return held.ended.status === 'voided' ? held.ended : authorizationGone(request.chargeReference);
  }

  /** What the sandbox holds for the authorization now (not gated: a read-back changes nothing). */
  async readAuthorization(request: AuthorizationRequest): Promise<ProviderAuthorizationState> {
    const held = this.authorizations.get(request.chargeReference);
    if (!held) return authorizationGone(request.chargeReference);
    return (
      held.ended ?? { status: 'authorized', reference: request.chargeReference, amountCaptured: 0, amountReleased: 0 }
    );
  }

  /** Test control (in this process): what the sandbox holds for an authorization and how it ended. */
  authorizationOf(reference: string): SandboxAuthorization | null {
    return this.authorizations.get(reference) ?? null;
  }

  /** The sandbox's record of the charge id: a charge is made once per charge id, like a provider's idempotency key. */
  async paymentByChargeId(chargeId: string): Promise<ProviderPayment | null> {
    return this.payments.get(chargeId) ?? null;
  }

  private record(chargeId: string, payment: ProviderPayment): ProviderPayment {
    this.payments.set(chargeId, payment);
    if (this.payments.size > SANDBOX_RECORDS) this.payments.delete(this.payments.keys().next().value!);
    return payment;
  }

  /** A saved test card: the outcome its number selected when it was saved. */
  async chargeSavedCard(request: PaymentRequest, card: SavedCard, offSession: boolean): Promise<ProviderPayment> {
    await this.answerAfterGate(request.applicationId);
    const made = this.payments.get(request.chargeId);
    if (made) return made;
    const answer = answerFor(providerReference('ch'), card.sandbox_outcome ?? 'succeeds', offSession);
    return this.record(request.chargeId, this.authorizeIfManual(request, answer));
  }

  /** The sandbox keeps no cards of its own: nothing to remove. */
  async detachSavedCard(): Promise<void> {}

  async createPromptPay(request: PaymentRequest, expiresAt: Date): Promise<ProviderPayment> {
    await this.answerAfterGate(request.applicationId);
    const made = this.payments.get(request.chargeId);
    if (made) return made;
    const raw = generatePromptPayPayload(SANDBOX_PROMPTPAY_ID, { amount: request.amount / request.scalingFactor });
    const image = await QRCode.toDataURL(raw, { errorCorrectionLevel: 'M', margin: 2, width: 256 });
    const reference = providerReference('pp');
    return this.record(request.chargeId, {
      status: 'pending',
      reference,
      promptpay: {
        raw,
        image,
        ref1: reference,
        ref2: request.chargeId.replaceAll('-', '').slice(-20).toUpperCase(),
        ref3: null,
        expires_at: expiresAt.toISOString(),
      },
    });
  }

  /**
   * A QR or redirect payment (TrueMoney, mobile banking, installments, PayNow, FPX, GrabPay): pending
   * until the buyer acts on the sandbox's payment page (`redirectUrl`, served by this service in test
   * mode under the return route) or a test helper simulates it. QR types get a QR code of the
   * reference (a scannable test payload, not a real scheme's).
   */
  async createSourcePayment(request: PaymentRequest, source: SourcePaymentRequest): Promise<ProviderPayment> {
    await this.answerAfterGate(request.applicationId);
    const made = this.payments.get(request.chargeId);
    if (made) return made;
    const reference = providerReference('src');
    this.sources.set(reference, { chargeId: request.chargeId, status: 'pending', bank: source.bank ?? null });
    if (this.sources.size > SANDBOX_RECORDS) this.sources.delete(this.sources.keys().next().value!);
    if (paymentMethodInfo(source.type).flow === 'qr') {
      const raw = `sandbox:${source.type}:${reference}:${request.amount}:${request.currency}`;
      const image = await QRCode.toDataURL(raw, { errorCorrectionLevel: 'M', margin: 2, width: 256 });
      return this.record(request.chargeId, { status: 'pending', reference, qr: { raw, image } });
    }
    const redirectUrl = `${this.publicUrl}/provider_returns/sandbox/${encodeURIComponent(request.chargeId)}/authorize`;
    return this.record(request.chargeId, { status: 'pending', reference, redirectUrl });
  }

  /** The buyer pays or the payment fails: only a pending QR or redirect payment changes, once. */
  async simulate(reference: string, outcome: 'succeeded' | 'failed'): Promise<void> {
    const source = this.sources.get(reference);
    if (!source) this.sources.set(reference, { chargeId: '', status: outcome });
    else if (source.status === 'pending') source.status = outcome;
  }

  /** The sandbox's reference of the QR or redirect payment it made for a charge id, if any. */
  sourceOf(chargeId: string): string | null {
    const made = this.payments.get(chargeId);
    return made && this.sources.has(made.reference) ? made.reference : null;
  }

  /** The bank the payer picked for the QR or redirect payment `reference` (FPX), if any. */
  bankOf(reference: string): string | null {
    return this.sources.get(reference)?.bank ?? null;
  }

  /** A QR or redirect payment answers what was made of it; PromptPay (paid by its test helper) and 3-D Secure succeed. */
  async confirmPromptPay(reference: string): Promise<ProviderPayment> {
    const source = this.sources.get(reference);
    if (!source || source.status === 'succeeded') return { status: 'succeeded', reference };
    if (source.status === 'pending') return { status: 'pending', reference };
    return {
      status: 'failed',
      reference,
      failure: {
        code: 'payment_failed',
        reason: 'payment_rejected',
        message: 'The buyer did not complete the payment.',
      },
    };
  }

  /**
   * Card refunds succeed at once, PromptPay refunds are `pending` until refundStatus says they
   * settled (the sandbox settles them whenever asked), and a refund of exactly
   * SANDBOX_FAILING_REFUND_AMOUNT fails. The refund id is the idempotency key: asking twice for
   * the same refund answers the same reference.
   */
  async refund(request: RefundRequest): Promise<ProviderRefund> {
    await this.answerAfterGate(request.applicationId);
    const reference = `re_sbx_${request.refundId.replaceAll('-', '')}`;
    if (request.amount === SANDBOX_FAILING_REFUND_AMOUNT) {
      return {
        status: 'failed',
        reference,
        failure: {
          code: 'refund_declined',
          reason: 'expired_or_canceled_card',
          message: 'The refund was declined by the payer’s bank.',
        },
      };
    }
    return { status: request.method === 'promptpay' ? 'pending' : 'succeeded', reference };
  }

  async refundStatus(reference: string): Promise<ProviderRefund> {
    return { status: 'succeeded', reference };
  }
}

/**
 * How many charges the sandbox remembers (in this process): far more than are ever unanswered at
 * once, so a lost answer is read back within the reconciliation job's minutes; memory stays bounded.
 */
const SANDBOX_RECORDS = 100_000;

/** An authorization the sandbox holds: its amount and, once captured or voided, that answer. */
export interface SandboxAuthorization {
  amount: number;
  ended: ProviderAuthorizationResult | null;
}

/** An authorization the sandbox does not hold (any more): nothing to capture or void. */
function authorizationGone(reference: string): ProviderAuthorizationResult {
  return {
    status: 'failed',
    reference,
    amountCaptured: 0,
    amountReleased: 0,
    failure: {
      code: 'authorization_unavailable',
      reason: 'authorization_unavailable',
      message: 'The authorization was already captured or voided, or it expired.',
    },
  };
}

/** The sandbox's failing refund amount (minor units): a refund of exactly this amount is declined. */
export const SANDBOX_FAILING_REFUND_AMOUNT = 4004;

/** A card payment's answer for `outcome`; authentication is only missing when the customer is not there. */
function answerFor(reference: string, outcome: SandboxOutcome, offSession: boolean): ProviderPayment {
  const failure = outcome === 'authentication_required' && !offSession ? undefined : FAILURES[outcome];
  if (failure) return { status: 'failed', reference, failure };
  return { status: 'succeeded', reference, disputeAfterSuccess: outcome === 'disputed' };
}

/** The sandbox's reference of a card saved in test mode. */
export const sandboxCardReference = () => providerReference('card');

function providerReference(prefix: string): string {
  return `${prefix}_sbx_${randomBytes(12).toString('base64url')}`;
}
