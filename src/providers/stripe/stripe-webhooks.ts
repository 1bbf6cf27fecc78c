import type { IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import type { Mode } from '../../common/context/principal.js';
import { describeDispute } from '../ports/dispute.port.js';
import {
  WebhookNotConfigured,
  WebhookRejected,
  type ProviderNotice,
  type ProviderWebhooks,
} from '../ports/webhook.port.js';
import { StripeCollectionProvider } from './stripe-collection.provider.js';
import { stripeKyb } from './stripe-connect.provider.js';
import { toProviderDispute } from './stripe-disputes.js';
import { StripeTransferProvider } from './stripe-transfer.provider.js';

/** The signature does not verify (forged, wrong secret, too old): answer 400, never apply it. */
export class StripeWebhookRejected extends WebhookRejected {
  constructor(message: string) {
    super(message);
    this.name = 'StripeWebhookRejected';
  }
}

/** One mode's Stripe client and the signing secret of that mode's webhook endpoint (null: none set). */
export interface StripeWebhookMode {
  stripe: Stripe;
  webhookSecret: string | null;
}

const PAYMENT_KINDS = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'payment_intent.processing',
  'payment_intent.requires_action',
]);

/** What verifies one mode's events: its client and secret, and the adapters whose mappings describe the object. */
interface ModeVerifier {
  stripe: Stripe;
  webhookSecret: string;
  collection: StripeCollectionProvider;
  transfers: StripeTransferProvider;
}

/**
 * Inbound Stripe webhooks, verified with `stripe.webhooks.constructEvent` (HMAC-SHA256 of the raw
 * body with the mode's endpoint secret `whsec_…`, timestamp tolerance 300 s). The raw bytes must
 * reach here unparsed. The body's `livemode` picks the secret; a body lying about it does not
 * verify. A replay inside the tolerance verifies again and yields the same notice: the caller
 * deduplicates on `provider_event_id`. Nothing is fetched from Stripe.
 */
export class StripeWebhooks implements ProviderWebhooks {
  private readonly verifiers: Partial<Record<Mode, ModeVerifier>> = {};

  constructor(
    modes: Partial<Record<Mode, StripeWebhookMode>>,
    private readonly toleranceSeconds = 300,
  ) {
    for (const [mode, { stripe, webhookSecret }] of Object.entries(modes) as Array<[Mode, StripeWebhookMode]>) {
      if (!webhookSecret) continue;
      this.verifiers[mode] = {
        stripe,
        webhookSecret,
        collection: new StripeCollectionProvider(stripe, { returnUri: () => '', promptPayEmail: () => '' }),
        transfers: new StripeTransferProvider(stripe, { connectedAccount: () => null }),
      };
    }
  }

  claimedMode(rawBody: Buffer): Mode {
    if (rawBody.length === 0) throw new StripeWebhookRejected('The body is not a Stripe event');
    let livemode: unknown;
    try {
      livemode = (JSON.parse(rawBody.toString('utf8')) as { livemode?: unknown } | null)?.livemode;
    } catch {
      livemode = undefined;
    }
    if (typeof livemode !== 'boolean') throw new StripeWebhookRejected('The body is not a Stripe event (no livemode)');
    return livemode ? 'live' : 'test';
  }

  async verify(rawBody: Buffer, headers: IncomingHttpHeaders, mode: Mode): Promise<ProviderNotice> {
    const verifier = this.verifiers[mode];
    if (!verifier) {
      throw new WebhookNotConfigured(
        `Stripe has no ${mode}-mode keys or STRIPE_WEBHOOK_SECRET_${mode.toUpperCase()} here`,
      );
    }
    const signature = headers['stripe-signature'];
    if (typeof signature !== 'string' || !signature) {
      throw new StripeWebhookRejected('the Stripe-Signature header is missing');
    }
    let event: Stripe.Event;
    try {
      event = verifier.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        verifier.webhookSecret,
        this.toleranceSeconds,
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeSignatureVerificationError || err instanceof SyntaxError) {
        throw new StripeWebhookRejected('the Stripe signature does not verify');
      }
      throw err;
    }
    return {
      provider_event_id: event.id,
      kind: event.type,
      livemode: event.livemode === true,
      ...this.describe(verifier, event),
    };
  }

  private describe(
    verifier: ModeVerifier,
    event: Stripe.Event,
  ): Pick<ProviderNotice, 'reference' | 'status' | 'failure' | 'kyb' | 'dispute'> {
    const object = event.data.object as unknown as { object: string; id: string };
    if (object.object === 'dispute' && event.type.startsWith('charge.dispute.')) {
      // created, updated, closed, funds_withdrawn, funds_reinstated: each carries the dispute as it stands.
      return describeDispute(object.id, () => toProviderDispute(object as unknown as Stripe.Dispute));
    }
    if (object.object === 'payment_intent') {
      const payment = verifier.collection.toPayment(object as unknown as Stripe.PaymentIntent);
      return {
        reference: payment.reference,
        status: PAYMENT_KINDS.has(event.type) ? noticeStatus(payment) : 'ignored',
      };
    }
    if (object.object === 'refund') {
      const refund = verifier.collection.toRefund(object as unknown as Stripe.Refund);
      return { reference: refund.reference, status: refund.status };
    }
    if (object.object === 'payout') {
      // Connect events name the account in `event.account`; platform payouts have none.
      const transfer = verifier.transfers.toTransfer(object as unknown as Stripe.Payout, event.account ?? 'platform');
      return {
        reference: event.account ? transfer.reference : object.id,
        status: transfer.status,
        ...(transfer.failure ? { failure: transfer.failure } : {}),
      };
    }
    if (object.object === 'account' && event.type === 'account.updated') {
      // Connect: https://docs.stripe.com/api/events/types#event_types-account.updated
      const kyb = stripeKyb(object as unknown as Stripe.Account);
      return { reference: object.id, status: kyb.status, kyb };
    }
    return { reference: object.id, status: 'ignored' };
  }
}

/**
 * An authorization (manual capture) is reported as `pending`: the notice records the reference, and
 * the authorization is applied where the charge is read back (the 3-D Secure return, the
 * reconciliation job), which know manual capture.
 */
function noticeStatus(payment: { status: ProviderNotice['status'] | 'authorized' }): ProviderNotice['status'] {
  return payment.status === 'authorized' ? 'pending' : payment.status;
}
