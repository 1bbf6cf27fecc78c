import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid, newId } from '../../common/ids.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import type { WebhookDeliveryStatus } from './entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { claimDueSql } from './webhook-claims.sql.js';

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

type Claimed = Omit<ClaimedDelivery, 'attempt_id'>;

/** What an attempt's row says once the receiver answered (or did not). */
export type AttemptResult = Pick<
  WebhookAttempt,
  'id' | 'outcome' | 'status_code' | 'duration_ms' | 'response_excerpt' | 'error' | 'next_retry_at'
>;

/** What an attempt whose process stopped before recording the answer is closed with. */
export const INTERRUPTED = 'no answer recorded: the process sending this attempt stopped';

export interface DeliveryOutcome {
  status: WebhookDeliveryStatus;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

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

  async endpointsById(ids: string[]): Promise<Map<string, WebhookEndpoint>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .repository(WebhookEndpoint)
      .createQueryBuilder('w')
      .where('w.id IN (:...ids)', { ids: [...new Set(ids)] })
      .getMany();
    return new Map(rows.map((w) => [w.id, w]));
  }

  enabledEndpoints(applicationId: string): Promise<WebhookEndpoint[]> {
    return this.db.repository(WebhookEndpoint).findBy({ application_id: applicationId, status: 'enabled' });
  }

  countEndpoints(applicationId: string): Promise<number> {
    return this.db.repository(WebhookEndpoint).countBy({ application_id: applicationId });
  }

  async insertEndpoint(endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    const repo = this.db.repository(WebhookEndpoint);
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

  async deleteEndpoint(applicationId: string, id: string): Promise<void> {
    await this.db.repository(WebhookEndpoint).delete({ application_id: applicationId, id });
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
   * Starts attempts: claims the due deliveries the endpoints' free slots allow (webhook-claims.sql.ts)
   * and, in the same transaction, writes each one's attempt row as `sending`, so the attempt log
   * holds every request a receiver may see before it is sent. A delivery claimed again after its
   * lease ran out (its process died mid-attempt) has that earlier attempt closed as failed:
   * whether the receiver saw it is unknown. `limits.busy` and `limits.skip` say which endpoints
   * already have attempts in flight here or take none now; `applicationIds` narrows it (tests).
   */
  startDue(
    now: Date,
    leaseUntil: Date,
    limits: { slots: number; busy: ReadonlyMap<string, number>; skip: readonly string[] },
    applicationIds: readonly string[] | null = null,
  ): Promise<ClaimedDelivery[]> {
    return this.db.transaction(async (manager) => {
      const result = (await manager.query(claimDueSql(this.db.table('webhook_deliveries')), [
        now,
        leaseUntil,
        limits.slots,
        [...limits.busy.keys()],
        [...limits.busy.values()],
        limits.skip,
        applicationIds,
      ])) as Claimed[] | [Claimed[], number];
      // The embedded driver answers an UPDATE led by WITH as bare rows, PostgreSQL's as [rows, count].
      const rows = Array.isArray(result[0]) ? (result[0] as Claimed[]) : (result as Claimed[]);
      if (rows.length === 0) return [];
      const claimed = rows.map((r) => ({
        ...r,
        retry_window_from: new Date(r.retry_window_from),
        attempt_id: newId(),
      }));
      const repeated = claimed.filter((c) => c.attempts > 1);
      if (repeated.length > 0) {
        await manager.query(
          `UPDATE ${this.db.table('webhook_attempts')} a SET outcome = 'failed', error = $3
             FROM unnest($1::uuid[], $2::uuid[]) AS v(endpoint_id, event_id)
            WHERE a.event_id = v.event_id AND a.endpoint_id = v.endpoint_id AND a.outcome = 'sending'`,
          [repeated.map((c) => c.endpoint_id), repeated.map((c) => c.event_id), INTERRUPTED],
        );
      }
      await this.db.repository(WebhookAttempt, manager).insert(
        claimed.map((c) =>
          Object.assign(new WebhookAttempt(), {
            id: c.attempt_id,
            application_id: c.application_id,
            endpoint_id: c.endpoint_id,
            event_id: c.event_id,
            event_type: c.event_type,
            attempt: c.attempts,
            outcome: 'sending',
            status_code: null,
            duration_ms: 0,
            response_excerpt: null,
            error: null,
            next_retry_at: null,
            created_at: now,
          }),
        ),
      );
      return claimed;
    });
  }

  /** Completes attempts started by {@link startDue} with what the receiver answered. */
  async completeAttempts(attempts: AttemptResult[], manager: EntityManager): Promise<void> {
    if (attempts.length === 0) return;
    await manager.query(
      `UPDATE ${this.db.table('webhook_attempts')} a
          SET outcome = v.outcome, status_code = v.status_code, duration_ms = v.duration_ms,
              response_excerpt = v.response_excerpt, error = v.error, next_retry_at = v.next_retry_at
         FROM unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::timestamptz[])
              AS v(id, outcome, status_code, duration_ms, response_excerpt, error, next_retry_at)
        WHERE a.id = v.id`,
      [
        attempts.map((a) => a.id),
        attempts.map((a) => a.outcome),
        attempts.map((a) => a.status_code),
        attempts.map((a) => a.duration_ms),
        attempts.map((a) => a.response_excerpt),
        attempts.map((a) => a.error),
        attempts.map((a) => a.next_retry_at),
      ],
    );
  }

  /**
   * Writes attempts' outcomes in one statement, each unless another run re-claimed its delivery
   * since (its lease ran out); returns the `endpoint_id/event_id` of those written.
   */
  async recordOutcomes(
    rows: Array<{ claimed: ClaimedDelivery; outcome: DeliveryOutcome }>,
    now: Date,
    manager: EntityManager,
  ): Promise<Set<string>> {
    const [written] = (await manager.query(
      `UPDATE ${this.db.table('webhook_deliveries')} d
          SET status = v.status, next_attempt_at = v.next_attempt_at, delivered_at = v.delivered_at, updated_at = $7
         FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::timestamptz[], $6::timestamptz[])
              AS v(endpoint_id, event_id, attempts, status, next_attempt_at, delivered_at)
        WHERE d.endpoint_id = v.endpoint_id AND d.event_id = v.event_id AND d.attempts = v.attempts
          AND d.status = 'pending'
       RETURNING d.endpoint_id, d.event_id`,
      [
        rows.map((r) => r.claimed.endpoint_id),
        rows.map((r) => r.claimed.event_id),
        rows.map((r) => r.claimed.attempts),
        rows.map((r) => r.outcome.status),
        rows.map((r) => r.outcome.next_attempt_at),
        rows.map((r) => r.outcome.delivered_at),
        now,
      ],
    )) as [Array<{ endpoint_id: string; event_id: string }>, number];
    return new Set(written.map((w) => `${w.endpoint_id}/${w.event_id}`));
  }

  /**
   * A failing endpoint's deliveries due now (none in flight: those are leased into the future) wait
   * with the failed one until its retry, so a receiver coming back gets them in order.
   */
  async holdDue(holds: Array<{ endpoint_id: string; until: Date }>, now: Date, manager: EntityManager): Promise<void> {
    if (holds.length === 0) return;
    await manager.query(
      `UPDATE ${this.db.table('webhook_deliveries')} d SET next_attempt_at = v.until, updated_at = $3
         FROM unnest($1::uuid[], $2::timestamptz[]) AS v(endpoint_id, until)
        WHERE d.endpoint_id = v.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= $3`,
      [holds.map((h) => h.endpoint_id), holds.map((h) => h.until), now],
    );
  }

  /** Owes the event to the endpoint again, due now, with a fresh 3-day retry window. */
  async resend(
    endpoint: WebhookEndpoint,
    event: { id: string; type: string },
    now: Date,
    manager?: EntityManager,
  ): Promise<void> {
    await (manager ?? this.db.manager).query(
      `INSERT INTO ${this.db.table('webhook_deliveries')}
         (endpoint_id, event_id, application_id, event_type, status, attempts, next_attempt_at, retry_window_from,
          created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'pending', 0, $5, $5, $5, $5)
       ON CONFLICT (endpoint_id, event_id) DO UPDATE
         SET status = 'pending', next_attempt_at = $5, retry_window_from = $5, updated_at = $5`,
      [endpoint.id, event.id, endpoint.application_id, event.type, now],
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
