import type { Event } from './entities/event.entity.js';
import type { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The event as `GET /events/{id}` returns it and as every webhook delivery posts it. */
export function toEventResponse(e: Event) {
  return {
    id: e.id,
    object: 'event' as const,
    type: e.type,
    created: e.created_at.toISOString(),
    livemode: e.livemode,
    api_version: e.api_version,
    data: e.data,
    request: e.request,
  };
}

export type EventResponse = ReturnType<typeof toEventResponse>;

/** `secret` only in the answers that create it (creation, rotation). */
export function toWebhookEndpointResponse(w: WebhookEndpoint, secret: string | null = null) {
  return {
    id: w.id,
    object: 'webhook_endpoint' as const,
    livemode: w.livemode,
    url: w.url,
    description: w.description,
    enabled_events: w.enabled_events,
    status: w.status,
    disabled_reason: w.disabled_reason,
    disabled_at: iso(w.disabled_at),
    secret_rotation_overlap_until: iso(w.previous_secret_expires_at),
    metadata: w.metadata,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
    ...(secret ? { secret } : {}),
  };
}

export type WebhookEndpointResponse = ReturnType<typeof toWebhookEndpointResponse>;

/** Shown for an attempt still `sending` (in flight, or its process stopped before the answer was recorded). */
export const NO_ANSWER_YET = 'no answer recorded yet: the attempt is in flight';

/**
 * An attempt still in flight is shown as the API's outcomes allow: `failed` with no status code and
 * `error` saying no answer is recorded yet, until its answer replaces it.
 */
export function toWebhookAttemptResponse(a: WebhookAttempt) {
  const sending = a.outcome === 'sending';
  return {
    id: a.id,
    object: 'webhook_delivery_attempt' as const,
    livemode: a.livemode,
    webhook_endpoint_id: a.endpoint_id,
    event_id: a.event_id,
    event_type: a.event_type,
    attempt: a.attempt,
    outcome: sending ? ('failed' as const) : a.outcome,
    status_code: a.status_code,
    duration_ms: a.duration_ms,
    response_excerpt: a.response_excerpt,
    error: sending ? NO_ANSWER_YET : a.error,
    next_retry_at: iso(a.next_retry_at),
    created_at: a.created_at.toISOString(),
  };
}

export type WebhookAttemptResponse = ReturnType<typeof toWebhookAttemptResponse>;
