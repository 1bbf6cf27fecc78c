import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid } from '../../common/ids.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import type { WebhookDeliveryStatus } from './entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';

/** A delivery claimed for one attempt: `attempts` (after the claim) fences the outcome's write. */
export interface ClaimedDelivery {
  endpoint_id: string;
  event_id: string;
  application_id: string;
  attempts: number;
  retry_window_from: Date;
}

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
   * Claims up to `limit` deliveries due at `now` (rows another replica holds are skipped) and
   * leases them until `leaseUntil`: another run sees them due again only if this one died before
   * recording its outcome. Oldest due first, then event order. `applicationId` narrows it to one
   * application (tests).
   */
  async claimDue(
    now: Date,
    leaseUntil: Date,
    limit: number,
    applicationIds: readonly string[] | null = null,
  ): Promise<ClaimedDelivery[]> {
    const t = this.db.table('webhook_deliveries');
    const rows = (await this.db.manager.query(
      `WITH due AS (
         SELECT endpoint_id, event_id FROM ${t}
          WHERE status = 'pending' AND next_attempt_at <= $1 AND ($4::uuid[] IS NULL OR application_id = ANY($4::uuid[]))
          ORDER BY next_attempt_at, event_id
          LIMIT $3
          FOR UPDATE SKIP LOCKED)
       UPDATE ${t} d SET next_attempt_at = $2, attempts = d.attempts + 1, updated_at = $1
         FROM due WHERE d.endpoint_id = due.endpoint_id AND d.event_id = due.event_id
       RETURNING d.endpoint_id, d.event_id, d.application_id, d.attempts, d.retry_window_from`,
      [now, leaseUntil, limit, applicationIds],
    )) as ClaimedDelivery[] | [ClaimedDelivery[], number];
    const list = Array.isArray(rows[0]) ? (rows[0] as ClaimedDelivery[]) : (rows as ClaimedDelivery[]);
    return list.map((r) => ({ ...r, retry_window_from: new Date(r.retry_window_from) }));
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

  /** Hands claimed deliveries back unattempted (the claim's count undone), due at `dueAt`. */
  async release(claimed: ClaimedDelivery[], dueAt: Date): Promise<void> {
    for (const c of claimed) {
      await this.db.manager.query(
        `UPDATE ${this.db.table('webhook_deliveries')} SET next_attempt_at = $4, attempts = attempts - 1
          WHERE endpoint_id = $1 AND event_id = $2 AND attempts = $3 AND status = 'pending'`,
        [c.endpoint_id, c.event_id, c.attempts, dueAt],
      );
    }
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

  async insertAttempts(attempts: WebhookAttempt[], manager: EntityManager): Promise<void> {
    if (attempts.length > 0) await this.db.repository(WebhookAttempt, manager).insert(attempts);
  }

  attempts(applicationId: string, by: { endpoint_id: string } | { event_id: string }) {
    const [column, value] = 'endpoint_id' in by ? ['endpoint_id', by.endpoint_id] : ['event_id', by.event_id];
    return this.db
      .repository(WebhookAttempt)
      .createQueryBuilder('a')
      .where(`a.application_id = :applicationId AND a.${column} = :value`, { applicationId, value });
  }
}
