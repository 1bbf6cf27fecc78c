import { Injectable } from '@nestjs/common';
import { Histogram } from 'prom-client';
import type { EntityManager } from 'typeorm';
import type { Mode } from '../../common/context/principal.js';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { GroupCommit } from '../../common/database/group-commit.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { PreparedStatements } from '../../common/database/prepared-statements.js';
import { Metrics } from '../../common/observability/metrics.js';
import { tracingOn } from '../../common/observability/trace-context.js';
import { ensureMonthPartitions, isMissingPartition, monthStart } from './meter-event-partitions.sql.js';
import { storeEventsParams, storeEventsSql, type EventRow, type StoreRow } from './store-events.sql.js';

export interface StoredEventRow {
  id: string;
  application_id: string;
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
  /** The traceparent of the request that stored the event (tracing on), for the forwarder's span link. */
  traceparent: string | null;
  /** When the event was received (its partition's key; the outbox row keeps it). */
  created_at: Date;
}

/**
 * Events delivered, to be marked so: their ids, when, and the earliest of their receipt times, which
 * confines the mark to the partitions of the months since (rather than probing every month's).
 */
export interface DeliveredMark {
  ids: string[];
  at: Date;
  since: Date;
}

export type SummaryAggregation = 'sum' | 'count' | 'last' | 'max';
export type SummaryWindow = 'hour' | 'day';

const AGGREGATES: Record<SummaryAggregation, string> = {
  sum: 'sum(value)',
  count: 'count(*)::numeric',
  last: '(array_agg(value ORDER BY occurred_at DESC, created_at DESC, id DESC))[1]',
  max: 'max(value)',
};

/**
 * Storage statements in flight at once per mode: one committing while the next fills, and the
 * rest of the pool (10 connections per mode by default) left to reads and jobs. Under load each
 * carries many requests' events. Two rather than four (docs/METERING.md): at half the machine's
 * capacity four statements in flight carried ~1.4 requests each, so nearly every request paid
 * its own WAL flush and four backends queued on the WAL write lock; with two, 50%-rate p99
 * 21.7/18.2/32.6/27.1 ms against 26.7/22.9/29.9/29.8 ms, alternated.
 */
const GROUP_FLUSHES = 2;
/** The most events one storage statement carries (five batch requests of 100). */
const GROUP_ROWS = 500;

/** Meter events and their delivery outbox, in the request's (or job's) mode. */
@Injectable()
export class MeterEventsRepository {
  private readonly groups = new Map<Mode, GroupCommit<StoreRow, StoredEventRow | undefined>>();
  /** Events per storage statement: above 1, concurrent requests are sharing statements. */
  private readonly statementRows: Histogram<'mode'>;

  constructor(
    private readonly db: ModeDb,
    private readonly prepared: PreparedStatements,
    metrics: Metrics,
  ) {
    this.statementRows = new Histogram({
      name: 'wallet_meter_event_store_rows',
      help: 'Meter events per storage statement (group commit: the events of concurrent requests share one), by mode.',
      labelNames: ['mode'] as const,
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
      registers: [metrics.registry],
    });
  }

  /**
   * Stores new events with their outbox rows; identifiers already taken (earlier, concurrently, or
   * twice in `events`) come back as the stored originals. The events of concurrent requests in the
   * same mode go to the database together (group commit, at most GROUP_FLUSHES statements in
   * flight), and this answers once the statement that carried `events` has committed; `events` are
   * never split across statements, so a batch request stays one transaction.
   */
  async store(applicationId: string, now: Date, events: EventRow[]): Promise<Map<string, StoredEventRow>> {
    const rows = events.map((e) => ({ ...e, applicationId, createdAt: now }));
    const stored = await this.groupCommit().submit(rows);
    const byIdentifier = new Map<string, StoredEventRow>();
    for (const row of stored) if (row && row.application_id === applicationId) byIdentifier.set(row.identifier, row);
    return byIdentifier;
  }

