import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { returnedRows } from '../../common/database/returned-rows.js';
import { isUuid, newId } from '../../common/ids.js';
import { Event } from './entities/event.entity.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import type { WebhookDeliveryStatus } from './entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { claimDueSql, INTERRUPTED, recordOutcomesSql } from './webhook-claims.sql.js';

/**
 * A delivery claimed for one attempt: `attempts` (after the claim) fences the outcome's write;
 * `attempt_id` is the attempt's row in the log, written as `sending` with the claim.
 */
export interface ClaimedDelivery {
  endpoint_id: string;
  event_id: string;
  application_id: string;
  event_type: string;
  attempts: number;
  retry_window_from: Date;
  attempt_id: string;
}

/** A claimed delivery with what its attempt needs, loaded by the claim (null when gone since). */
export type StartedDelivery = ClaimedDelivery & { event: Event | null; endpoint: WebhookEndpoint | null };

/** One finished attempt: what its row in the log says, and what becomes of its delivery. */
export interface AttemptOutcome {
  claimed: ClaimedDelivery;
  attempt: Pick<
    WebhookAttempt,
    'outcome' | 'status_code' | 'duration_ms' | 'response_excerpt' | 'error' | 'next_retry_at'
  >;
  delivery: { status: WebhookDeliveryStatus; delivered_at: Date | null };
}

type Written = { endpoint_id: string; event_id: string };
type Json = Record<string, unknown>;

/** A timestamp column read through `to_jsonb` (an ISO string), as the entity's Date. */
const date = (value: unknown): Date => (value == null ? (null as unknown as Date) : new Date(value as string));

