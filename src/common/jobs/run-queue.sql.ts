/**
 * The claim of a run queue's table (report runs, reconciliation runs): the oldest `pending` run whose
 * lease is free (none, or expired at `$1`) gets the lease until `$2`, optionally only among the
 * applications `$3` (uuid[] or null). FOR UPDATE SKIP LOCKED, so replicas share the queue; a run
 * whose replica died is taken again when its lease ends. Returns `id, application_id`.
 */
export function claimOldestPendingSql(table: string): string {
  return `UPDATE ${table} SET claimed_until = $2
        WHERE id = (SELECT id FROM ${table}
                     WHERE status = 'pending' AND (claimed_until IS NULL OR claimed_until < $1)
                       AND ($3::uuid[] IS NULL OR application_id = ANY($3::uuid[]))
                     ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, application_id`;
}
