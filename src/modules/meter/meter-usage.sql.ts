/**
 * The statements that bill meter events (docs/BILLING.md, "Each event in exactly one line"). Plain
 * text builders over the mode's tables, shared by the service and the billing benchmark.
 *
 * `meter_event_billings` has the event id as its primary key: an event is counted by at most one
 * invoice line, whatever code runs (a concurrent claim waits for the other and inserts nothing).
 */
export interface UsageTables {
  events: string;
  billings: string;
}

/**
 * Claims, for line `$6` of invoice `$7`, every event of meter `$2` and customer `$3` with
 * `$4 <= occurred_at < $5` that no line counts yet. Answers the number claimed.
 */
export function claimUsageSql(t: UsageTables): string {
  return `WITH claimed AS (
       INSERT INTO ${t.billings} (event_id, application_id, line_id, invoice_id, created_at)
       SELECT e.id, e.application_id, $6::uuid, $7::uuid, $8::timestamptz FROM ${t.events} e
       WHERE e.application_id = $1 AND e.meter_id = $2 AND e.customer_id = $3
         AND e.occurred_at >= $4 AND e.occurred_at < $5
         AND NOT EXISTS (SELECT 1 FROM ${t.billings} b WHERE b.event_id = e.id)
       ON CONFLICT (event_id) DO NOTHING
       RETURNING event_id
     )
     SELECT count(*)::int AS claimed FROM claimed`;
}

/**
 * The usage of the events counted by the lines `$2` (one line, or a line with its late additions),
 * every aggregation at once, and the digest: SHA-256 (lowercase hex) of the UTF-8 text made of one
 * `<event id>:<value>` per event, sorted by event id, joined by "\n" (no trailing newline).
 */
export function usageOfLinesSql(t: UsageTables): string {
  return `SELECT count(*)::int AS event_count,
            coalesce(sum(e.value), 0)::text AS sum,
            coalesce(max(e.value), 0)::text AS max,
            coalesce((array_agg(e.value ORDER BY e.occurred_at DESC, e.created_at DESC, e.id DESC))[1], 0)::text AS last,
            encode(sha256(convert_to(coalesce(string_agg(e.id::text || ':' || e.value::text, E'\\n' ORDER BY e.id), ''), 'UTF8')), 'hex') AS digest
     FROM ${t.billings} b JOIN ${t.events} e ON e.id = b.event_id
     WHERE b.application_id = $1 AND b.line_id = ANY($2::uuid[])`;
}

/**
 * The usage so far of meter `$2` and customer `$3` in `$4 <= occurred_at < $5` over the events no
 * line counts yet (the upcoming invoice's preview), in the shape of {@link usageOfLinesSql}.
 */
export function unbilledUsageSql(t: UsageTables): string {
  return `SELECT count(*)::int AS event_count,
            coalesce(sum(e.value), 0)::text AS sum,
            coalesce(max(e.value), 0)::text AS max,
            coalesce((array_agg(e.value ORDER BY e.occurred_at DESC, e.created_at DESC, e.id DESC))[1], 0)::text AS last,
            encode(sha256(convert_to(coalesce(string_agg(e.id::text || ':' || e.value::text, E'\\n' ORDER BY e.id), ''), 'UTF8')), 'hex') AS digest
     FROM ${t.events} e
     WHERE e.application_id = $1 AND e.meter_id = $2 AND e.customer_id = $3
       AND e.occurred_at >= $4 AND e.occurred_at < $5
       AND NOT EXISTS (SELECT 1 FROM ${t.billings} b WHERE b.event_id = e.id)`;
}

/**
 * {@link claimUsageSql} for many lines in one statement (the period close of a batch of
 * subscriptions): one claim per element of the arrays `$1`..`$8` (application, line, invoice,
 * meter, customer, from, to, at). Claims are taken in array order, so where two claims could count
 * the same event the earlier one does, as one statement per claim in that order would. An event
 * already counted is skipped by the primary key (ON CONFLICT), not by a NOT EXISTS: over a batch's
 * tens of thousands of events a plan made while the link table looked empty (a sequential scan of
 * it per event) went quadratic as the table grew during a 10,000-subscription close.
 */
export function claimUsageForLinesSql(t: UsageTables): string {
  return `WITH claims AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[])
         WITH ORDINALITY AS c(application_id, line_id, invoice_id, meter_id, customer_id, from_at, to_at, at, n)
     ), claimed AS (
       INSERT INTO ${t.billings} (event_id, application_id, line_id, invoice_id, created_at)
       SELECT e.id, e.application_id, c.line_id, c.invoice_id, c.at FROM claims c
         JOIN ${t.events} e ON e.application_id = c.application_id AND e.meter_id = c.meter_id
          AND e.customer_id = c.customer_id AND e.occurred_at >= c.from_at AND e.occurred_at < c.to_at
        ORDER BY c.n
       ON CONFLICT (event_id) DO NOTHING
       RETURNING event_id
     )
     SELECT count(*)::int AS claimed FROM claimed`;
}

/**
 * {@link usageOfLinesSql} for each of the lines `$2` (of applications `$1`, element by element)
 * on its own: one row per line, `line_id` first; a line that counts no event has the empty usage.
 */
export function usageOfEachLineSql(t: UsageTables): string {
  return `SELECT l.line_id::text AS line_id,
            count(e.id)::int AS event_count,
            coalesce(sum(e.value), 0)::text AS sum,
            coalesce(max(e.value), 0)::text AS max,
            coalesce((array_agg(e.value ORDER BY e.occurred_at DESC, e.created_at DESC, e.id DESC))[1], 0)::text AS last,
            encode(sha256(convert_to(coalesce(string_agg(e.id::text || ':' || e.value::text, E'\\n' ORDER BY e.id), ''), 'UTF8')), 'hex') AS digest
     FROM unnest($1::uuid[], $2::uuid[]) AS l(application_id, line_id)
     LEFT JOIN ${t.billings} b ON b.application_id = l.application_id AND b.line_id = l.line_id
     LEFT JOIN ${t.events} e ON e.id = b.event_id
     GROUP BY l.line_id`;
}
