import { Webhook } from 'standardwebhooks';
import type { Event } from './entities/event.entity.js';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { toEventResponse } from './events.responses.js';
import { nextRetryAt } from './retry-schedule.js';
import type { AddressPolicy } from './webhook-url.js';
import { DELIVERY_TIMEOUT_MS, postWebhook, type SendResult } from './webhook-sender.js';
import type { ClaimedDelivery } from './webhooks.repository.js';

/** One attempt's outcome, for the delivery job to record. */
export interface Outcome {
  claimed: ClaimedDelivery;
  event: Event;
  endpoint: WebhookEndpoint;
  result: SendResult;
  ok: boolean;
  /** The next attempt; null when it succeeded or the retry window is over. */
  retryAt: Date | null;
  at: Date;
}

/** One signed HTTP attempt of a claimed delivery, with no transaction open and no row locked. */
export async function attemptDelivery(
  claimed: ClaimedDelivery,
  event: Event,
  endpoint: WebhookEndpoint,
  policy: AddressPolicy,
  now: () => Date,
): Promise<Outcome> {
  const payload = JSON.stringify(toEventResponse(event));
  const sentAt = now();
  const result = await postWebhook(
    endpoint.url,
    payload,
    {
      'user-agent': 'wallet-webhooks/1',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signatures(endpoint, event.id, sentAt, payload),
    },
    policy,
    DELIVERY_TIMEOUT_MS,
  );
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const at = now();
  const retryAt = ok ? null : nextRetryAt(claimed.attempts, claimed.retry_window_from, at);
  return { claimed, event, endpoint, result, ok, retryAt, at };
}

/**
 * `v1,<sig>` with the current secret, and during a rotation's overlap also with the previous one,
 * space-separated as Standard Webhooks allows: receivers holding either secret verify.
 */
function signatures(endpoint: WebhookEndpoint, msgId: string, at: Date, payload: string): string {
  const current = new Webhook(endpoint.secret).sign(msgId, at, payload);
  const previous =
    endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > at
      ? new Webhook(endpoint.previous_secret).sign(msgId, at, payload)
      : null;
  return previous ? `${current} ${previous}` : current;
}
