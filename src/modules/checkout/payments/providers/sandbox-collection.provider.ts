import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import generatePromptPayPayload from 'promptpay-qr';
import QRCode from 'qrcode';
import type { PaymentMethodType } from '../../checkout-rules.js';
import {
  CollectionProviderError,
  type CardDetails,
  type CardFacts,
  type CollectionProvider,
  type PaymentRequest,
  type ProviderFailure,
  type ProviderPayment,
  type ProviderRefund,
  type RefundRequest,
} from './collection-provider.js';

/** The sandbox's test cards (common practice); any other valid card number succeeds. */
const DECLINES: Record<string, ProviderFailure> = {
  '4000000000000002': { code: 'card_declined', reason: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': {
    code: 'card_declined',
    reason: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000000069': { code: 'expired_card', reason: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': {
    code: 'incorrect_cvc',
    reason: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  '4000000000000119': {
    code: 'processing_error',
    reason: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};
const DISPUTED_CARD = '4000000000000259';

/** Fee schedule in basis points of the amount, rounded half up, at least one minor unit. */
const FEE_BPS: Record<PaymentMethodType, number> = { card: 365, promptpay: 165 };

/**
 * The PromptPay proxy the sandbox collects to: a 15-digit e-Wallet ID, so the QR code is a real
 * EMVCo merchant-presented PromptPay payload that any Thai banking app can parse.
 */
export const SANDBOX_PROMPTPAY_ID = '004999000000001';

const BRANDS: Array<[RegExp, string]> = [
  [/^4/, 'visa'],
  [/^(5[1-5]|2[2-7])/, 'mastercard'],
  [/^3[47]/, 'amex'],
  [/^35/, 'jcb'],
  [/^(62|81)/, 'unionpay'],
  [/^(6011|65|64[4-9])/, 'discover'],
  [/^3(0[0-5]|[68])/, 'diners'],
];

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

  private readonly gates = new Map<string, Promise<void>>();

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
    return Math.max(1, Math.floor((amount * FEE_BPS[method] + 5_000) / 10_000));
  }

  describeCard(card: CardDetails, applicationId: string): CardFacts {
    return {
      brand: BRANDS.find(([pattern]) => pattern.test(card.number))?.[1] ?? 'unknown',
      last4: card.number.slice(-4),
      issuer: 'Sandbox Bank',
      // Same card, same application: same fingerprint; never reversible to the number.
      fingerprint: createHash('sha256').update(`${applicationId}:${card.number}`).digest('base64url').slice(0, 16),
    };
  }

  async chargeCard(request: PaymentRequest, card: CardDetails): Promise<ProviderPayment> {
    await this.answerAfterGate(request.applicationId);
    const reference = providerReference('ch');
    const failure = DECLINES[card.number];
    if (failure) return { status: 'failed', reference, failure };
    return { status: 'succeeded', reference, disputeAfterSuccess: card.number === DISPUTED_CARD };
  }

  async createPromptPay(request: PaymentRequest, expiresAt: Date): Promise<ProviderPayment> {
    await this.answerAfterGate(request.applicationId);
    const raw = generatePromptPayPayload(SANDBOX_PROMPTPAY_ID, { amount: request.amount / request.scalingFactor });
    const image = await QRCode.toDataURL(raw, { errorCorrectionLevel: 'M', margin: 2, width: 256 });
    const reference = providerReference('pp');
    return {
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
    };
  }

  async confirmPromptPay(reference: string): Promise<ProviderPayment> {
    return { status: 'succeeded', reference };
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

/** The sandbox's failing refund amount (minor units): a refund of exactly this amount is declined. */
export const SANDBOX_FAILING_REFUND_AMOUNT = 4004;

function providerReference(prefix: string): string {
  return `${prefix}_sbx_${randomBytes(12).toString('base64url')}`;
}
