/** One meter event as the storage statement takes it. */
export interface EventRow {
  id: string;
  meterId: string;
  eventName: string;
  customerId: string;
  identifier: string;
  payload: unknown;
  value: string;
  occurredAt: Date;
  provider: string;
  /** W3C traceparent of the request's span (tracing on), kept on the outbox row for the forwarder's span link; else absent. */
  traceparent?: string | null;
}

/** An event with the application it belongs to and when it was received: one row of the statement. */
export interface StoreRow extends EventRow {
  applicationId: string;
  createdAt: Date;
}

/**
 * The one statement that stores meter events with their outbox rows (identifiers already taken
 * insert nothing and come back missing). `meter_events` is partitioned by month of `created_at`
 * (docs/METERING.md "Partitions"): the identifier's unique index is per partition, so a repeat in
 * the month of arrival is caught by `ON CONFLICT DO NOTHING` (which waits for a concurrent insert of
 * the same identifier), and one stored in any earlier month still kept by the `NOT EXISTS` (each
 * partition's unique index answers it): an identifier stays taken as long as its event is kept
 * (decisions.md: a repeat answers the original). That check is a scalar subquery, not `NOT EXISTS`:
 * PostgreSQL turns `NOT EXISTS` into an anti join, and a prepared statement's generic plan made while
 * the partitions looked empty (a new month, a new database) was a hash anti join reading every row
 * of every partition on each insert, for the life of the connection (0.6 ms per insert at 0 rows,
 * 33 ms at 110,000). A scalar subquery stays a per-row probe of the unique indexes, with the
 * partitions the month bound rules out pruned at run time. The rows go as one array per column, so the text is the
 * same for one row or five hundred (a prepared statement plans it once per connection) and the rows
 * of several applications can go together: callers build it once per pair of tables (per mode) and
 * pass {@link storeEventsParams} of each batch. Plain code with no Nest imports, so the meter
 * benchmark's bare baseline (b2) runs exactly what the service runs.
 */
export function storeEventsSql(tables: { events: string; outbox: string }, traced = false): string {
  // Traced (tracing on, docs/OBSERVABILITY.md): the outbox row also keeps the request's traceparent,
  // a 12th array joined back by id; with tracing off the text is the one the bare baseline runs.
  const incoming = traced
    ? `SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::text[], $7::jsonb[], $8::numeric[], $9::timestamptz[], $10::text[], $11::timestamptz[], $12::text[])
         AS r(id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at, traceparent)`
    : `SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::text[], $7::jsonb[], $8::numeric[], $9::timestamptz[], $10::text[], $11::timestamptz[])
         AS r(id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at)`;
  const queued = traced
    ? `INSERT INTO ${tables.outbox} (event_id, application_id, next_attempt_at, created_at, traceparent)
       SELECT i.id, i.application_id, i.created_at, i.created_at, r.traceparent FROM inserted i JOIN incoming r ON r.id = i.id`
    : `INSERT INTO ${tables.outbox} (event_id, application_id, next_attempt_at, created_at)
       SELECT id, application_id, created_at, created_at FROM inserted`;
  return `WITH incoming AS (
       ${incoming}
     ), inserted AS (
       INSERT INTO ${tables.events} (id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at)
       SELECT id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at FROM incoming r
       WHERE (
         SELECT 1 FROM ${tables.events} e
         WHERE e.application_id = r.application_id AND e.identifier = r.identifier
           AND e.created_at < date_trunc('month', r.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
         LIMIT 1) IS NULL
       ON CONFLICT DO NOTHING
       RETURNING id, application_id, identifier, created_at, errors
     ), queued AS (
       ${queued}
     )
     SELECT id, application_id, identifier, created_at, errors FROM inserted`;
}

/** The parameters of {@link storeEventsSql} for `rows`: one array per column (and the traceparents when `traced`). */
export function storeEventsParams(rows: StoreRow[], traced = false): unknown[] {
  const params: unknown[] = [
    rows.map((r) => r.id),
    rows.map((r) => r.applicationId),
    rows.map((r) => r.meterId),
    rows.map((r) => r.eventName),
    rows.map((r) => r.customerId),
    rows.map((r) => r.identifier),
    rows.map((r) => JSON.stringify(r.payload)),
    rows.map((r) => r.value),
    rows.map((r) => r.occurredAt),
    rows.map((r) => r.provider),
    rows.map((r) => r.createdAt),
  ];
  if (traced) params.push(rows.map((r) => r.traceparent ?? null));
  return params;
}
