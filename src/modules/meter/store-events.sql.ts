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

/**
 * The one statement that stores meter events with their outbox rows (identifiers already taken
 * insert nothing and come back missing), and its parameters. Plain code with no Nest imports, so
 * the meter benchmark's bare baseline (b2) runs exactly what the service runs.
 */
export function storeEventsStatement(
  tables: { events: string; outbox: string },
  applicationId: string,
  now: Date,
  events: EventRow[],
): { sql: string; params: unknown[] } {
  const params: unknown[] = [applicationId, now];
  const rows = events.map((e) => {
    const base = params.length;
    params.push(
      e.id,
      e.meterId,
      e.eventName,
      e.customerId,
      e.identifier,
      JSON.stringify(e.payload),
      e.value,
      e.occurredAt,
      e.provider,
    );
    return `($${base + 1}::uuid, $1::uuid, $${base + 2}::uuid, $${base + 3}, $${base + 4}::uuid, $${base + 5}, $${base + 6}::jsonb, $${base + 7}::numeric, $${base + 8}::timestamptz, $${base + 9}, $2::timestamptz)`;
  });
  const sql = `WITH inserted AS (
       INSERT INTO ${tables.events} (id, application_id, meter_id, event_name, customer_id, identifier, payload, value, occurred_at, provider, created_at)
       VALUES ${rows.join(', ')}
       ON CONFLICT (application_id, identifier) DO NOTHING
       RETURNING id, identifier, created_at, errors
     ), queued AS (
       INSERT INTO ${tables.outbox} (event_id, application_id, next_attempt_at, created_at)
       SELECT id, $1::uuid, $2::timestamptz, $2::timestamptz FROM inserted
     )
     SELECT id, identifier, created_at, errors FROM inserted`;
  return { sql, params };
}
