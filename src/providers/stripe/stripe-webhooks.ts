import Stripe from 'stripe';
import type { ProviderKyb } from '../ports/connect.port.js';
import { StripeCollectionProvider } from './stripe-collection.provider.js';
import { stripeKyb } from './stripe-connect.provider.js';
import { StripeTransferProvider } from './stripe-transfer.provider.js';

/** A verified Stripe event in the service's normalized shape (as OpnNotice). */
export interface StripeNotice {
  /** Stripe's event id (`evt_…`): the idempotency key for applying the notice. */
  provider_event_id: string;
  /** Stripe's event type: `payment_intent.succeeded`, `refund.updated`, `payout.failed`, … */
  kind: string;
  /** The object's reference as the adapters store it: `pi_…`, `re_…`, `acct_…/po_…`. */
  reference: string;
  /** `verified` / `rejected` / `pending`: a Connect account's KYB (`account.updated`). */
  status: 'succeeded' | 'failed' | 'pending' | 'in_transit' | 'paid' | 'canceled' | 'verified' | 'rejected' | 'ignored';
  livemode: boolean;
  /** A failed payout's reason (`account_closed`, …). */
  failure?: { code: string; message: string };
  /** A Connect account's KYB as Stripe states it (`account.updated`; reference `acct_…`). */
  kyb?: ProviderKyb;
}

/** The signature does not verify (forged, wrong secret, too old): answer 400, never apply it. */
export class StripeWebhookRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StripeWebhookRejected';
  }
}

const PAYMENT_KINDS = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'payment_intent.processing',
  'payment_intent.requires_action',
]);

/**
 * Inbound Stripe webhooks, verified with `stripe.webhooks.constructEvent` (HMAC-SHA256 of the raw
 * body with the endpoint's `whsec_…`, timestamp tolerance 300 s). The raw bytes must reach here
 * unparsed. A replay inside the tolerance verifies again and yields the same notice: the caller
 * deduplicates on `provider_event_id`. Nothing is fetched from Stripe.
 */
export class StripeWebhooks {
  private readonly collection: StripeCollectionProvider;
  private readonly transfers: StripeTransferProvider;

  constructor(
    private readonly stripe: Stripe,
    private readonly webhookSecret: string,
    private readonly toleranceSeconds = 300,
  ) {
    this.collection = new StripeCollectionProvider(stripe, { returnUri: () => '', promptPayEmail: () => '' });
    this.transfers = new StripeTransferProvider(stripe, { connectedAccount: () => null });
  }

  parse(rawBody: string | Buffer, signatureHeader: string | string[] | undefined): StripeNotice {
    if (typeof signatureHeader !== 'string' || !signatureHeader) {
      throw new StripeWebhookRejected('the Stripe-Signature header is missing');
    }
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader, this.webhookSecret, this.toleranceSeconds);
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
      ...this.describe(event),
    };
  }

  private describe(event: Stripe.Event): Pick<StripeNotice, 'reference' | 'status' | 'failure' | 'kyb'> {
    const object = event.data.object as unknown as { object: string; id: string };
    if (object.object === 'payment_intent') {
      const payment = this.collection.toPayment(object as unknown as Stripe.PaymentIntent);
      return { reference: payment.reference, status: PAYMENT_KINDS.has(event.type) ? payment.status : 'ignored' };
    }
    if (object.object === 'refund') {
      const refund = this.collection.toRefund(object as unknown as Stripe.Refund);
      return { reference: refund.reference, status: refund.status };
    }
    if (object.object === 'payout') {
      // Connect events name the account in `event.account`; platform payouts have none.
      const transfer = this.transfers.toTransfer(object as unknown as Stripe.Payout, event.account ?? 'platform');
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
