/**
 * The delivery job's claim, per endpoint (docs/EVENTS.md "How delivery runs"): the endpoints that
 * are owed anything are listed by a skip scan of `webhook_deliveries_endpoint_due_idx` (one index
 * probe per endpoint, however long any one endpoint's backlog), and each gives at most its free
 * slots of due deliveries, oldest due first, then event order. So an endpoint with a long or slow
 * backlog never crowds out another one's deliveries, and only what starts at once is claimed: a
 * claim leases the delivery until `$2` and counts the attempt, and rows another replica holds are
 * skipped.
 *
 * $1 now, $2 lease end, $3 slots per endpoint, $4/$5 endpoints with attempts in flight and how
 * many, $6 endpoints to skip (full, or held after a failure), $7 application ids or null (tests).
 */
export const claimDueSql = (deliveries: string): string => `
  WITH RECURSIVE owed(endpoint_id) AS (
      (SELECT endpoint_id FROM ${deliveries} WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
    UNION ALL
      SELECT (SELECT d.endpoint_id FROM ${deliveries} d
               WHERE d.status = 'pending' AND d.endpoint_id > owed.endpoint_id
               ORDER BY d.endpoint_id LIMIT 1)
        FROM owed WHERE owed.endpoint_id IS NOT NULL
  ),
  due AS (
    SELECT next.endpoint_id, next.event_id
      FROM owed
      LEFT JOIN unnest($4::uuid[], $5::int[]) AS busy(endpoint_id, in_flight) USING (endpoint_id)
      CROSS JOIN LATERAL (
        SELECT d.endpoint_id, d.event_id FROM ${deliveries} d
         WHERE d.endpoint_id = owed.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= $1
           AND ($7::uuid[] IS NULL OR d.application_id = ANY($7::uuid[]))
         ORDER BY d.next_attempt_at, d.event_id
         LIMIT greatest($3::int - coalesce(busy.in_flight, 0), 0)
         FOR UPDATE SKIP LOCKED) next
     WHERE owed.endpoint_id IS NOT NULL AND NOT (owed.endpoint_id = ANY($6::uuid[]))
  )
  UPDATE ${deliveries} d SET next_attempt_at = $2, attempts = d.attempts + 1, updated_at = $1
    FROM due WHERE d.endpoint_id = due.endpoint_id AND d.event_id = due.event_id
  RETURNING d.endpoint_id, d.event_id, d.application_id, d.event_type, d.attempts, d.retry_window_from`;
