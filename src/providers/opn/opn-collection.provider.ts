import type {
  AuthorizationRequest,
  CaptureRequest,
  ProviderAuthorizationResult,
  PaymentMethodType,
  CardDetails,
  CardFacts,
  CollectionProvider,
  PaymentRequest,
  ProviderPayment,
  ProviderRefund,
  RefundRequest,
  SavedCard,
  SaveCardRequest,
  ProviderSavedCard,
  ProviderFailure,
  ProviderAuthorizationState,
  SourcePaymentRequest,
} from '../ports/collection.port.js';
import { providerTypeOf, typesWithProviderLiteral } from '../ports/payment-method-types.js';
import { feeWithVat, type FeeRates } from '../ports/fee-with-vat.js';
import { OpnApiError, type OpnClient, type OpnObject } from './opn-client.js';
import { chargeFailure, failureFacts, isCardRefusal, OpnCollectionError } from './opn-errors.js';

/** Fee rates default to Opn's published Thai rates (OPN_FEE_BPS) plus 7 % VAT on the fee. */
export interface OpnCollectionOptions extends FeeRates {
  /** Where Opn sends the payer back after 3-D Secure, for the service's charge id. */
  returnUri: (chargeId: string) => string;
}

/** What chargeCard answers beyond the port: 3-D Secure needs the payer sent to Opn's `authorize_uri`. */
export interface OpnPayment extends ProviderPayment {
  /** Set while a card charge waits for 3-D Secure: redirect the payer here; Opn returns them to `return_uri`. */
  authorizeUri?: string;
}

/** An Opn customer with its cards (https://docs.opn.ooo/customers-api). */
interface OpnCustomer extends OpnObject {
  id: string;
  cards?: {
    data: Array<{
      id: string;
      brand?: string;
      last_digits?: string;
      expiration_month?: number;
      expiration_year?: number;
      fingerprint?: string;
      name?: string | null;
      financing?: string | null;
      created_at?: string;
    }>;
  };
}

interface OpnCharge extends OpnObject {
  id: string;
  status: 'successful' | 'failed' | 'pending' | 'expired' | 'reversed';
  amount: number;
  /** Manual capture: `capture: false` charges are `authorized` and `capturable` until captured or reversed. */
  capture?: boolean;
  authorized?: boolean;
  capturable?: boolean;
  paid?: boolean;
  reversed?: boolean;
  /** Single Partial Capture (`authorization_type: pre_auth`): what was authorized and what was captured. */
  authorized_amount?: number | null;
  captured_amount?: number | null;
  authorize_uri?: string | null;
  failure_code?: string | null;
  failure_message?: string | null;
  expires_at?: string | null;
  metadata?: Record<string, string> | null;
  source?: {
    type?: string;
    scannable_code?: { image?: { download_uri?: string } } | null;
    references?: { reference_number_1?: string | null; reference_number_2?: string | null } | null;
  } | null;
}

interface OpnList<T> extends OpnObject {
  data: T[];
}

/** The window a lost answer's charge is looked for in: from a minute before it was recorded to five after. */
const READ_BACK_BEFORE_MS = 60_000;
const READ_BACK_AFTER_MS = 5 * 60_000;
/** Charges listed at most per read-back; beyond it the read-back fails and is tried again next run. */
const READ_BACK_MAX = 1_000;

interface OpnRefund extends OpnObject {
  id: string;
  charge: string;
  amount: number;
  status?: string;
  voided?: boolean;
}

/**
 * Opn's Thai rates in basis points: cards and card installments 3.65 %, PromptPay and mobile
 * banking 1.65 %, TrueMoney 3.65 % (overridable per deployment: OPN_FEE_BPS_*, docs/PROVIDERS.md).
 */
const OPN_FEE_BPS: Partial<Record<PaymentMethodType, number>> = Object.fromEntries(
  typesWithProviderLiteral('opn').map((t) => [t, t === 'promptpay' || t.startsWith('mobile_banking_') ? 165 : 365]),
);

/**
 * A manual-capture charge: `capture: false`, authorized as Opn's Single Partial Capture
 * (`authorization_type: pre_auth`), so less than the authorized amount may be captured.
 */
const manualCapture = (request: PaymentRequest) =>
  request.captureMethod === 'manual' ? { capture: false, authorization_type: 'pre_auth' } : {};

/** Refund references carry their charge: Opn reads a refund at /charges/{charge}/refunds/{refund}. */
const refundReference = (charge: string, refund: string) => `${charge}/${refund}`;

