import type { IncomingHttpHeaders } from 'node:http';
import type { Mode } from '../../common/context/principal.js';
import { describeDispute } from '../ports/dispute.port.js';
import {
  WebhookNotConfigured,
  WebhookRejected,
  WebhookUnverifiable,
  type ProviderNotice,
  type ProviderWebhooks,
} from '../ports/webhook.port.js';
import { OpnCollectionProvider } from './opn-collection.provider.js';
import { toProviderDispute, type OpnDispute } from './opn-disputes.js';
import { OpnApiError, type OpnClient, type OpnObject } from './opn-client.js';
import { failureFacts } from './opn-errors.js';
import { OpnTransferProvider } from './opn-transfer.provider.js';

/** The webhook is not believable: no event id, or an id Opn does not know (forged). */
export class OpnWebhookRejected extends WebhookRejected {
  constructor(message: string) {
    super(message);
    this.name = 'OpnWebhookRejected';
  }
}

/** Opn could not be asked about the event: answer the webhook with a 5xx so Opn delivers it again. */
export class OpnWebhookUnverifiable extends WebhookUnverifiable {
  constructor(retryable: boolean, reason: string) {
    super('Opn could not be reached to verify the event', retryable, reason);
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

/** What reads one mode's events: its client, and the adapters whose mappings describe the event's object. */
interface ModeReader {
  client: OpnClient;
  collection: OpnCollectionProvider;
  transfers: OpnTransferProvider;
}

/**
 * Inbound Opn webhooks. Opn does not sign its webhooks the way Stripe does, so nothing in the
 * body is believed: only the event id is taken from it (`evnt_test_…` is a test-mode event), and
 * the event is read back from Opn (GET /events/{id}) with that mode's secret key. A forged body
 * names an id Opn does not know (404) and is rejected; a replayed one reads the same event and
 * yields the same notice, so the caller deduplicates on `provider_event_id`.
 */
export class OpnWebhooks implements ProviderWebhooks {
  private readonly readers: Partial<Record<Mode, ModeReader>> = {};

  constructor(clients: Partial<Record<Mode, OpnClient>>) {
    for (const [mode, client] of Object.entries(clients) as Array<[Mode, OpnClient]>) {
      this.readers[mode] = {
        client,
        collection: new OpnCollectionProvider(client, { returnUri: () => '' }),
        transfers: new OpnTransferProvider(client),
      };
    }
  }

  claimedMode(rawBody: Buffer): Mode {
    const id = (parseJson(rawBody) as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !id.startsWith('evnt_')) {
      throw new OpnWebhookRejected('The body is not an Opn event (no evnt_ id)');
    }
    return id.startsWith('evnt_test_') ? 'test' : 'live';
  }

  async verify(rawBody: Buffer, _headers: IncomingHttpHeaders, mode: Mode): Promise<ProviderNotice> {
    const reader = this.readers[mode];
    if (!reader) throw new WebhookNotConfigured(`Opn has no ${mode}-mode keys here`);
    const claimed = this.claimedId(rawBody);
    let event: OpnEvent;
    try {
      event = await reader.client.get<OpnEvent>(`/events/${claimed}`);
    } catch (err) {
      if (err instanceof OpnApiError && (err.httpStatus === 404 || err.code === 'not_found')) {
        throw new OpnWebhookRejected(`Opn does not know event ${claimed}`);
      }
      const facts = failureFacts(err);
      if (!facts) throw err;
      throw new OpnWebhookUnverifiable(facts.retryable, `event ${claimed}: ${facts.message}`);
    }
    if (event.object !== 'event' || event.id !== claimed || !event.data || typeof event.data.id !== 'string') {
      throw new OpnWebhookRejected(`Opn answered something else for event ${claimed}`);
    }
    return {
      provider_event_id: event.id,
      kind: event.key,
      livemode: event.livemode === true,
      ...this.describe(reader, event),
    };
  }

  private claimedId(rawBody: Buffer): string {
    const obj = parseJson(rawBody) as Record<string, unknown> | null;
    if (!obj || obj.object !== 'event' || typeof obj.id !== 'string' || !EVENT_ID.test(obj.id)) {
      throw new OpnWebhookRejected('the webhook body is not an Opn event');
    }
    return obj.id;
  }

  private describe(
    reader: ModeReader,
    event: OpnEvent,
  ): Pick<ProviderNotice, 'reference' | 'status' | 'failure' | 'dispute'> {
    const data = event.data;
    // dispute.create|update|close carry the dispute; charge.create|update a charge with its dispute.
    const dispute =
      event.key.startsWith('dispute.') && data.object === 'dispute'
        ? (data as OpnDispute)
        : event.key.startsWith('charge.') && event.key !== 'charge.complete' && isOpnDispute(data.dispute)
          ? { ...data.dispute, charge: data.dispute.charge ?? data.id }
          : null;
    if (dispute) return describeDispute(dispute.id, () => toProviderDispute(dispute));
    if (event.key.startsWith('charge.') && data.object === 'charge') {
      const payment = reader.collection.toPayment(data as Parameters<OpnCollectionProvider['toPayment']>[0]);
      const status = payment.status === 'authorized' ? 'pending' : payment.status;
      return { reference: payment.reference, status: event.key === 'charge.complete' ? status : 'ignored' };
    }
    if (event.key.startsWith('refund.') && data.object === 'refund') {
      const refund = reader.collection.toRefund(data as Parameters<OpnCollectionProvider['toRefund']>[0]);
      return { reference: refund.reference, status: refund.status };
    }
    if (event.key.startsWith('transfer.') && data.object === 'transfer') {
      const transfer = reader.transfers.toTransfer(data as Parameters<OpnTransferProvider['toTransfer']>[0]);
      return {
        reference: transfer.reference,
        status: transfer.status,
        ...(transfer.failure ? { failure: transfer.failure } : {}),
      };
    }
    return { reference: data.id, status: 'ignored' };
  }
}

function isOpnDispute(value: unknown): value is OpnDispute {
  return typeof value === 'object' && value !== null && (value as { object?: unknown }).object === 'dispute';
}

/** The body as JSON, or null when it is not JSON. */
function parseJson(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
}
