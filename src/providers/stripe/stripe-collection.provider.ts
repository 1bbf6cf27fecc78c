import Stripe from 'stripe';
import type {
  AuthorizationRequest,
  CaptureRequest,
  ProviderAuthorizationResult,
  ProviderAuthorizationState,
  PaymentMethodType,
  CardDetails,
  CardFacts,
  CollectionProvider,
  PaymentRequest,
  ProviderPayment,
  ProviderRefund,
  ProviderFailure,
  ProviderSavedCard,
  RefundRequest,
  SaveCardRequest,
  SavedCard,
  SetupIntentRequest,
  SourcePaymentRequest,
} from '../ports/collection.port.js';
import { feeWithVat, type FeeRates } from '../ports/fee-with-vat.js';
import { cardFailure, failureFacts, StripeCollectionError } from './stripe-errors.js';
import { createSetupIntent, readSetupIntent, type StripeSetupIntent } from './stripe-setup-intents.js';
import {
  isStripeLocalMethod,
  LOCAL_FEE_TAX_BPS,
  localIntentParams,
  STRIPE_FPX_BANKS,
  STRIPE_LOCAL_FEE_BPS,
  STRIPE_LOCAL_METHOD_TYPES,
} from './stripe-local-methods.js';

export type { StripeSetupIntent } from './stripe-setup-intents.js';

/** Fee rates default to Stripe Thailand's published rates (STRIPE_FEE_BPS) plus 7 % VAT on the fee. */
export interface StripeCollectionOptions extends FeeRates {
  /** Where Stripe sends the payer back after 3-D Secure (server-confirmed `pm_…` charges). */
  returnUri: (chargeId: string) => string;
  /** Stripe requires the payer's email for PromptPay (`billing_details.email`). */
  promptPayEmail: (request: PaymentRequest) => string;
  /** Destination charges: the application's connected account (`acct_…`), or none for platform charges. */
  destination?: (applicationId: string) => string | null | undefined;
}

/**
 * What the adapter answers beyond the port: 3-D Secure needs the payer sent to
 * `redirect_to_url.url` (`authorizeUri`). FPX and GrabPay send the payer there too, as the port's
 * `redirectUrl`; a PayNow QR code is the port's `qr` (the EMVCo payload and Stripe's PNG).
 */
export interface StripePayment extends ProviderPayment {
  authorizeUri?: string;
}

/** A PaymentIntent the browser confirms with the Payment Element (`client_secret` goes to the page). */
export interface StripeCardIntent {
  reference: string;
  clientSecret: string;
  /** Where the page's `stripe.confirmPayment` sends the payer back (`confirmParams.return_url`). */
  returnUrl: string;
}

/** Stripe Thailand's published rates in basis points: cards 3.65 %, PromptPay 1.65 %. */
const STRIPE_FEE_BPS: Partial<Record<PaymentMethodType, number>> = { card: 365, promptpay: 165 };
const PI = /^pi_\w+$/;
const PM = /^pm_\w+$/;
const RE = /^(re|pyr)_\w+$/;
/** The window a lost answer's intent is looked for in: from a minute before its charge was recorded to five after. */
const READ_BACK_BEFORE_MS = 60_000;
const READ_BACK_AFTER_MS = 5 * 60_000;
/** Intents listed at most per read-back; beyond it the read-back fails and is tried again next run. */
const READ_BACK_MAX = 1_000;

/**
 * The Stripe collection provider: card payments as PaymentIntents (the Payment Element confirms
 * them in the browser; the service never sees a card number), PromptPay PaymentIntents, refunds.
 * Every create carries an idempotency key derived from the service's id.
 */
export class StripeCollectionProvider implements CollectionProvider {
  readonly name = 'stripe';
  readonly paymentMethodTypes: readonly PaymentMethodType[] = ['card', 'promptpay', ...STRIPE_LOCAL_METHOD_TYPES];

  constructor(
    private readonly stripe: Stripe,
    private readonly options: StripeCollectionOptions,
  ) {}

  fee(method: PaymentMethodType, amount: number, currency?: string): number {
    if (isStripeLocalMethod(method)) {
      // Stripe's SG/MY rates and the tax of the country whose currency it is (feeBps/feeVatBps override).
      const rate = this.options.feeBps?.[method] ?? STRIPE_LOCAL_FEE_BPS[method];
      const fee = (amount * rate) / 10_000;
      const tax = this.options.feeVatBps ?? LOCAL_FEE_TAX_BPS[(currency ?? '').toUpperCase()] ?? 0;
      return Math.max(1, Math.round(fee + (fee * tax) / 10_000));
    }
    return feeWithVat(method, amount, STRIPE_FEE_BPS, this.options);
  }

