import type { IncomingHttpHeaders } from 'node:http';
import type { Mode } from '../../common/context/principal.js';
import type { ProviderKyb } from './connect.port.js';
import type { ProviderDispute } from './dispute.port.js';

/** A verified provider event in the service's vocabulary, whichever provider sent it. */
export interface ProviderNotice {
  /** The provider's event id (`evnt_…`, `evt_…`): the idempotency key for applying the notice. */
  provider_event_id: string;
  /** The provider's event kind: `charge.complete`, `payment_intent.succeeded`, `refund.create`, `payout.paid`, … */
  kind: string;
  /** The object's reference as the adapters store it (charge, refund, payout or account reference). */
  reference: string;
  /** The object's state in the ports' vocabulary; `disputed` for a dispute; `ignored` for kinds the service does not act on. */
  status:
    | 'succeeded'
    | 'failed'
    | 'pending'
    | 'in_transit'
    | 'paid'
    | 'canceled'
    | 'verified'
    | 'rejected'
    | 'disputed'
    | 'ignored';
  livemode: boolean;
  /** A failed transfer's reason, payout style (`invalid_account_number`, `account_closed`, …). */
  failure?: { code: string; message: string };
  /** A provider account's KYB (a Connect `account.updated`). */
  kyb?: ProviderKyb;
  /** A dispute notice (`disputed`): the provider's dispute as the verified event carries it. */
  dispute?: ProviderDispute;
}

/**
 * The inbound webhook port, one per provider for both modes (each mode has its own keys). The
 * service reads nothing of a delivery but through it: verifying stays in the adapter, applying
 * stays in the module that owns the object.
 */
export interface ProviderWebhooks {
  /**
   * The mode whose keys can verify this delivery, as its unverified body claims it. It only picks
   * the key: a body lying about its mode does not verify with that mode's key. Throws
   * WebhookRejected when the body is not an event of this provider.
   */
  claimedMode(rawBody: Buffer): Mode;
  /**
   * Verifies the delivery with `mode`'s keys and describes it. Throws WebhookNotConfigured (no
   * keys for `mode`), WebhookRejected (forged, tampered, unknown to the provider) or
   * WebhookUnverifiable (the provider could not be asked).
   */
  verify(rawBody: Buffer, headers: IncomingHttpHeaders, mode: Mode): Promise<ProviderNotice>;
}

/**
 * The delivery is not believable (not this provider's event, forged, tampered, unknown to the
 * provider): answer 400 and change nothing. The messages of this port's errors are the sentence the
 * sender gets back.
 */
export class WebhookRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookRejected';
  }
}

/** The provider could not be asked to verify the delivery: answer 503, and it delivers again. */
export class WebhookUnverifiable extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** Why, for the log (the provider's failure), never for the sender. */
    readonly reason: string,
  ) {
    super(message);
    this.name = 'WebhookUnverifiable';
  }
}

/** The service has no keys (or no webhook secret) for this provider in that mode. */
export class WebhookNotConfigured extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookNotConfigured';
  }
}
