import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import { EVENTS } from '../../common/database/partitions/partitioned-tables.js';
import { PartitionCoverage } from '../../common/database/partitions/partitions.sql.js';
import type { EventRequest } from '../../common/events/event-recorder.js';
import { isUuid } from '../../common/ids.js';
import { Event } from './entities/event.entity.js';

export interface NewEvent {
  id: string;
  application_id: string;
  type: string;
  api_version: string;
  data: Event['data'];
  request: EventRequest | null;
  created_at: Date;
  traceparent: string | null;
}

@Injectable()
export class EventsRepository {
  /** The months of `events`, its deliveries and attempts seen present (migration EventPartitions). */
  private readonly coverage = new PartitionCoverage(EVENTS);

  constructor(private readonly db: ModeDb) {}

  /**
   * The event and its deliveries in one statement, in the caller's transaction: one delivery per
   * enabled endpoint of the application whose `enabled_events` name the type or `*`, due now. The
   * deliveries carry the event's `created_at` as their partition key, in the event's month.
   */
  async insertWithDeliveries(event: NewEvent, manager: EntityManager): Promise<void> {
    await this.coverage.ensure(manager, this.db.schema, event.created_at);
    await manager.query(
      `WITH e AS (
         INSERT INTO ${this.db.table('events')} (id, application_id, type, api_version, data, request, created_at, traceparent)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id)
       INSERT INTO ${this.db.table('webhook_deliveries')}
         (endpoint_id, event_id, application_id, event_type, status, attempts, next_attempt_at, retry_window_from,
          created_at, updated_at, event_created_at)
       SELECT w.id, e.id, $2, $3, 'pending', 0, $7, $7, $7, $7, $7
         FROM ${this.db.table('webhook_endpoints')} w, e
        WHERE w.application_id = $2 AND w.status = 'enabled' AND w.enabled_events && ARRAY['*', $3]::text[]`,
      [
        event.id,
        event.application_id,
        event.type,
        event.api_version,
        JSON.stringify(event.data),
        event.request ? JSON.stringify(event.request) : null,
        event.created_at,
        event.traceparent,
      ],
    );
  }

  query(applicationId: string): SelectQueryBuilder<Event> {
    return this.db
      .repository(Event)
      .createQueryBuilder('e')
      .where('e.application_id = :applicationId', { applicationId });
  }

  findById(applicationId: string, id: string): Promise<Event | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Event).findOneBy({ application_id: applicationId, id });
  }

  async byIds(ids: string[]): Promise<Map<string, Event>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .repository(Event)
      .createQueryBuilder('e')
      .where('e.id IN (:...ids)', { ids: [...new Set(ids)] })
      .getMany();
    return new Map(rows.map((e) => [e.id, e]));
  }

  /** The application's events after `afterId` (all when null), oldest first. */
  after(applicationId: string, afterId: string | null, limit: number): Promise<Event[]> {
    const qb = this.query(applicationId).orderBy('e.id', 'ASC').limit(limit);
    if (afterId) qb.andWhere('e.id > :afterId', { afterId });
    return qb.getMany();
  }

  /** The id of the application's newest event, or null. */
  async newestId(applicationId: string): Promise<string | null> {
    const row = await this.query(applicationId).orderBy('e.id', 'DESC').limit(1).getOne();
    return row?.id ?? null;
  }

  /** Age of the oldest event still owed to an endpoint, in ms at `now` (0 when none is). */
  async oldestUndeliveredMs(now: Date): Promise<number> {
    const [row] = (await this.db.manager.query(
      `SELECT min(created_at) AS oldest FROM ${this.db.table('webhook_deliveries')} WHERE status = 'pending'`,
    )) as Array<{ oldest: Date | string | null }>;
    return row?.oldest ? Math.max(0, now.getTime() - new Date(row.oldest).getTime()) : 0;
  }
}
