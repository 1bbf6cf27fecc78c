import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import { Clock } from '../../common/clock.js';
import type { Mode, Principal } from '../../common/context/principal.js';
import { isEventType } from '../../common/events/event-types.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import type { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './dto/webhook-endpoint.dto.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { EventErrors } from './events.errors.js';
import {
  toWebhookAttemptResponse,
  toWebhookEndpointResponse,
  type WebhookAttemptResponse,
  type WebhookEndpointResponse,
} from './events.responses.js';
import { ATTEMPT_LIST, EventsService } from './events.service.js';
import type { AllConfig } from '../../config/app.config.js';
import { addressPolicy, assertWebhookUrl, type AddressPolicy } from './webhook-url.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

export const WEBHOOK_ENDPOINT_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    status: { type: 'text', values: ['enabled', 'disabled'] },
    created_at: { type: 'timestamp' },
    updated_at: { type: 'timestamp' },
  },
  sortable: ['created_at'],
  search: ['id', 'url', 'description'],
};

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly events: EventsService,
    private readonly clock: Clock,
    private readonly config: ConfigService<AllConfig, true>,
    private readonly audit: AuditRecorder,
  ) {}

  /** Which addresses endpoints of `mode` may target, at registration and at every delivery. */
  policy(mode: Mode): AddressPolicy {
    return addressPolicy(mode, this.config.get('app.webhookAllowPrivateTargets', { infer: true }));
  }

  async create(principal: Principal, dto: CreateWebhookEndpointDto): Promise<WebhookEndpointResponse> {
    const url = await assertWebhookUrl(dto.url, principal.mode, this.policy(principal.mode));
    const now = this.clock.now();
    const secret = newWebhookSecret();
    const endpoint = Object.assign(new WebhookEndpoint(), {
      id: newId(),
      application_id: principal.application.id,
      url: url.toString(),
      description: dto.description ?? null,
      enabled_events: enabledEvents(dto.enabled_events),
      status: 'enabled',
      disabled_reason: null,
      disabled_at: null,
      secret,
      previous_secret: null,
      previous_secret_expires_at: null,
      metadata: dto.metadata ?? {},
      created_at: now,
      updated_at: now,
    });
    const saved = await this.webhooks.transaction(async (manager) => {
      const inserted = await this.webhooks.insertEndpoint(endpoint, manager);
      await this.audit.record(manager, {
        applicationId: principal.application.id,
        action: 'webhook_endpoint.created',
        target: { type: 'webhook_endpoint', id: inserted.id },
        after: configurationOf(inserted),
      });
      return inserted;
    });
    return toWebhookEndpointResponse(saved, secret);
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<WebhookEndpointResponse>> {
    return runList(this.webhooks.endpoints(principal.application.id), WEBHOOK_ENDPOINT_LIST, query, (w) =>
      toWebhookEndpointResponse(w),
    );
  }

  async retrieve(principal: Principal, id: string): Promise<WebhookEndpointResponse> {
    return toWebhookEndpointResponse(await this.get(principal, id));
  }

  async update(principal: Principal, id: string, dto: UpdateWebhookEndpointDto): Promise<WebhookEndpointResponse> {
    const applicationId = principal.application.id;
    const url =
      dto.url !== undefined
        ? (await assertWebhookUrl(dto.url, principal.mode, this.policy(principal.mode))).toString()
        : undefined;
    const events = dto.enabled_events !== undefined ? enabledEvents(dto.enabled_events) : undefined;
    await this.webhooks.transaction(async (manager) => {
      const endpoint = await this.lock(principal, id, manager);
      const now = this.clock.now();
      const changes: Partial<WebhookEndpoint> = { updated_at: now };
      if (url !== undefined) changes.url = url;
      if (events !== undefined) changes.enabled_events = events;
      if (dto.description !== undefined) changes.description = dto.description;
      if (dto.metadata !== undefined) changes.metadata = dto.metadata;
      if (dto.disabled === true && endpoint.status === 'enabled') {
        Object.assign(changes, { status: 'disabled', disabled_at: now, disabled_reason: 'Disabled through the API.' });
        await this.webhooks.cancelPending(endpoint.id, now, manager);
      } else if (dto.disabled === false && endpoint.status === 'disabled') {
        Object.assign(changes, { status: 'enabled', disabled_at: null, disabled_reason: null });
      }
      await this.webhooks.updateEndpoint(applicationId, id, changes, manager);
      const before = configurationOf(endpoint);
      const after = configurationOf(Object.assign(new WebhookEndpoint(), endpoint, changes));
      const changed = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
      await this.audit.record(manager, {
        applicationId,
        action: 'webhook_endpoint.updated',
        target: { type: 'webhook_endpoint', id },
        before: Object.fromEntries(changed.map((k) => [k, before[k]])),
        after: Object.fromEntries(changed.map((k) => [k, after[k]])),
      });
    });
    return this.retrieve(principal, id);
  }

  async remove(principal: Principal, id: string): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
    await this.webhooks.transaction(async (manager) => {
      const endpoint = await this.lock(principal, id, manager);
      await this.webhooks.deleteEndpoint(principal.application.id, id, manager);
      await this.audit.record(manager, {
        applicationId: principal.application.id,
        action: 'webhook_endpoint.deleted',
        target: { type: 'webhook_endpoint', id },
        before: configurationOf(endpoint),
      });
    });
    return { id, object: 'webhook_endpoint', deleted: true };
  }

  /** A new secret, shown once; the old one keeps signing beside it for SECRET_OVERLAP_MS. */
  async rotateSecret(principal: Principal, id: string): Promise<WebhookEndpointResponse> {
    const secret = newWebhookSecret();
    await this.webhooks.transaction(async (manager) => {
      const endpoint = await this.lock(principal, id, manager);
      const now = this.clock.now();
      await this.webhooks.updateEndpoint(
        principal.application.id,
        id,
        {
          secret,
          previous_secret: endpoint.secret,
          previous_secret_expires_at: new Date(now.getTime() + SECRET_OVERLAP_MS),
          updated_at: now,
        },
        manager,
      );
      // Which secret is never written: only that it changed, and until when the old one signs
      // (`overlap_until`: a key naming "secret" would be removed as one).
      await this.audit.record(manager, {
        applicationId: principal.application.id,
        action: 'webhook_endpoint.secret_rotated',
        target: { type: 'webhook_endpoint', id },
        metadata: { overlap_until: new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString() },
      });
    });
    return toWebhookEndpointResponse(await this.get(principal, id), secret);
  }

  async attempts(principal: Principal, id: string, query: ListQuery): Promise<ListEnvelope<WebhookAttemptResponse>> {
    await this.get(principal, id);
    const qb = this.webhooks.attempts(principal.application.id, { endpoint_id: id });
    return runList(qb, ATTEMPT_LIST, query, toWebhookAttemptResponse);
  }

  /**
   * Disables an endpoint whose deliveries failed for the whole retry window, says why on the
   * endpoint, cancels what it is still owed and records a `webhook_endpoint.disabled` event.
   */
  async disableForFailures(endpoint: WebhookEndpoint, reason: string, manager: EntityManager): Promise<void> {
    const now = this.clock.now();
    await this.webhooks.updateEndpoint(
      endpoint.application_id,
      endpoint.id,
      { status: 'disabled', disabled_at: now, disabled_reason: reason, updated_at: now },
      manager,
    );
    await this.webhooks.cancelPending(endpoint.id, now, manager);
    const disabled = Object.assign(new WebhookEndpoint(), endpoint, {
      status: 'disabled',
      disabled_at: now,
      disabled_reason: reason,
      updated_at: now,
    });
    await this.events.record(manager, {
      applicationId: endpoint.application_id,
      type: 'webhook_endpoint.disabled',
      object: toWebhookEndpointResponse(disabled),
      previous_attributes: { status: 'enabled', disabled_at: null, disabled_reason: null },
      request: null,
    });
  }

  /**
   * Test mode: disables an enabled endpoint as 3 days of failed deliveries would
   * ({@link disableForFailures}: the reason on the endpoint, what it is owed canceled,
   * `webhook_endpoint.disabled`), so a partner can see that event without failing for 3 days.
   */
  async disableForTest(principal: Principal, id: string): Promise<WebhookEndpointResponse> {
    await this.webhooks.transaction(async (manager) => {
      const endpoint = await this.lock(principal, id, manager);
      if (endpoint.status === 'disabled')
        throw new AppError(EventErrors.E5111, `Webhook endpoint "${id}" is already disabled.`);
      await this.disableForFailures(
        endpoint,
        'Deliveries failed for 3 days (simulated in test mode: POST /test_helpers/webhook_endpoints/{id}/disable).',
        manager,
      );
    });
    return this.retrieve(principal, id);
  }

  private async get(principal: Principal, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.webhooks.findEndpoint(principal.application.id, id);
    if (!endpoint) throw new AppError(Errors.E4004, `No webhook endpoint with id "${id}".`);
    return endpoint;
  }

  private async lock(principal: Principal, id: string, manager: EntityManager): Promise<WebhookEndpoint> {
    const endpoint = await this.webhooks.findEndpoint(principal.application.id, id, manager, true);
    if (!endpoint) throw new AppError(Errors.E4004, `No webhook endpoint with id "${id}".`);
    return endpoint;
  }
}

/** `*` alone, or known types without repeats (E5108 names the first unknown one). */
function enabledEvents(requested: string[]): string[] {
  const unknown = requested.find((t) => t !== '*' && !isEventType(t));
  if (unknown !== undefined) {
    throw new AppError(
      EventErrors.E5108,
      `enabled_events names "${String(unknown).slice(0, 100)}", which is no event type.`,
    );
  }
  return requested.includes('*') ? ['*'] : [...new Set(requested)];
}

/** An endpoint's configuration as the audit log keeps it: its settings, never its secrets. */
function configurationOf(endpoint: WebhookEndpoint): Record<string, unknown> {
  return {
    url: endpoint.url,
    description: endpoint.description,
    enabled_events: endpoint.enabled_events,
    status: endpoint.status,
    metadata: endpoint.metadata,
  };
}
