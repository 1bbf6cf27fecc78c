import type { AppConfig } from '../../../config/app.config.js';

/** A partition per UTC month, or per UTC day where one day's rows are many and kept only days. */
export type PartitionGranularity = 'month' | 'day';

/** One partitioned table of a family. */
export interface PartitionedTable {
  table: string;
  /** Storage parameters of each partition (`fillfactor = 45`). */
  storage?: string;
  /**
   * Indexes each partition gets beyond the parent's (which every partition inherits): a unique key
   * without the partition key can only be unique per partition. `qualified` is the partition's
   * schema-qualified name, `name` its bare one (for index names).
   */
  partitionIndexes?: (qualified: string, name: string) => string[];
  /** Triggers each partition gets itself: a statement trigger of the parent (TRUNCATE) does not reach partitions. */
  partitionTriggers?: (qualified: string, name: string) => string[];
  /**
   * A queue whose rows all go once handled (an outbox): a past period's partition of it is dropped as
   * soon as the period has ended and it holds no rows, ahead of the family's retention (the other
   * tables keep the period), taking the queue's dead tuples and index bloat with it
   * (partitions.sql.ts dropDrainedPartitions).
   */
  drainedEarly?: true;
}

/**
 * Tables partitioned on the same key into the same periods, made ahead together and dropped
 * together, period by period, in the order listed (rows that name another table's row first).
 */
export interface PartitionFamily {
  /** Names the family in logs and in its advisory lock. */
  name: string;
  /** `mode`: a copy in `wallet_test` and in `wallet_live`; `platform`: the one in `platform`. */
  scope: 'mode' | 'platform';
  /** The column the tables are partitioned by (RANGE), for the docs and the migrations. */
  key: string;
  granularity: PartitionGranularity;
  tables: PartitionedTable[];
  /** The configuration (days) after which a whole period is dropped. */
  retention: keyof AppConfig & `${string}RetentionDays`;
  /** Periods made ahead of the current one: a maintenance job down for that long still leaves inserts a partition. */
  ahead: number;
  /**
   * Set when a period may only be dropped behind a record of what it held (the audit log's signed
   * checkpoint): the maintenance job then drops its periods only through the `beforeDrop` hook its
   * owner registered (PartitionMaintenanceJob.useBeforeDrop), and none while there is none.
   */
  dropsBehindHook?: true;
}

/**
 * `meter_events` by month of receipt, with their delivery outbox by the same instant (the outbox
 * row's `created_at` is its event's), docs/METERING.md "Partitions". The identifier is unique per
 * month's partition; the storage statement checks the earlier months kept. A month's outbox
 * partition goes as soon as the month has ended and every event of it was delivered or abandoned.
 */
export const METER_EVENTS: PartitionFamily = {
  name: 'meter_events',
  scope: 'mode',
  key: 'created_at',
  granularity: 'month',
  tables: [
    // The forwarder's lease is a heap-only update (migration MeterForwardingHotUpdates).
    { table: 'meter_event_outbox', storage: 'fillfactor = 45', drainedEarly: true },
    {
      table: 'meter_events',
      // The forwarder's heap-only updates (migration MeterForwardingHotUpdates).
      storage: 'fillfactor = 45',
      partitionIndexes: (qualified, name) => [
        `CREATE UNIQUE INDEX IF NOT EXISTS "${name}_identifier_key" ON ${qualified} (application_id, identifier)`,
      ],
    },
  ],
  retention: 'meterEventRetentionDays',
  ahead: 2,
};

/**
 * `events` by month of `created_at`, with their webhook deliveries and attempts partitioned by the
 * same instant (their `event_created_at`), so an event goes with everything that names it, in one
 * transaction (docs/EVENTS.md "Retention").
 */
export const EVENTS: PartitionFamily = {
  name: 'events',
  scope: 'mode',
  key: 'created_at (deliveries and attempts: event_created_at)',
  granularity: 'month',
  tables: [{ table: 'webhook_attempts' }, { table: 'webhook_deliveries' }, { table: 'events' }],
  retention: 'eventRetentionDays',
  ahead: 2,
};

/**
 * `platform.audit_events` by month of `created_at` (docs/AUDIT.md "Retention"). Append-only: each
 * partition refuses TRUNCATE itself (the row trigger refusing UPDATE and DELETE is the parent's,
 * cloned by PostgreSQL), and a month is dropped only after the audit module's hook has written the
 * signed checkpoint of what each chain loses, in the drop's transaction.
 */
export const AUDIT_EVENTS: PartitionFamily = {
  name: 'audit_events',
  scope: 'platform',
  key: 'created_at',
  granularity: 'month',
  tables: [
    {
      table: 'audit_events',
      partitionTriggers: (qualified, name) => [
        `CREATE OR REPLACE TRIGGER "${name}_no_truncate" BEFORE TRUNCATE ON ${qualified}
           FOR EACH STATEMENT EXECUTE FUNCTION platform.audit_refuse_change()`,
      ],
    },
  ],
  retention: 'auditRetentionDays',
  ahead: 2,
  dropsBehindHook: true,
};

/**
 * `platform.idempotency_keys` by UTC day of `created_at` (docs/IDEMPOTENCY.md "Retention"): a key
 * answers for 24 hours and every POST with a key writes one, so days are kept, not months. A key is
 * unique per day's partition; across days the claim's per-key advisory lock keeps it unique
 * (IdempotencyRepository.claim). A day goes only behind the idempotency module's hook, which holds
 * the day while a lease in it is live and first carries forward every key that can still answer.
 */
export const IDEMPOTENCY_KEYS: PartitionFamily = {
  name: 'idempotency_keys',
  scope: 'platform',
  key: 'created_at',
  granularity: 'day',
  tables: [
    {
      table: 'idempotency_keys',
      partitionIndexes: (qualified, name) => [
        `CREATE UNIQUE INDEX IF NOT EXISTS "${name}_key" ON ${qualified} (application_id, mode, key)`,
      ],
    },
  ],
  retention: 'idempotencyKeyRetentionDays',
  ahead: 3,
  dropsBehindHook: true,
};

/** Every partitioned family, in the order the maintenance job visits them. */
export const PARTITION_FAMILIES: readonly PartitionFamily[] = [METER_EVENTS, EVENTS, AUDIT_EVENTS, IDEMPOTENCY_KEYS];
