/** What an attempt whose process stopped before recording the answer is closed with. */
export const INTERRUPTED = 'no answer recorded: the process sending this attempt stopped';

/**
 * The delivery job's claim, per endpoint (docs/EVENTS.md "How delivery runs"), in one statement.
 * The endpoints owed anything are listed by a skip scan of `webhook_deliveries_endpoint_due_idx`
 * (one index probe per endpoint, however long any one endpoint's backlog), and each gives at most
 * its free slots of due deliveries, oldest due first, then event order: an endpoint with a long or
 * slow backlog never crowds out another's deliveries. Only what starts at once is claimed: each
 * claim leases its delivery until `$2`, counts the attempt and writes the attempt's row as
 * `sending` (so the log holds every request a receiver may see before it is sent), and each claimed
 * row comes back with its event and endpoint (null when gone), so one round trip claims and loads; a delivery
 * claimed again after its lease ran out has its earlier `sending` attempt closed as failed (the
 * receiver may have seen it). Rows another replica holds are skipped. A delivery's and its attempts'
 * `event_created_at` (their partition key, migration EventPartitions) confine the joins to one month.
 *
 * $1 now, $2 lease end, $3 slots per endpoint, $4/$5 endpoints with attempts in flight and how
 * many, $6 endpoints to skip, $7 application ids or null (tests), $8 ids for the attempt rows (as
 * many as may be claimed at most), $9 INTERRUPTED.
 */
export const claimDueSql = (deliveries: string, attempts: string, events: string, endpoints: string): string => `
  WITH RECURSIVE owed(endpoint_id) AS (
      (SELECT endpoint_id FROM ${deliveries} WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
    UNION ALL
      SELECT (SELECT d.endpoint_id FROM ${deliveries} d
               WHERE d.status = 'pending' AND d.endpoint_id > owed.endpoint_id
               ORDER BY d.endpoint_id LIMIT 1)
        FROM owed WHERE owed.endpoint_id IS NOT NULL
  ),
  due AS (
    SELECT next.endpoint_id, next.event_id, next.event_created_at
      FROM owed
      LEFT JOIN unnest($4::uuid[], $5::int[]) AS busy(endpoint_id, in_flight) USING (endpoint_id)
      CROSS JOIN LATERAL (
        SELECT d.endpoint_id, d.event_id, d.event_created_at FROM ${deliveries} d
         WHERE d.endpoint_id = owed.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= $1
           AND ($7::uuid[] IS NULL OR d.application_id = ANY($7::uuid[]))
         ORDER BY d.next_attempt_at, d.event_id
         LIMIT greatest($3::int - coalesce(busy.in_flight, 0), 0)
         FOR UPDATE SKIP LOCKED) next
     WHERE owed.endpoint_id IS NOT NULL AND NOT (owed.endpoint_id = ANY($6::uuid[]))
     LIMIT cardinality($8::uuid[])
  ),
  claimed AS (
    UPDATE ${deliveries} d SET next_attempt_at = $2, attempts = d.attempts + 1, updated_at = $1
      FROM due
     WHERE d.endpoint_id = due.endpoint_id AND d.event_id = due.event_id AND d.event_created_at = due.event_created_at
    RETURNING d.endpoint_id, d.event_id, d.application_id, d.event_type, d.attempts, d.retry_window_from, d.event_created_at
  ),
  numbered AS (
    SELECT c.*, ids.id AS attempt_id
      FROM (SELECT claimed.*, row_number() OVER () AS n FROM claimed) c
      JOIN unnest($8::uuid[]) WITH ORDINALITY AS ids(id, n) USING (n)
  ),
  interrupted AS (
    UPDATE ${attempts} a SET outcome = 'failed', error = $9
      FROM numbered c
     WHERE c.attempts > 1 AND a.event_id = c.event_id AND a.endpoint_id = c.endpoint_id AND a.outcome = 'sending'
       AND a.event_created_at = c.event_created_at
  ),
  logged AS (
    INSERT INTO ${attempts}
      (id, application_id, endpoint_id, event_id, event_type, attempt, outcome, duration_ms, created_at, event_created_at)
    SELECT attempt_id, application_id, endpoint_id, event_id, event_type, attempts, 'sending', 0, $1, event_created_at FROM numbered
  )
  SELECT n.endpoint_id, n.event_id, n.application_id, n.event_type, n.attempts, n.retry_window_from, n.attempt_id,
         n.event_created_at,
         to_jsonb(e) AS event, to_jsonb(w) AS endpoint
    FROM numbered n
    LEFT JOIN ${events} e ON e.id = n.event_id AND e.created_at = n.event_created_at
    LEFT JOIN ${endpoints} w ON w.id = n.endpoint_id`;

/**
 * Attempts' outcomes in one statement: each attempt's row completed with what the receiver
 * answered; each delivery's outcome written unless another run claimed it again since (its lease
 * ran out: `attempts` fences it); and behind each failure, the endpoint's deliveries due now and
 * never tried held until that failure's retry, so a receiver coming back gets them in order
 * (retries keep their own time: holding them behind every new failure would put them off for as
 * long as the receiver fails; attempts in flight are leased into the future). Returns the
 * deliveries whose outcome was written.
 *
 * $1..$12 one array per column of the outcomes, $13 now.
 */
export const recordOutcomesSql = (deliveries: string, attempts: string): string => `
  WITH v AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::int[], $7::int[],
                         $8::text[], $9::text[], $10::timestamptz[], $11::text[], $12::timestamptz[])
      AS v(attempt_id, endpoint_id, event_id, attempts, outcome, status_code, duration_ms,
           response_excerpt, error, next_retry_at, status, delivered_at)
  ),
  completed AS (
    UPDATE ${attempts} a
       SET outcome = v.outcome, status_code = v.status_code, duration_ms = v.duration_ms,
           response_excerpt = v.response_excerpt, error = v.error, next_retry_at = v.next_retry_at
      FROM v WHERE a.id = v.attempt_id
  ),
  held AS (
    UPDATE ${deliveries} d SET next_attempt_at = h.until, updated_at = $13
      FROM (SELECT endpoint_id, max(next_retry_at) AS until FROM v WHERE status = 'pending' GROUP BY endpoint_id) h
     WHERE d.endpoint_id = h.endpoint_id AND d.status = 'pending' AND d.attempts = 0 AND d.next_attempt_at <= $13
  )
  UPDATE ${deliveries} d
     SET status = v.status, next_attempt_at = v.next_retry_at, delivered_at = v.delivered_at, updated_at = $13
    FROM v
   WHERE d.endpoint_id = v.endpoint_id AND d.event_id = v.event_id AND d.attempts = v.attempts AND d.status = 'pending'
  RETURNING d.endpoint_id, d.event_id`;