/**
 * The Opn Payments (Omise) collection provider for Thailand: card charges from Omise.js tokens
 * (the service never sees a card number), PromptPay QR charges, refunds.
 */
export class OpnCollectionProvider implements CollectionProvider {
  readonly name = 'opn';
  /** Every registry type with an Opn source type: cards, PromptPay, TrueMoney, mobile banking, installments. */
  readonly paymentMethodTypes: readonly PaymentMethodType[] = typesWithProviderLiteral('opn');

  constructor(
    private readonly client: OpnClient,
    private readonly options: OpnCollectionOptions,
  ) {}

  fee(method: PaymentMethodType, amount: number, _currency?: string): number {
    return feeWithVat(method, amount, OPN_FEE_BPS, this.options);
  }

  /** Card facts come from Opn's charge (`card.brand`, `card.last_digits`), never from a card number here. */
  describeCard(_card: CardDetails, _applicationId: string): CardFacts {
    throw new OpnCollectionError(
      'Opn charges Omise.js tokens only: card details never reach this service',
      'card_details_refused',
      false,
      false,
    );
  }

  /**
   * Charges an Omise.js token (`tokn_…`). With 3-D Secure the answer is `pending` with
   * `authorizeUri`; the outcome arrives by `charge.complete` or confirmPromptPay's read of the charge.
   * A CardDetails argument (the port before tokenization) is refused: no PAN goes to Opn from here.
   */
  async chargeCard(request: PaymentRequest, card: CardDetails | string): Promise<OpnPayment> {
    if (typeof card !== 'string' || !/^tokn_(test_)?\w+$/.test(card)) {
      throw new OpnCollectionError('Opn charges need an Omise.js card token (tokn_…)', 'token_required', false, false);
    }
    try {
      const charge = await this.client.post<OpnCharge>(
        '/charges',
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          card,
          ...manualCapture(request),
          return_uri: this.options.returnUri(request.chargeId),
          metadata: { charge_id: request.chargeId, application_id: request.applicationId },
        },
        `charge:${request.chargeId}`,
      );
      return this.toPayment(charge);
    } catch (err) {
      if (isCardRefusal(err)) {
        // No charge was made at Opn: the reference names the attempt so the row has one.
        return {
          status: 'failed',
          reference: `opn_refused:${request.chargeId}`,
          failure: chargeFailure(err.code, err.message),
        };
      }
      throw this.providerError(err);
    }
  }

  /**
   * Charges a card saved to an Opn customer (`customer` `cust_…` + `card` `card_…`). Opn has no
   * off-session flag: a card that needs 3-D Secure answers a pending charge with `authorize_uri`;
   * off-session nobody can open it, so it is a failed attempt with `authentication_required` (the
   * pending charge at Opn is never authorized and expires there). On-session it is `pending` with
   * `authorizeUri`, as for a token.
   */
  async chargeSavedCard(request: PaymentRequest, card: SavedCard, offSession: boolean): Promise<OpnPayment> {
    if (!card.customer || !/^card_(test_)?\w+$/.test(card.reference)) {
      throw new OpnCollectionError(
        'Opn saved cards are a customer (cust_…) and its card (card_…)',
        'card_required',
        false,
        false,
      );
    }
    try {
      const charge = await this.client.post<OpnCharge>(
        '/charges',
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          customer: card.customer,
          card: card.reference,
          ...manualCapture(request),
          return_uri: this.options.returnUri(request.chargeId),
          metadata: { charge_id: request.chargeId, application_id: request.applicationId },
        },
        `charge:${request.chargeId}`,
      );
      const payment = this.toPayment(charge);
      if (offSession && payment.status === 'pending' && payment.authorizeUri) {
        return {
          status: 'failed',
          reference: payment.reference,
          failure: {
            code: 'authentication_required',
            reason: 'authentication_required',
            message: 'The card requires 3-D Secure: the customer must complete the payment.',
          },
        };
      }
      return payment;
    } catch (err) {
      if (isCardRefusal(err)) {
        return {
          status: 'failed',
          reference: `opn_refused:${request.chargeId}`,
          failure: chargeFailure(err.code, err.message),
        };
      }
      throw this.providerError(err);
    }
  }

  /**
   * Saves an Omise.js token (`tokn_…`) to an Opn customer: a new customer (POST /customers, keyed by
   * the setup checkout) or the customer's existing one (PATCH /customers/{cust} with `card`). The
   * saved card is the customer's newest card (`cards.data`, by `created_at`).
   */
  async saveCard(request: SaveCardRequest): Promise<ProviderSavedCard | { failure: ProviderFailure }> {
    if (!/^tokn_(test_)?\w+$/.test(request.token)) {
      throw new OpnCollectionError('Opn saves Omise.js card tokens (tokn_…)', 'token_required', false, false);
    }
    try {
      const customer = request.providerCustomer
        ? await this.client.patch<OpnCustomer>(`/customers/${encodeURIComponent(request.providerCustomer)}`, {
            card: request.token,
          })
        : await this.client.post<OpnCustomer>(
            '/customers',
            {
              card: request.token,
              ...(request.email ? { email: request.email } : {}),
              metadata: { customer_id: request.customerId, application_id: request.applicationId },
            },
            `setup:${request.checkoutId}`,
          );
      const cards = [...(customer.cards?.data ?? [])].sort((a, b) =>
        String(a.created_at).localeCompare(String(b.created_at)),
      );
      const card = cards.at(-1);
      if (!card)
        throw new OpnCollectionError(
          `Opn customer ${customer.id} has no card after saving one`,
          'card_missing',
          true,
          false,
        );
      return {
        reference: card.id,
        customer: customer.id,
        brand: String(card.brand ?? 'unknown').toLowerCase(),
        last4: String(card.last_digits ?? ''),
        exp_month: Number(card.expiration_month),
        exp_year: Number(card.expiration_year),
        fingerprint: String(card.fingerprint ?? card.id),
        name: card.name ?? null,
        funding: card.financing || null,
      };
    } catch (err) {
      if (isCardRefusal(err)) return { failure: chargeFailure(err.code, err.message) };
      throw this.providerError(err);
    }
  }

  /** Removes the card from its Opn customer (DELETE /customers/{cust}/cards/{card}); already gone is fine. */
  async detachSavedCard(card: SavedCard): Promise<void> {
    if (!card.customer) return;
    try {
      await this.client.delete(
        `/customers/${encodeURIComponent(card.customer)}/cards/${encodeURIComponent(card.reference)}`,
      );
    } catch (err) {
      if (err instanceof OpnApiError && err.httpStatus === 404) return;
      throw this.providerError(err);
    }
  }

  /** A PromptPay charge (source type `promptpay`); the QR is Opn's image at `scannable_code.image.download_uri`. */
  async createPromptPay(request: PaymentRequest, expiresAt: Date): Promise<ProviderPayment> {
    try {
      const charge = await this.client.post<OpnCharge>(
        '/charges',
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          source: { type: 'promptpay' },
          expires_at: expiresAt.toISOString(),
          return_uri: this.options.returnUri(request.chargeId),
          metadata: { charge_id: request.chargeId, application_id: request.applicationId },
        },
        `charge:${request.chargeId}`,
      );
      return this.toPayment(charge, expiresAt);
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /**
   * A charge of an Opn source (TrueMoney `truemoney_jumpapp`, `mobile_banking_*`, `installment_*`):
   * pending with `authorize_uri`, where the buyer authorizes it (on a phone the app itself: Opn
   * gives a deep link when `platform_type` says the device), then returns to `return_uri`; the
   * outcome arrives by `charge.complete`. Installments carry `installment_term` and
   * `zero_interest_installments` (the merchant absorbs the interest).
   */
  async createSourcePayment(request: PaymentRequest, source: SourcePaymentRequest): Promise<OpnPayment> {
    const type = providerTypeOf(source.type, 'opn');
    if (!type || source.type === 'card' || source.type === 'promptpay') {
      throw new OpnCollectionError(`Opn has no source for ${source.type}`, 'source_unsupported', false, false);
    }
    try {
      const charge = await this.client.post<OpnCharge>(
        '/charges',
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          source: {
            type,
            ...(source.platform ? { platform_type: source.platform === 'ios' ? 'IOS' : 'ANDROID' } : {}),
            ...(source.installment
              ? {
                  installment_term: source.installment.term,
                  zero_interest_installments: source.installment.zeroInterest,
                }
              : {}),
          },
          expires_at: source.expiresAt.toISOString(),
          return_uri: this.options.returnUri(request.chargeId),
          metadata: { charge_id: request.chargeId, application_id: request.applicationId },
        },
        `charge:${request.chargeId}`,
      );
      return this.toPayment(charge, source.expiresAt);
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /**
   * Reads back a charge whose answer was lost: Opn's charge list (GET /charges, `from`/`to`, up to
   * 100 a page, oldest first) around the time it was recorded, matched on `metadata.charge_id`
   * (every charge made here carries it). A list, not the Search API: a list has every charge at
   * once, so "not there" means Opn made none.
   */
  async paymentByChargeId(chargeId: string, createdAt: Date): Promise<ProviderPayment | null> {
    const from = new Date(createdAt.getTime() - READ_BACK_BEFORE_MS).toISOString();
    const to = new Date(createdAt.getTime() + READ_BACK_AFTER_MS).toISOString();
    try {
      for (let offset = 0; offset < READ_BACK_MAX; offset += 100) {
        const page = await this.client.get<OpnList<OpnCharge>>(
          `/charges?order=chronological&limit=100&offset=${offset}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
        );
        const found = page.data.find((charge) => charge.metadata?.charge_id === chargeId);
        if (found) return this.toPayment(found);
        if (page.data.length < 100) return null;
      }
    } catch (err) {
      throw this.providerError(err);
    }
    throw new OpnCollectionError(
      `more than ${READ_BACK_MAX} charges around charge ${chargeId}`,
      'read_back_too_many',
      true,
      false,
    );
  }

  /** Reads the charge at Opn (GET /charges/{id}): the truth for pending PromptPay and 3-D Secure charges. */
  async confirmPromptPay(reference: string): Promise<ProviderPayment> {
    try {
      return this.toPayment(await this.client.get<OpnCharge>(`/charges/${encodeURIComponent(reference)}`));
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /**
   * POST /charges/{id}/capture with `capture_amount` (Opn's Single Partial Capture, for charges made
   * with `authorization_type: pre_auth`; the rest of the authorization is released), keyed
   * `capture:{chargeId}`. A capture Opn refuses is read back (GET /charges/{id}): a charge already
   * captured (a resend) answers that capture, one reversed or expired is `failed`.
   */
  async captureAuthorization(request: CaptureRequest): Promise<ProviderAuthorizationResult> {
    const path = `/charges/${encodeURIComponent(request.chargeReference)}`;
    try {
      const partial = request.amountToCapture < request.amount ? { capture_amount: request.amountToCapture } : {};
      const charge = await this.client.post<OpnCharge>(`${path}/capture`, partial, `capture:${request.chargeId}`);
      return this.toAuthorizationResult(charge, request);
    } catch (err) {
      if (!(err instanceof OpnApiError) || err.httpStatus >= 500 || err.retryable) throw this.providerError(err);
      return this.readEnded(path, request);
    }
  }

  /** POST /charges/{id}/reverse: the whole authorization released; one already reversed answers the same. */
  async voidAuthorization(request: AuthorizationRequest): Promise<ProviderAuthorizationResult> {
    const path = `/charges/${encodeURIComponent(request.chargeReference)}`;
    try {
      return this.toAuthorizationResult(
        await this.client.post<OpnCharge>(`${path}/reverse`, {}, `void:${request.chargeId}`),
        request,
      );
    } catch (err) {
      if (!(err instanceof OpnApiError) || err.httpStatus >= 500 || err.retryable) throw this.providerError(err);
      return this.readEnded(path, request);
    }
  }

  /** GET /charges/{id}: authorized and neither paid nor reversed is still held; otherwise how it ended. */
  async readAuthorization(request: AuthorizationRequest): Promise<ProviderAuthorizationState> {
    try {
      const charge = await this.client.get<OpnCharge>(`/charges/${encodeURIComponent(request.chargeReference)}`);
      if (charge.status === 'pending' && charge.authorized === true && !charge.paid && !charge.reversed) {
        return { status: 'authorized', reference: charge.id, amountCaptured: 0, amountReleased: 0 };
      }
      return this.toAuthorizationResult(charge, request);
    } catch (err) {
      throw this.providerError(err);
    }
  }

  private async readEnded(path: string, request: AuthorizationRequest): Promise<ProviderAuthorizationResult> {
    try {
      return this.toAuthorizationResult(await this.client.get<OpnCharge>(path), request);
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /** An Opn charge after a capture or a reverse, in the port's shape. */
  private toAuthorizationResult(charge: OpnCharge, request: AuthorizationRequest): ProviderAuthorizationResult {
    const reference = charge.id;
    if (charge.status === 'successful' || charge.paid === true) {
      const captured = Number(
        charge.captured_amount ?? (request as Partial<CaptureRequest>).amountToCapture ?? charge.amount,
      );
      const authorized = Number(charge.authorized_amount ?? request.amount);
      return { status: 'captured', reference, amountCaptured: captured, amountReleased: authorized - captured };
    }
    if (charge.status === 'reversed' || charge.reversed === true) {
      return { status: 'voided', reference, amountCaptured: 0, amountReleased: request.amount };
    }
    return {
      status: 'failed',
      reference,
      amountCaptured: 0,
      amountReleased: 0,
      failure: chargeFailure(
        charge.status === 'expired' ? 'payment_expired' : charge.failure_code,
        charge.failure_message ?? `The authorization is ${charge.status} at Opn.`,
      ),
    };
  }

  /** POST /charges/{id}/refunds with `amount` (partial or full); the service's refund id is the idempotency key. */
  async refund(request: RefundRequest): Promise<ProviderRefund> {
    try {
      const refund = await this.client.post<OpnRefund>(
        `/charges/${encodeURIComponent(request.chargeReference)}/refunds`,
        { amount: request.amount, metadata: { refund_id: request.refundId } },
        `refund:${request.refundId}`,
      );
      return this.toRefund(refund);
    } catch (err) {
      if (
        err instanceof OpnApiError &&
        err.httpStatus < 500 &&
        !err.retryable &&
        err.code !== 'authentication_failure'
      ) {
        return {
          status: 'failed',
          reference: `opn_refused:${request.refundId}`,
          failure: { code: 'refund_failed', reason: err.code, message: err.message },
        };
      }
      throw this.providerError(err);
    }
  }

  async refundStatus(reference: string): Promise<ProviderRefund> {
    const [charge, refund] = reference.split('/');
    if (!charge || !refund) {
      return {
        status: 'failed',
        reference,
        failure: { code: 'refund_failed', reason: 'refused', message: 'Opn refused the refund' },
      };
    }
    try {
      return this.toRefund(
        await this.client.get<OpnRefund>(
          `/charges/${encodeURIComponent(charge)}/refunds/${encodeURIComponent(refund)}`,
        ),
      );
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /** An Opn charge in the port's shape (also used for webhook notices). */
  toPayment(charge: OpnCharge, expiresAt?: Date): OpnPayment {
    const reference = charge.id;
    switch (charge.status) {
      case 'successful':
        return { status: 'succeeded', reference };
      case 'pending': {
        if (charge.capture === false && charge.authorized === true) return { status: 'authorized', reference };
        const payment: OpnPayment = { status: 'pending', reference };
        if (charge.authorize_uri && charge.source?.type !== 'promptpay') {
          // A card's 3-D Secure page, or an off-site source's payment page (redirect flows).
          if (charge.source?.type) payment.redirectUrl = charge.authorize_uri;
          else payment.authorizeUri = charge.authorize_uri;
        }
        const qr = charge.source?.scannable_code?.image?.download_uri;
        if (charge.source?.type === 'promptpay') {
          payment.promptpay = {
            // Opn gives the QR as an image, not the EMVCo payload text.
            raw: '',
            image: qr ?? '',
            ref1: charge.source.references?.reference_number_1 ?? charge.id,
            ref2: charge.source.references?.reference_number_2 ?? null,
            ref3: null,
            expires_at: charge.expires_at ?? expiresAt?.toISOString() ?? null,
          };
        }
        return payment;
      }
      case 'expired':
        return {
          status: 'failed',
          reference,
          failure: chargeFailure('payment_expired', charge.failure_message ?? 'The payment expired.'),
        };
      case 'reversed':
        return { status: 'failed', reference, failure: chargeFailure('payment_cancelled', 'The charge was reversed.') };
      default:
        return { status: 'failed', reference, failure: chargeFailure(charge.failure_code, charge.failure_message) };
    }
  }

  toRefund(refund: OpnRefund): ProviderRefund {
    const reference = refundReference(refund.charge, refund.id);
    if (refund.status === 'pending') return { status: 'pending', reference };
    if (refund.status === 'failed') {
      return {
        status: 'failed',
        reference,
        failure: { code: 'refund_failed', reason: 'failed', message: 'Opn could not refund' },
      };
    }
    // `closed` (done) or no status (API versions before refund statuses): Opn made the refund.
    return { status: 'succeeded', reference };
  }

  private providerError(err: unknown): Error {
    const facts = failureFacts(err);
    if (!facts) return err as Error;
    return new OpnCollectionError(facts.message, facts.opnCode, facts.retryable, facts.outcomeUnknown);
  }
}
