/**
 * How far behind its primary the server answering is, in milliseconds: 0 on a primary (a read URL
 * that names one) and on a streaming standby that has replayed all it received; otherwise the age
 * of the last transaction it replayed (pg_last_xact_replay_timestamp), which grows while replay is
 * paused or slow, and Infinity when it has replayed none. A standby that lost its primary (no WAL
 * receiver) is measured by that age too: "nothing more received" then says nothing about being
 * in sync. pg_stat_wal_receiver shows its row (its pid) to any role.
 */
export const REPLICA_LAG_SQL = `
SELECT CASE
  WHEN NOT pg_is_in_recovery() THEN 0
  WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn()
    AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver) THEN 0
  ELSE COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000, 'Infinity')
END::float8 AS lag_ms`;
