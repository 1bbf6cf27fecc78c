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
}

/** An event with the application it belongs to and when it was received: one row of the statement. */
export interface StoreRow extends EventRow {
  applicationId: string;
  createdAt: Date;
}

/**
 * The one statement that stores meter events with their outbox rows (identifiers already taken
 * insert nothing and come back missing). The rows go as one array per column, so the text is the
 * same for one row or five hundred (a prepared statement plans it once per connection) and the rows
 * of several applications can go together: callers build it once per pair of tables (per mode) and
 * pass {@link storeEventsParams} of each batch. Plain code with no Nest imports, so the meter
 * benchmark's bare baseline (b2) runs exactly what the service runs.
 */
export function storeEventsSql(tables: { events: string; outbox: string }): string {
  return `WITH incoming AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::text[], $7::jsonb[], $8::numeric[], $9::timestamptz[], $10::text[], $11::timestamptz[])
         AS r(id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at)
     ), inserted AS (
       INSERT INTO ${tables.events} (id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at)
       SELECT id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at FROM incoming
       ON CONFLICT (application_id, identifier) DO NOTHING
       RETURNING id, application_id, identifier, created_at, errors
     ), queued AS (
       INSERT INTO ${tables.outbox} (event_id, application_id, next_attempt_at, created_at)
       SELECT id, application_id, created_at, created_at FROM inserted
     )
     SELECT id, application_id, identifier, created_at, errors FROM inserted`;
}

/** The parameters of {@link storeEventsSql} for `rows`: one array per column. */
export function storeEventsParams(rows: StoreRow[]): unknown[] {
  return [
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
}