  /**
   * Stores events of credit-enforced meters (all of one application) in one transaction, in their
   * order: the events and their outbox rows first (the identifier's unique index makes a concurrent
   * repeat, in this process or another, wait for this transaction), then `admit` decides the newly
   * inserted ones in that order, in the same transaction (null: admitted; anything else: the
   * refusal). Refused events are deleted again before the commit, so nothing of them is ever
   * visible. Answers per event its stored row, the original for a repeat of an identifier stored
   * before, or its refusal; a repeat within `rows` answers what its first occurrence got.
   */
  async storeAdmitted<Row extends StoreRow, Refusal>(
    rows: Row[],
    admit: (fresh: Row[], manager: EntityManager) => Promise<Array<Refusal | null>>,
  ): Promise<Array<StoredEventRow | Refusal>> {
    const tables = { events: this.db.table('meter_events'), outbox: this.db.table('meter_event_outbox') };
    return this.withPartitions(this.db.manager, this.db.schema, rows, () =>
      this.db.transaction(async (manager) => {
        const inserted = await this.prepared.query<StoredEventRow>(
          manager,
          'meter_store',
          storeEventsSql(tables, tracingOn()),
          storeEventsParams(rows, tracingOn()),
        );
        const insertedById = new Map(inserted.map((r) => [r.id, r]));
        const fresh = rows.filter((r) => insertedById.has(r.id));
        const outcomes = fresh.length ? await admit(fresh, manager) : [];
        const byIdentifier = new Map<string, StoredEventRow | Refusal>();
        const refused: string[] = [];
        fresh.forEach((row, i) => {
          const refusal = outcomes[i];
          if (refusal === null) byIdentifier.set(row.identifier, insertedById.get(row.id)!);
          else {
            byIdentifier.set(row.identifier, refusal);
            refused.push(row.id);
          }
        });
        if (refused.length) {
          // Stored by this statement, so received at the rows' time: the bound confines both deletes to its month.
          const since = new Date(Math.min(...rows.map((r) => r.createdAt.getTime())));
          await manager.query(
            `WITH queued AS (DELETE FROM ${tables.outbox} WHERE event_id = ANY($1::uuid[]) AND created_at >= $2)
           DELETE FROM ${tables.events} WHERE id = ANY($1::uuid[]) AND created_at >= $2`,
            [refused, since],
          );
        }
        const repeats = rows.filter((r) => !byIdentifier.has(r.identifier)).map((r) => r.identifier);
        if (repeats.length) {
          const originals = (await manager.query(
            `SELECT id, application_id, identifier, created_at, errors FROM ${tables.events}
            WHERE application_id = $1 AND identifier = ANY($2::text[])
            ORDER BY created_at`,
            [rows[0].applicationId, repeats],
          )) as StoredEventRow[];
          for (const original of originals) byIdentifier.set(original.identifier, original);
        }
        return rows.map((r) => {
          const answer = byIdentifier.get(r.identifier);
          if (answer === undefined) throw new Error(`meter event ${r.identifier} neither stored nor found`);
          return answer;
        });
      }),
    );
  }

  /**
   * Runs `store` (which writes `rows`); when a row's month has no partition yet (the partition job
   * makes them ahead, but a clock moved forward can outrun it), makes the partitions of the rows'
   * months and runs it once more.
   */
  private async withPartitions<T>(
    manager: EntityManager,
    schema: string,
    rows: StoreRow[],
    store: () => Promise<T>,
  ): Promise<T> {
    try {
      return await store();
    } catch (error) {
      if (!isMissingPartition(error)) throw error;
      const times = rows.map((r) => r.createdAt.getTime());
      await ensureMonthPartitions(
        manager,
        schema,
        monthStart(new Date(Math.min(...times))),
        new Date(Math.max(...times)),
      );
      return store();
    }
  }

  /** The current mode's group commit; its flush is bound to that mode's tables and connections. */
  private groupCommit(): GroupCommit<StoreRow, StoredEventRow | undefined> {
    const mode = this.db.mode;
    let group = this.groups.get(mode);
    if (!group) {
      const manager = this.db.manager;
      const schema = this.db.schema;
      const tables = { events: this.db.table('meter_events'), outbox: this.db.table('meter_event_outbox') };
      // The statement's text, built once per mode: the same string on every flush.
      const sql = storeEventsSql(tables, tracingOn());
      const rowsOf = this.statementRows.labels({ mode });
      group = new GroupCommit({
        concurrency: GROUP_FLUSHES,
        maxRows: GROUP_ROWS,
        flush: (rows) => {
          rowsOf.observe(rows.length);
          return this.flush(manager, schema, tables, sql, rows);
        },
      });
      this.groups.set(mode, group);
    }
    return group;
  }

