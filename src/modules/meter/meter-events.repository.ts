import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import { storeEventsStatement, type EventRow } from './store-events.sql.js';

export interface StoredEventRow {
  id: string;
  identifier: string;
  created_at: Date;
  errors: Array<{ code: string; message: string }>;
}

export interface MeterEventRow extends StoredEventRow {
  event_name: string;
  customer_id: string;
  payload: Record<string, string>;
  occurred_at: Date;
  delivery_status: string;
  delivered_at: Date | null;
}

/** An outbox row leased for delivery, with the event it carries. */
export interface ClaimedEvent {
  event_id: string;
  application_id: string;
  attempts: number;
  identifier: string;
  event_name: string;
  payload: Record<string, string>;
  occurred_at: Date;
  provider: string;
}

export type SummaryAggregation = 'sum' | 'count' | 'last';
export type SummaryWindow = 'hour' | 'day';

const AGGREGATES: Record<SummaryAggregation, string> = {
  sum: 'sum(value)',
  count: 'count(*)::numeric',
  last: '(array_agg(value ORDER BY occurred_at DESC, created_at DESC, id DESC))[1]',
};

/** Meter events and their delivery outbox, in the request's (or job's) mode. */
@Injectable()
export class MeterEventsRepository {
  constructor(private readonly db: ModeDb) {}

  /**
   * Stores new events with their outbox rows in one statement; identifiers already taken (earlier,
   * concurrently, or twice in `events`) come back as the stored originals.
   */
  async store(applicationId: string, now: Date, events: EventRow[]): Promise<Map<string, StoredEventRow>> {
    const table = this.db.table('meter_events');
    const { sql, params } = storeEventsStatement(
      { events: table, outbox: this.db.table('meter_event_outbox') },
      applicationId,
      now,
      events,
    );
    const inserted: StoredEventRow[] = await this.db.manager.query(sql, params);
    const byIdentifier = new Map(inserted.map((r) => [r.identifier, r]));
    const missing = [...new Set(events.map((e) => e.identifier).filter((id) => !byIdentifier.has(id)))];
    if (missing.length) {
      const originals: StoredEventRow[] = await this.db.manager.query(
        `SELECT id, identifier, created_at, errors FROM ${table} WHERE application_id = $1 AND identifier = ANY($2::text[])`,
        [applicationId, missing],
      );
      for (const row of originals) byIdentifier.set(row.identifier, row);
    }
    return byIdentifier;
  }

  async findById(applicationId: string, id: string): Promise<MeterEventRow | null> {
    const rows: MeterEventRow[] = await this.db.manager.query(
      `SELECT id, identifier, event_name, customer_id, payload, occurred_at, delivery_status, delivered_at, errors, created_at
       FROM ${this.db.table('meter_events')} WHERE application_id = $1 AND id = $2`,
      [applicationId, id],
    );
    return rows[0] ?? null;
  }

  /** Aggregated values per UTC hour or day of one customer's events of one meter in [start, end). */
  summarize(
    applicationId: string,
    filter: { meterId: string; customerId: string; start: Date; end: Date },
    aggregation: SummaryAggregation,
    window: SummaryWindow,
  ): Promise<Array<{ bucket: Date; value: string }>> {
    return this.db.manager.query(
      `SELECT date_trunc('${window === 'hour' ? 'hour' : 'day'}', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS bucket,
              ${AGGREGATES[aggregation]} AS value
       FROM ${this.db.table('meter_events')}
       WHERE application_id = $1 AND meter_id = $2 AND customer_id = $3 AND occurred_at >= $4 AND occurred_at < $5
       GROUP BY 1 ORDER BY 1`,
      [applicationId, filter.meterId, filter.customerId, filter.start, filter.end],
    );
  }

  /** Leases up to `limit` due outbox rows until `leaseUntil` (FOR UPDATE SKIP LOCKED: replicas never share one). */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedEvent[]> {
    const outbox = this.db.table('meter_event_outbox');
    return this.db.manager.query(
      `WITH due AS (
         SELECT event_id FROM ${outbox} WHERE next_attempt_at <= $1
         ORDER BY next_attempt_at LIMIT ${Math.trunc(limit)} FOR UPDATE SKIP LOCKED
       ), leased AS (
         UPDATE ${outbox} o SET next_attempt_at = $2 FROM due WHERE o.event_id = due.event_id
         RETURNING o.event_id, o.application_id, o.attempts
       )
       SELECT l.event_id, l.application_id, l.attempts, e.identifier, e.event_name, e.payload, e.occurred_at, e.provider
       FROM leased l JOIN ${this.db.table('meter_events')} e ON e.id = l.event_id`,
      [now, leaseUntil],
    );
  }

  /** Delivered: the event says so and its outbox row is gone. */
  markDelivered(eventId: string, deliveredAt: Date): Promise<void> {
    return this.db.transaction(async (manager) => {
      await manager.query(
        `UPDATE ${this.db.table('meter_events')} SET delivery_status = 'delivered', delivered_at = $2, errors = '[]' WHERE id = $1`,
        [eventId, deliveredAt],
      );
      await manager.query(`DELETE FROM ${this.db.table('meter_event_outbox')} WHERE event_id = $1`, [eventId]);
    });
  }

  /** A failed attempt: the event shows the error; retried at `retryAt`, or abandoned (null) and marked failed. */
  markAttemptFailed(
    eventId: string,
    errors: Array<{ code: string; message: string }>,
    attempts: number,
    retryAt: Date | null,
    /** Runs in the same transaction when the event is abandoned (retryAt null), with the event as stored. */
    onAbandoned?: (event: MeterEventRow, manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    const outbox = this.db.table('meter_event_outbox');
    return this.db.transaction(async (manager) => {
      await manager.query(
        `UPDATE ${this.db.table('meter_events')} SET errors = $2::jsonb, delivery_status = $3 WHERE id = $1`,
        [eventId, JSON.stringify(errors), retryAt ? 'pending' : 'failed'],
      );
      if (!retryAt) await manager.query(`DELETE FROM ${outbox} WHERE event_id = $1`, [eventId]);
      if (!retryAt && onAbandoned) {
        const [row] = (await manager.query(
          `SELECT id, identifier, event_name, customer_id, payload, occurred_at, delivery_status, delivered_at, errors, created_at
             FROM ${this.db.table('meter_events')} WHERE id = $1`,
          [eventId],
        )) as MeterEventRow[];
        if (row) await onAbandoned(row, manager);
      }
      if (retryAt) {
        await manager.query(`UPDATE ${outbox} SET attempts = $2, next_attempt_at = $3 WHERE event_id = $1`, [
          eventId,
          attempts,
          retryAt,
        ]);
      }
    });
  }
}
