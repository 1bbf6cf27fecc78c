import { OpnCollectionProvider } from './opn-collection.provider.js';
import { OpnApiError, type OpnClient, type OpnObject } from './opn-client.js';
import { failureFacts } from './opn-errors.js';
import { OpnTransferProvider } from './opn-transfer.provider.js';

/** A provider event the service may apply, after Opn confirmed it exists. */
export interface OpnNotice {
  /** Opn's event id (`evnt_…`): the idempotency key for applying the notice. */
  provider_event_id: string;
  /** Opn's event key: `charge.complete`, `refund.create`, `transfer.create|update|send|pay|fail|destroy`, … */
  kind: string;
  /** The object's reference as the adapters store it: charge id, `charge/refund`, transfer id. */
  reference: string;
  /** The object's state in the port's vocabulary; `ignored` for event kinds the service does not act on. */
  status: 'succeeded' | 'failed' | 'pending' | 'in_transit' | 'paid' | 'canceled' | 'ignored';
  livemode: boolean;
  /** A failed transfer's reason, Stripe payout style (`invalid_account_number`, …). */
  failure?: { code: string; message: string };
}

/** The webhook is not believable: no event id, or an id Opn does not know (forged), or a key/mode mismatch. */
export class OpnWebhookRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpnWebhookRejected';
  }
}

/** Opn could not be asked about the event: answer the webhook with a 5xx so Opn delivers it again. */
export class OpnWebhookUnverifiable extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'OpnWebhookUnverifiable';
  }
}

interface OpnEvent extends OpnObject {
  id: string;
  key: string;
  livemode: boolean;
  data: OpnObject & { id: string; charge?: string };
}

const EVENT_ID = /^evnt_(test_)?[0-9a-z]+$/;

/**
 * Inbound Opn webhooks. Opn does not sign its webhooks the way Stripe does, so nothing in the
 * body is believed: only the event id is taken from it, and the event is read back from Opn
 * (GET /events/{id}) with the service's secret key. A forged body names an id Opn does not know
 * (404) and is rejected; a replayed one reads the same event and yields the same notice, so the
 * caller deduplicates on `provider_event_id`.
 */
export class OpnWebhooks {
  private readonly collection: OpnCollectionProvider;
  private readonly transfers: OpnTransferProvider;

  constructor(private readonly client: OpnClient) {
    this.collection = new OpnCollectionProvider(client, { returnUri: () => '' });
    this.transfers = new OpnTransferProvider(client);
  }

  async parse(body: string | Buffer | Record<string, unknown>): Promise<OpnNotice> {
    const claimed = this.claimedId(body);
    let event: OpnEvent;
    try {
      event = await this.client.get<OpnEvent>(`/events/${claimed}`);
    } catch (err) {
      if (err instanceof OpnApiError && (err.httpStatus === 404 || err.code === 'not_found')) {
        throw new OpnWebhookRejected(`Opn does not know event ${claimed}`);
      }
      const facts = failureFacts(err);
      if (!facts) throw err;
      throw new OpnWebhookUnverifiable(facts.message, facts.retryable);
    }
    if (event.object !== 'event' || event.id !== claimed || !event.data || typeof event.data.id !== 'string') {
      throw new OpnWebhookRejected(`Opn answered something else for event ${claimed}`);
    }
    return { provider_event_id: event.id, kind: event.key, livemode: event.livemode === true, ...this.describe(event) };
  }

  private claimedId(body: string | Buffer | Record<string, unknown>): string {
    let parsed: unknown = body;
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      try {
        parsed = JSON.parse(body.toString());
      } catch {
        throw new OpnWebhookRejected('the webhook body is not JSON');
      }
    }
    const obj = parsed as Record<string, unknown> | null;
    if (!obj || obj.object !== 'event' || typeof obj.id !== 'string' || !EVENT_ID.test(obj.id)) {
      throw new OpnWebhookRejected('the webhook body is not an Opn event');
    }
    return obj.id;
  }

  private describe(event: OpnEvent): Pick<OpnNotice, 'reference' | 'status' | 'failure'> {
    const data = event.data;
    if (event.key.startsWith('charge.') && data.object === 'charge') {
      const payment = this.collection.toPayment(data as Parameters<OpnCollectionProvider['toPayment']>[0]);
      return { reference: payment.reference, status: event.key === 'charge.complete' ? payment.status : 'ignored' };
    }
    if (event.key.startsWith('refund.') && data.object === 'refund') {
      const refund = this.collection.toRefund(data as Parameters<OpnCollectionProvider['toRefund']>[0]);
      return { reference: refund.reference, status: refund.status };
    }
    if (event.key.startsWith('transfer.') && data.object === 'transfer') {
      const transfer = this.transfers.toTransfer(data as Parameters<OpnTransferProvider['toTransfer']>[0]);
      return {
        reference: transfer.reference,
        status: transfer.status,
        ...(transfer.failure ? { failure: transfer.failure } : {}),
      };
    }
    return { reference: data.id, status: 'ignored' };
  }
}