  /** One statement for the rows of one or more requests; each row answered with its stored event (the original for a repeat). */
  private async flush(
    manager: EntityManager,
    schema: string,
    tables: { events: string; outbox: string },
    sql: string,
    rows: StoreRow[],
  ): Promise<Array<StoredEventRow | undefined>> {
    const inserted = await this.withPartitions(manager, schema, rows, () =>
      this.prepared.query<StoredEventRow>(manager, 'meter_store', sql, storeEventsParams(rows, tracingOn())),
    );
    const key = (applicationId: string, identifier: string) => `${applicationId}:${identifier}`;
    const byKey = new Map(inserted.map((r) => [key(r.application_id, r.identifier), r]));
    const missing = rows.filter((r) => !byKey.has(key(r.applicationId, r.identifier)));
    if (missing.length) {
      const originals: StoredEventRow[] = await manager.query(
        `SELECT e.id, e.application_id, e.identifier, e.created_at, e.errors
         FROM ${tables.events} e
         JOIN unnest($1::uuid[], $2::text[]) AS m(application_id, identifier)
           ON e.application_id = m.application_id AND e.identifier = m.identifier
         ORDER BY e.created_at`,
        [missing.map((r) => r.applicationId), missing.map((r) => r.identifier)],
      );
      for (const row of originals) byKey.set(key(row.application_id, row.identifier), row);
    }
    return rows.map((r) => byKey.get(key(r.applicationId, r.identifier)));
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

  /**
   * One round trip of the forwarder: marks the events of its previous batch delivered (`delivered`,
   * which the provider accepted) and leases up to `limit` due outbox rows until `leaseUntil` (FOR
   * UPDATE SKIP LOCKED: concurrent claims, in this process or other replicas, never share a row).
   * A row is due when its attempt time has come and it holds no lease, or an expired one. The lease
   * is its own unindexed column, so taking it (like the delivered mark on the event) is a heap-only
   * update on a page left room for it (migration MeterForwardingHotUpdates): no index entries.
   * One statement, so the mark and the claim commit together or not at all; a mark that never
   * commits leaves the rows to be delivered again when their lease ends, which the provider's
   * idempotency key absorbs. It commits without waiting for the WAL flush ({@link ModeDb.asyncCommit}):
   * a lease or a mark lost in a database crash is redone the same way. `scope` limits the claim to
   * some applications' rows (tests on the shared database); production claims every application's.
   */
  claimDue(
    now: Date,
    leaseUntil: Date,
    limit: number,
    delivered: DeliveredMark = { ids: [], at: now, since: now },
    scope: JobScope = {},
  ): Promise<ClaimedEvent[]> {
    const outbox = this.db.table('meter_event_outbox');
    const events = this.db.table('meter_events');
    const params: unknown[] = delivered.ids.length
      ? [now, leaseUntil, delivered.ids, delivered.at, delivered.since]
      : [now, leaseUntil];
    const mark = delivered.ids.length ? `${this.deliveredMark('$3', '$4', '$5')}, ` : '';
    let scoped = '';
    if (scope.applicationIds) {
      params.push(scope.applicationIds);
      scoped = ` AND application_id = ANY($${params.length}::uuid[])`;
    }
    return this.db.asyncCommit((manager) =>
      manager.query(
        `WITH ${mark}due AS (
         SELECT event_id, created_at FROM ${outbox}
         WHERE next_attempt_at <= $1 AND (leased_until IS NULL OR leased_until <= $1)${delivered.ids.length ? ' AND event_id <> ALL($3::uuid[])' : ''}${scoped}
         ORDER BY next_attempt_at LIMIT ${Math.trunc(limit)} FOR UPDATE SKIP LOCKED
       ), leased AS (
         UPDATE ${outbox} o SET leased_until = $2 FROM due WHERE o.event_id = due.event_id AND o.created_at = due.created_at
         RETURNING o.event_id, o.application_id, o.attempts, o.traceparent, o.created_at
       )
       SELECT l.event_id, l.application_id, l.attempts, l.traceparent, l.created_at, e.identifier, e.event_name, e.payload, e.occurred_at, e.provider
       FROM leased l JOIN ${events} e ON e.id = l.event_id AND e.created_at = l.created_at`,
        params,
      ),
    );
  }

  /**
   * Delivered (the provider accepted them): the events say so and their outbox rows are gone, in one
   * statement, committed without waiting for the WAL flush as {@link claimDue}'s mark is.
   */
  async markDelivered(delivered: DeliveredMark): Promise<void> {
    if (!delivered.ids.length) return;
    await this.db.asyncCommit((manager) =>
      manager.query(`WITH ${this.deliveredMark('$1', '$2', '$3')} SELECT 1`, [
        delivered.ids,
        delivered.at,
        delivered.since,
      ]),
    );
  }

  /**
   * The delivered mark, as two CTEs for {@link claimDue} and {@link markDelivered}: the events
   * (parameter `ids`, a uuid array) say so at `at`, and their outbox rows go, both confined to the
   * partitions of the months since `since`. It writes no indexed column, so it is a heap-only update
   * (migration MeterForwardingHotUpdates).
   */
  private deliveredMark(ids: string, at: string, since: string): string {
    return `marked AS (
           UPDATE ${this.db.table('meter_events')} SET delivery_status = 'delivered', delivered_at = ${at}, errors = '[]'
           WHERE id = ANY(${ids}::uuid[]) AND created_at >= ${since}::timestamptz
         ), removed AS (
           DELETE FROM ${this.db.table('meter_event_outbox')} WHERE event_id = ANY(${ids}::uuid[]) AND created_at >= ${since}::timestamptz
         )`;
  }

  /**
   * Failed attempts, in one statement: each event shows its error; it is retried at `retryAt`, or
   * abandoned (null): marked failed and its outbox row gone. `onAbandoned` runs in the same
   * transaction with the abandoned events as stored (their `meter_event.delivery_failed` events).
   * Each event is found by its whole key (`createdAt` as claimed, to the millisecond a JavaScript
   * date keeps), so each row reads its own month's partitions only.
   */
  async markAttemptsFailed(
    failures: Array<{
      eventId: string;
      createdAt: Date;
      errors: Array<{ code: string; message: string }>;
      attempts: number;
      retryAt: Date | null;
    }>,
    onAbandoned?: (events: MeterEventRow[], manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    if (!failures.length) return;
    const outbox = this.db.table('meter_event_outbox');
    const rows = failures.map((f) => ({
      event_id: f.eventId,
      created_at: new Date(f.createdAt).toISOString(),
      errors: f.errors,
      attempts: f.attempts,
      retry_at: f.retryAt?.toISOString() ?? null,
    }));
    const abandoned = failures.filter((f) => f.retryAt === null).map((f) => f.eventId);
    await this.db.transaction(async (manager) => {
      await manager.query(
        `WITH f AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(event_id uuid, created_at timestamptz, errors jsonb, attempts int, retry_at timestamptz)
         ), marked AS (
           UPDATE ${this.db.table('meter_events')} e
           SET errors = f.errors, delivery_status = CASE WHEN f.retry_at IS NULL THEN 'failed' ELSE 'pending' END
           FROM f WHERE e.id = f.event_id AND e.created_at >= f.created_at AND e.created_at < f.created_at + interval '1 millisecond'
         ), abandoned AS (
           DELETE FROM ${outbox} o USING f WHERE o.event_id = f.event_id AND o.created_at >= f.created_at AND o.created_at < f.created_at + interval '1 millisecond' AND f.retry_at IS NULL
         )
         UPDATE ${outbox} o SET attempts = f.attempts, next_attempt_at = f.retry_at, leased_until = NULL
         FROM f WHERE o.event_id = f.event_id AND o.created_at >= f.created_at AND o.created_at < f.created_at + interval '1 millisecond' AND f.retry_at IS NOT NULL`,
        [JSON.stringify(rows)],
      );
      if (abandoned.length === 0 || !onAbandoned) return;
      const events = (await manager.query(
        `SELECT id, identifier, event_name, customer_id, payload, occurred_at, delivery_status, delivered_at, errors, created_at
           FROM ${this.db.table('meter_events')} WHERE id = ANY($1::uuid[]) ORDER BY id`,
        [abandoned],
      )) as MeterEventRow[];
      await onAbandoned(events, manager);
    });
  }

  /** The outbox backlog, counted up to `cap`, and when its oldest row was stored ({@link outboxBacklogSql}). */
  async outboxBacklog(cap: number): Promise<{ backlog: number; oldest: Date | null }> {
    const rows: Array<{ backlog: number; oldest: Date | null }> = await this.db.manager.query(
      outboxBacklogSql(this.db.table('meter_event_outbox'), cap),
    );
    return rows[0];
  }
}

/**
 * The outbox backlog (counted up to `cap`, so a huge backlog costs a bounded scan) and when its
 * oldest row was stored (ids are UUIDv7, so the primary key's first entry is the oldest): across the
 * monthly partitions a merge of their primary key indexes, one entry read from each, never a sort.
 */
export function outboxBacklogSql(outbox: string, cap: number): string {
  return `SELECT (SELECT count(*) FROM (SELECT 1 FROM ${outbox} LIMIT ${Math.trunc(cap)}) capped)::int AS backlog,
              (SELECT created_at FROM ${outbox} ORDER BY event_id LIMIT 1) AS oldest`;
}
