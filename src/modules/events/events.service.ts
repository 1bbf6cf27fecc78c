import { currentTraceparent } from '../../common/observability/trace-context.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import type { Principal } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import { auditOfEvent } from '../../common/audit/audit-of-event.js';
import { EventRecorder, type RecordEvent } from '../../common/events/event-recorder.js';
import { EVENT_TYPES } from '../../common/events/event-types.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { FilterPatterns, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import type { ResendEventDto } from './dto/webhook-endpoint.dto.js';
import { EventErrors } from './events.errors.js';
import { EventsRepository } from './events.repository.js';
import {
  toEventResponse,
  toWebhookAttemptResponse,
  type EventResponse,
  type WebhookAttemptResponse,
} from './events.responses.js';
import { WebhooksRepository } from './webhooks.repository.js';

export const API_VERSION = 'v1';

export const EVENT_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    type: { type: 'text', values: Object.keys(EVENT_TYPES) },
    created: { type: 'timestamp', column: 'e.created_at' },
    created_at: { type: 'timestamp' },
  },
  sortable: ['created_at'],
  search: ['id', 'type'],
};

export const ATTEMPT_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    event_id: { type: 'uuid' },
    event_type: { type: 'text', pattern: FilterPatterns.word },
    outcome: { type: 'text', values: ['succeeded', 'failed'] },
    status_code: { type: 'integer' },
    created_at: { type: 'timestamp' },
  },
  sortable: ['created_at'],
  search: ['id', 'event_type'],
};

/**
 * The event log: `record` writes an event and what it owes each endpoint in the caller's
 * transaction (the transactional outbox); the delivery job sends it later.
 */
@Injectable()
export class EventsService extends EventRecorder {
  constructor(
    private readonly events: EventsRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly audit: AuditRecorder,
  ) {
    super();
  }

  async record(manager: EntityManager, input: RecordEvent): Promise<void> {
    const requestId = this.context.requestId;
    const request =
      input.request !== undefined
        ? input.request
        : requestId
          ? { id: requestId, idempotency_key: this.context.idempotencyKey }
          : null;
    await this.events.insertWithDeliveries(
      {
        id: newId(),
        application_id: input.applicationId,
        type: input.type,
        api_version: API_VERSION,
        data: {
          object: input.object as Record<string, unknown>,
          ...(input.previous_attributes ? { previous_attributes: input.previous_attributes } : {}),
        },
        request,
        created_at: this.clock.now(),
        traceparent: currentTraceparent(),
      },
      manager,
    );
    // A change made by a request is audited in its transaction too (docs/AUDIT.md): the one hook
    // every state change with an event passes. A job's changes (no request) are not audited.
    if (requestId) await this.audit.record(manager, auditOfEvent(input));
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<EventResponse>> {
    return runList(this.events.query(principal.application.id), EVENT_LIST, query, toEventResponse);
  }

  async retrieve(principal: Principal, id: string): Promise<EventResponse> {
    const event = await this.events.findById(principal.application.id, id);
    if (!event) throw new AppError(Errors.E4004, `No event with id "${id}".`);
    return toEventResponse(event);
  }

  async attempts(principal: Principal, id: string, query: ListQuery): Promise<ListEnvelope<WebhookAttemptResponse>> {
    await this.retrieve(principal, id);
    const qb = this.webhooks.attempts(principal.application.id, { event_id: id });
    return runList(qb, ATTEMPT_LIST, query, toWebhookAttemptResponse);
  }

  /**
   * Sends the event again, now, to one endpoint (enabled) or to every enabled endpoint it matches;
   * the same `webhook-id` (the event id) as its first delivery, so receivers can deduplicate.
   */
  async resend(principal: Principal, id: string, dto: ResendEventDto): Promise<EventResponse> {
    const applicationId = principal.application.id;
    const event = await this.events.findById(applicationId, id);
    if (!event) throw new AppError(Errors.E4004, `No event with id "${id}".`);
    let endpoints;
    if (dto.webhook_endpoint_id) {
      const endpoint = await this.webhooks.findEndpoint(applicationId, dto.webhook_endpoint_id);
      if (!endpoint) throw new AppError(Errors.E4004, `No webhook endpoint with id "${dto.webhook_endpoint_id}".`);
      if (endpoint.status !== 'enabled') {
        throw new AppError(EventErrors.E5109, `Webhook endpoint "${endpoint.id}" is disabled.`);
      }
      endpoints = [endpoint];
    } else {
      endpoints = (await this.webhooks.enabledEndpoints(applicationId)).filter(
        (w) => w.enabled_events.includes('*') || w.enabled_events.includes(event.type),
      );
    }
    const now = this.clock.now();
    await this.webhooks.transaction(async (manager) => {
      for (const endpoint of endpoints) await this.webhooks.resend(endpoint, event, now, manager);
      await this.audit.record(manager, {
        applicationId,
        action: 'event.resent',
        target: { type: 'event', id: event.id },
        metadata: { webhook_endpoint_ids: endpoints.map((e) => e.id) },
      });
    });
    return toEventResponse(event);
  }
}