  /**
   * A PayNow, FPX or GrabPay PaymentIntent made and confirmed at once (keyed `charge:{chargeId}`):
   * PayNow answers pending with `next_action.paynow_display_qr_code` (the QR in `qr`), FPX and
   * GrabPay pending with `next_action.redirect_to_url` (in `redirectUrl`), whose `return_url` is
   * the service's `/provider_returns/stripe/{charge id}`. An FPX bank Stripe does not name is
   * refused before any call (`fpx_bank_invalid`, not retryable).
   */
  async createSourcePayment(request: PaymentRequest, local: SourcePaymentRequest): Promise<StripePayment> {
    if (!isStripeLocalMethod(local.type)) {
      throw new StripeCollectionError(
        `Stripe is not wired to collect "${local.type}" here`,
        'payment_method_type_unsupported',
        false,
        false,
      );
    }
    if (local.type === 'fpx' && !(STRIPE_FPX_BANKS as readonly string[]).includes(local.bank ?? '')) {
      throw new StripeCollectionError(
        `FPX needs one of Stripe's banks (payment_method_data[fpx][bank]); got ${JSON.stringify(local.bank)}`,
        'fpx_bank_invalid',
        false,
        false,
      );
    }
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          ...this.base(request),
          ...localIntentParams({
            type: local.type,
            bank: local.bank ?? null,
            returnUrl: this.options.returnUri(request.chargeId),
          }),
        },
        { idempotencyKey: `charge:${request.chargeId}` },
      );
      return this.toPayment(intent, local.expiresAt);
    } catch (err) {
      throw this.providerError(err);
    }
  }

  describeCard(_card: CardDetails, _applicationId: string): CardFacts {
    throw new StripeCollectionError(
      'Stripe card payments are confirmed by the Payment Element: card details never reach this service',
      'card_details_refused',
      false,
      false,
    );
  }

  /**
   * The card PaymentIntent the checkout page confirms with the Payment Element (beyond the port:
   * CardIntentsService.prepare asks for it). Keyed `pi:{chargeId}`, so a reload gets the same intent.
   */
  async createCardIntent(request: PaymentRequest): Promise<StripeCardIntent> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        { ...this.base(request), allowed_payment_method_types: ['card'] },
        { idempotencyKey: `pi:${request.chargeId}` },
      );
      return {
        reference: intent.id,
        clientSecret: intent.client_secret ?? '',
        returnUrl: this.options.returnUri(request.chargeId),
      };
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /**
   * `pi_…`: the PaymentIntent the browser confirmed; read back and checked (charge id, amount,
   * currency) so a page cannot claim someone else's payment. `pm_…`: a PaymentMethod confirmed
   * here (`confirm: true`, keyed `charge:{chargeId}`). Card details are refused.
   */
  async chargeCard(request: PaymentRequest, card: CardDetails | string): Promise<StripePayment> {
    if (typeof card !== 'string' || !(PI.test(card) || PM.test(card))) {
      throw new StripeCollectionError(
        'Stripe card charges need a confirmed PaymentIntent (pi_…) or a PaymentMethod (pm_…)',
        'token_required',
        false,
        false,
      );
    }
    try {
      if (PI.test(card)) {
        const intent = await this.stripe.paymentIntents.retrieve(card);
        if (
          intent.metadata?.charge_id !== request.chargeId ||
          intent.amount !== request.amount ||
          intent.currency !== request.currency.toLowerCase()
        ) {
          throw new StripeCollectionError(
            `PaymentIntent ${intent.id} is not this charge's (charge id, amount or currency differ)`,
            'intent_mismatch',
            false,
            false,
          );
        }
        return this.toPayment(intent);
      }
      const intent = await this.stripe.paymentIntents.create(
        {
          ...this.base(request),
          allowed_payment_method_types: ['card'],
          payment_method: card,
          confirm: true,
          return_url: this.options.returnUri(request.chargeId),
        },
        { idempotencyKey: `charge:${request.chargeId}` },
      );
      return this.toPayment(intent);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError) {
        const pi = (err.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
        return {
          status: 'failed',
          reference: pi?.id ?? `stripe_refused:${request.chargeId}`,
          failure: cardFailure(err.code, err.decline_code, err.message),
        };
      }
      throw this.providerError(err);
    }
  }

  /**
   * Charges a PaymentMethod saved to a Stripe customer (`pm_…` of `cus_…`): a PaymentIntent
   * confirmed at once, keyed `charge:{chargeId}`. Off-session (`off_session: true`) Stripe refuses a
   * card that needs authentication with a 402 `authentication_required` (or leaves the intent
   * `requires_action`): a failed attempt with that code. On-session a `redirect_to_url` is pending.
   */
  async chargeSavedCard(request: PaymentRequest, card: SavedCard, offSession: boolean): Promise<StripePayment> {
    if (!PM.test(card.reference)) {
      throw new StripeCollectionError('Stripe saved cards are PaymentMethods (pm_…)', 'token_required', false, false);
    }
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          ...this.base(request),
          allowed_payment_method_types: ['card'],
          ...(card.customer ? { customer: card.customer } : {}),
          payment_method: card.reference,
          confirm: true,
          ...(offSession ? { off_session: true } : { return_url: this.options.returnUri(request.chargeId) }),
        },
        { idempotencyKey: `charge:${request.chargeId}` },
      );
      if (offSession && intent.status === 'requires_action') {
        return {
          status: 'failed',
          reference: intent.id,
          failure: cardFailure('authentication_required', null, 'The card requires authentication.'),
        };
      }
      return this.toPayment(intent);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError) {
        const pi = (err.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
        return {
          status: 'failed',
          reference: pi?.id ?? `stripe_refused:${request.chargeId}`,
          failure: cardFailure(err.code, err.decline_code, err.message),
        };
      }
      throw this.providerError(err);
    }
  }

  /**
   * The SetupIntent a setup checkout's page confirms with the Payment Element (beyond the port:
   * SetupCheckoutsService.prepareIntent asks for it), made on the customer's Stripe customer
   * (created first when it has none): stripe-setup-intents.ts.
   */
  createSetupIntent(request: SetupIntentRequest): Promise<StripeSetupIntent> {
    return createSetupIntent(this.stripe, request, (err) => this.providerError(err));
  }

  /** Records the card of a confirmed SetupIntent (`token` is its `seti_…`, read back here): stripe-setup-intents.ts. */
  saveCard(request: SaveCardRequest): Promise<ProviderSavedCard | { failure: ProviderFailure }> {
    return readSetupIntent(this.stripe, request, (err) => this.providerError(err));
  }

  /** Detaches the PaymentMethod from its customer (POST /v1/payment_methods/{pm}/detach); already gone is fine. */
  async detachSavedCard(card: SavedCard): Promise<void> {
    try {
      await this.stripe.paymentMethods.detach(card.reference);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing') return;
      throw this.providerError(err);
    }
  }

  /** A PromptPay PaymentIntent confirmed at once: the QR is `next_action.promptpay_display_qr_code`. */
  async createPromptPay(request: PaymentRequest, expiresAt: Date): Promise<ProviderPayment> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          ...this.base(request),
          allowed_payment_method_types: ['promptpay'],
          payment_method_data: { type: 'promptpay', billing_details: { email: this.options.promptPayEmail(request) } },
          confirm: true,
        },
        { idempotencyKey: `charge:${request.chargeId}` },
      );
      return this.toPayment(intent, expiresAt);
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /**
   * Reads back a charge whose answer was lost: the PaymentIntents created around the time it was
   * recorded (GET /v1/payment_intents with `created[gte]`/`created[lte]`, paged), matched on
   * `metadata.charge_id` (every intent made here carries it). A list, not the Search API: Stripe's
   * search may lag writes by a minute or more, a list does not, so "not there" means Stripe made none.
   */
  async paymentByChargeId(chargeId: string, createdAt: Date): Promise<StripePayment | null> {
    const created = {
      gte: Math.floor((createdAt.getTime() - READ_BACK_BEFORE_MS) / 1000),
      lte: Math.ceil((createdAt.getTime() + READ_BACK_AFTER_MS) / 1000),
    };
    try {
      let seen = 0;
      for await (const intent of this.stripe.paymentIntents.list({ created, limit: 100 })) {
        if (intent.metadata?.charge_id === chargeId) return this.toPayment(intent);
        if (++seen >= READ_BACK_MAX) {
          throw new StripeCollectionError(
            `more than ${READ_BACK_MAX} PaymentIntents around charge ${chargeId}`,
            'read_back_too_many',
            true,
            false,
          );
        }
      }
      return null;
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /** Reads the PaymentIntent: the truth for pending PromptPay and 3-D Secure payments. */
  async confirmPromptPay(reference: string): Promise<StripePayment> {
    try {
      return this.toPayment(await this.stripe.paymentIntents.retrieve(reference));
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /**
   * POST /v1/payment_intents/{id}/capture `{amount_to_capture}` (the rest is released), keyed
   * `capture:{chargeId}`. A capture Stripe refuses (the intent is no longer `requires_capture`) is
   * read back: succeeded (a resend) answers that capture, canceled is `failed`.
   */
  async captureAuthorization(request: CaptureRequest): Promise<ProviderAuthorizationResult> {
    try {
      const intent = await this.stripe.paymentIntents.capture(
        request.chargeReference,
        { amount_to_capture: request.amountToCapture },
        { idempotencyKey: `capture:${request.chargeId}` },
      );
      return this.toAuthorizationResult(intent);
    } catch (err) {
      if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw this.providerError(err);
      return this.readEnded(request.chargeReference);
    }
  }

  /** POST /v1/payment_intents/{id}/cancel: the authorization released; one already canceled answers the same. */
  async voidAuthorization(request: AuthorizationRequest): Promise<ProviderAuthorizationResult> {
    try {
      const intent = await this.stripe.paymentIntents.cancel(
        request.chargeReference,
        {},
        { idempotencyKey: `void:${request.chargeId}` },
      );
      return this.toAuthorizationResult(intent);
    } catch (err) {
      if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw this.providerError(err);
      return this.readEnded(request.chargeReference);
    }
  }

  /** GET /v1/payment_intents/{id}: `requires_capture` is still authorized; otherwise how it ended. */
  async readAuthorization(request: AuthorizationRequest): Promise<ProviderAuthorizationState> {
    try {
      const intent = await this.stripe.paymentIntents.retrieve(request.chargeReference);
      if (intent.status === 'requires_capture') {
        return { status: 'authorized', reference: intent.id, amountCaptured: 0, amountReleased: 0 };
      }
      return this.toAuthorizationResult(intent);
    } catch (err) {
      throw this.providerError(err);
    }
  }

  private async readEnded(reference: string): Promise<ProviderAuthorizationResult> {
    try {
      return this.toAuthorizationResult(await this.stripe.paymentIntents.retrieve(reference));
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /** A PaymentIntent after a capture or a cancel, in the port's shape. */
  private toAuthorizationResult(intent: Stripe.PaymentIntent): ProviderAuthorizationResult {
    const reference = intent.id;
    if (intent.status === 'succeeded') {
      const captured = intent.amount_received;
      return { status: 'captured', reference, amountCaptured: captured, amountReleased: intent.amount - captured };
    }
    if (intent.status === 'canceled') {
      return { status: 'voided', reference, amountCaptured: 0, amountReleased: intent.amount };
    }
    return {
      status: 'failed',
      reference,
      amountCaptured: 0,
      amountReleased: 0,
      failure: {
        code: 'authorization_unavailable',
        reason: intent.status,
        message: `The PaymentIntent is ${intent.status} at Stripe.`,
      },
    };
  }

  /** POST /v1/refunds {payment_intent, amount} (partial or full), keyed `refund:{refundId}`. */
  async refund(request: RefundRequest): Promise<ProviderRefund> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: request.chargeReference,
          amount: request.amount,
          metadata: { refund_id: request.refundId, application_id: request.applicationId },
        },
        { idempotencyKey: `refund:${request.refundId}` },
      );
      return this.toRefund(refund);
    } catch (err) {
      if (
        err instanceof Stripe.errors.StripeInvalidRequestError &&
        (err.statusCode ?? 0) < 500 &&
        err.code !== 'lock_timeout'
      ) {
        return {
          status: 'failed',
          reference: `stripe_refused:${request.refundId}`,
          failure: { code: 'refund_failed', reason: err.code ?? 'invalid_request', message: err.message },
        };
      }
      throw this.providerError(err);
    }
  }

  async refundStatus(reference: string): Promise<ProviderRefund> {
    if (!RE.test(reference)) {
      return {
        status: 'failed',
        reference,
        failure: { code: 'refund_failed', reason: 'refused', message: 'Stripe refused the refund' },
      };
    }
    try {
      return this.toRefund(await this.stripe.refunds.retrieve(reference));
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /** A PaymentIntent in the port's shape (also used for webhook notices). */
  toPayment(intent: Stripe.PaymentIntent, expiresAt?: Date): StripePayment {
    const reference = intent.id;
    switch (intent.status) {
      case 'succeeded':
        return { status: 'succeeded', reference };
      case 'processing':
        return { status: 'pending', reference };
      case 'requires_action': {
        const payment: StripePayment = { status: 'pending', reference };
        const next = intent.next_action;
        if (next?.type === 'redirect_to_url' && next.redirect_to_url?.url) {
          // FPX's bank or GrabPay's page (a local method); otherwise the card issuer's 3-D Secure page.
          if (intent.payment_method_types.some(isStripeLocalMethod)) payment.redirectUrl = next.redirect_to_url.url;
          else payment.authorizeUri = next.redirect_to_url.url;
        }
        const paynow = next?.paynow_display_qr_code;
        if (paynow) payment.qr = { raw: paynow.data ?? '', image: paynow.image_url_png ?? '' };
        const qr = next?.promptpay_display_qr_code;
        if (qr) {
          payment.promptpay = {
            raw: qr.data ?? '',
            image: qr.image_url_png ?? '',
            ref1: intent.id,
            ref2: null,
            ref3: null,
            expires_at: expiresAt?.toISOString() ?? null,
          };
        }
        return payment;
      }
      case 'canceled':
        return {
          status: 'failed',
          reference,
          failure: {
            code: 'payment_canceled',
            reason: intent.cancellation_reason ?? 'canceled',
            message: 'The payment was canceled.',
          },
        };
      case 'requires_payment_method': {
        const e = intent.last_payment_error;
        if (!e) return { status: 'pending', reference };
        return { status: 'failed', reference, failure: cardFailure(e.code, e.decline_code, e.message) };
      }
      case 'requires_capture':
        return { status: 'authorized', reference };
      default:
        // requires_confirmation: not yet paid.
        return { status: 'pending', reference };
    }
  }

  toRefund(refund: Stripe.Refund): ProviderRefund {
    const reference = refund.id;
    if (refund.status === 'succeeded') return { status: 'succeeded', reference };
    if (refund.status === 'failed' || refund.status === 'canceled') {
      return {
        status: 'failed',
        reference,
        failure: {
          code: 'refund_failed',
          reason: refund.failure_reason ?? refund.status,
          message: 'Stripe could not refund',
        },
      };
    }
    return { status: 'pending', reference };
  }

  /**
   * The PaymentIntent's common parameters. A destination charge (request.destination, a connected
   * account with its Connect account) sends `transfer_data[destination]` and, when the application
   * keeps a fee, `application_fee_amount` (https://docs.stripe.com/connect/destination-charges).
   */
  private base(request: PaymentRequest): Stripe.PaymentIntentCreateParams {
    if (request.destination && !request.destination.providerAccount) {
      throw new StripeCollectionError(
        `the destination account ${request.destination.account} has no Stripe Connect account`,
        'destination_not_connected',
        false,
        false,
      );
    }
    const destination = request.destination?.providerAccount ?? this.options.destination?.(request.applicationId);
    const fee = request.destination?.applicationFeeAmount ?? 0;
    return {
      amount: request.amount,
      currency: request.currency.toLowerCase(),
      metadata: {
        charge_id: request.chargeId,
        application_id: request.applicationId,
        ...(request.destination ? { destination_account: request.destination.account } : {}),
      },
      ...(destination ? { transfer_data: { destination } } : {}),
      ...(destination && fee > 0 ? { application_fee_amount: fee } : {}),
      ...(request.captureMethod === 'manual' ? { capture_method: 'manual' as const } : {}),
    };
  }

  private providerError(err: unknown): Error {
    if (err instanceof StripeCollectionError) return err;
    const facts = failureFacts(err);
    if (!facts) return err as Error;
    return new StripeCollectionError(facts.message, facts.stripeCode, facts.retryable, facts.outcomeUnknown);
  }
}