@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  // Endpoints

  endpoints(applicationId: string): SelectQueryBuilder<WebhookEndpoint> {
    return this.db
      .repository(WebhookEndpoint)
      .createQueryBuilder('w')
      .where('w.application_id = :applicationId', { applicationId });
  }

  findEndpoint(applicationId: string, id: string, manager?: EntityManager, lock = false) {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(WebhookEndpoint, manager).findOne({
      where: { application_id: applicationId, id },
      ...(lock && manager ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  enabledEndpoints(applicationId: string): Promise<WebhookEndpoint[]> {
    return this.db.repository(WebhookEndpoint).findBy({ application_id: applicationId, status: 'enabled' });
  }

  countEndpoints(applicationId: string): Promise<number> {
    return this.db.repository(WebhookEndpoint).countBy({ application_id: applicationId });
  }

  async insertEndpoint(endpoint: WebhookEndpoint, manager?: EntityManager): Promise<WebhookEndpoint> {
    const repo = this.db.repository(WebhookEndpoint, manager);
    return repo.save(repo.create(endpoint));
  }

  async updateEndpoint(
    applicationId: string,
    id: string,
    changes: Partial<WebhookEndpoint>,
    manager?: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(WebhookEndpoint, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<WebhookEndpoint>);
  }

  async deleteEndpoint(applicationId: string, id: string, manager?: EntityManager): Promise<void> {
    await this.db.repository(WebhookEndpoint, manager).delete({ application_id: applicationId, id });
  }

  // Deliveries

  /** Cancels what is still owed to a disabled endpoint: re-enabling it does not replay old events. */
  async cancelPending(endpointId: string, now: Date, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE ${this.db.table('webhook_deliveries')} SET status = 'canceled', next_attempt_at = NULL, updated_at = $2
        WHERE endpoint_id = $1 AND status = 'pending'`,
      [endpointId, now],
    );
  }

  /**
   * Starts attempts: claims up to `max` due deliveries, as many per endpoint as its free slots
   * allow, and logs each attempt as `sending` before it is sent (webhook-claims.sql.ts).
   * `limits.busy` and `limits.skip` say which endpoints have attempts in flight here or take none
   * now; `applicationIds` narrows it (tests).
   */
  async startDue(
    now: Date,
    leaseUntil: Date,
    limits: { slots: number; busy: ReadonlyMap<string, number>; skip: readonly string[] },
    max: number,
    applicationIds: readonly string[] | null = null,
  ): Promise<StartedDelivery[]> {
    const rows = (await this.db.manager.query(
      claimDueSql(
        this.db.table('webhook_deliveries'),
        this.db.table('webhook_attempts'),
        this.db.table('events'),
        this.db.table('webhook_endpoints'),
      ),
      [
        now,
        leaseUntil,
        limits.slots,
        [...limits.busy.keys()],
        [...limits.busy.values()],
        limits.skip,
        applicationIds,
        Array.from({ length: max }, newId),
        INTERRUPTED,
      ],
    )) as Array<ClaimedDelivery & { event: Json | null; endpoint: Json | null }>;
    const livemode = this.db.livemode;
    return rows.map((r) => ({
      ...r,
      retry_window_from: new Date(r.retry_window_from),
      event: r.event && Object.assign(new Event(), r.event, { created_at: date(r.event.created_at), livemode }),
      endpoint:
        r.endpoint &&
        Object.assign(new WebhookEndpoint(), r.endpoint, {
          disabled_at: date(r.endpoint.disabled_at),
          previous_secret_expires_at: date(r.endpoint.previous_secret_expires_at),
          created_at: date(r.endpoint.created_at),
          updated_at: date(r.endpoint.updated_at),
        }),
    }));
  }

  /**
   * Completes attempts started by {@link startDue} and writes their deliveries' outcomes, holding
   * a failing endpoint's untried deliveries behind the failure (webhook-claims.sql.ts); returns the
   * `endpoint_id/event_id` of the deliveries written (not those claimed again since).
   */
  async recordOutcomes(rows: AttemptOutcome[], now: Date, manager?: EntityManager): Promise<Set<string>> {
    const result = (await (manager ?? this.db.manager).query(
      recordOutcomesSql(this.db.table('webhook_deliveries'), this.db.table('webhook_attempts')),
      [
        rows.map((r) => r.claimed.attempt_id),
        rows.map((r) => r.claimed.endpoint_id),
        rows.map((r) => r.claimed.event_id),
        rows.map((r) => r.claimed.attempts),
        rows.map((r) => r.attempt.outcome),
        rows.map((r) => r.attempt.status_code),
        rows.map((r) => r.attempt.duration_ms),
        rows.map((r) => r.attempt.response_excerpt),
        rows.map((r) => r.attempt.error),
        rows.map((r) => r.attempt.next_retry_at),
        rows.map((r) => r.delivery.status),
        rows.map((r) => r.delivery.delivered_at),
        now,
      ],
    )) as Written[] | [Written[], number];
    const written = returnedRows<Written>(result);
    return new Set(written.map((w) => `${w.endpoint_id}/${w.event_id}`));
  }

  /** Owes the event to the endpoint again, due now, with a fresh 3-day retry window. */
  async resend(
    endpoint: WebhookEndpoint,
    event: { id: string; type: string; created_at: Date },
    now: Date,
    manager?: EntityManager,
  ): Promise<void> {
    // Partitioned by the event's created_at (migration EventPartitions): an event has one, so the
    // conflict target names the delivery exactly as (endpoint_id, event_id) did.
    await (manager ?? this.db.manager).query(
      `INSERT INTO ${this.db.table('webhook_deliveries')}
         (endpoint_id, event_id, application_id, event_type, status, attempts, next_attempt_at, retry_window_from,
          created_at, updated_at, event_created_at)
       VALUES ($1, $2, $3, $4, 'pending', 0, $5, $5, $5, $5, $6)
       ON CONFLICT (endpoint_id, event_id, event_created_at) DO UPDATE
         SET status = 'pending', next_attempt_at = $5, retry_window_from = $5, updated_at = $5`,
      [endpoint.id, event.id, endpoint.application_id, event.type, now, event.created_at],
    );
  }

  // Attempts

  attempts(applicationId: string, by: { endpoint_id: string } | { event_id: string }) {
    const [column, value] = 'endpoint_id' in by ? ['endpoint_id', by.endpoint_id] : ['event_id', by.event_id];
    return this.db
      .repository(WebhookAttempt)
      .createQueryBuilder('a')
      .where(`a.application_id = :applicationId AND a.${column} = :value`, { applicationId, value });
  }
}
