import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { AllConfig } from '../../../config/app.config.js';
import type { Mode } from '../../context/principal.js';
import { PeriodicJob } from '../../jobs/periodic-job.js';
import { ModeDb } from '../mode-db.js';
import { PARTITION_FAMILIES, type PartitionFamily } from './partitioned-tables.js';
import { dropDrainedPartitions, dropPartitionsBefore, ensurePartitions, periodStart } from './partitions.sql.js';

/** How often each replica makes partitions ahead and drops expired ones; cheap when nothing is due. */
export const PARTITIONS_INTERVAL_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

/** Per family, per mode (in mode order; the one `platform` schema for a platform family), the partitions made or dropped. */
export type PartitionChanges = Record<string, string[][]>;

/**
 * Runs in a period's drop transaction before its partitions go (partitions.sql.ts
 * dropPartitionsBefore); answering false keeps the period for a later run.
 */
export type BeforeDrop = (tx: EntityManager, period: { start: Date; end: Date }) => Promise<boolean | void>;

/** Prepares a drop run at `now` outside any transaction (a signing key, say) and answers the hook of its periods. */
export type BeforeDropFactory = (now: Date) => Promise<BeforeDrop>;

/**
 * The one maintenance job of every partitioned family (partitioned-tables.ts; docs/SCALING.md
 * "Partitioned tables"), in both mode schemas: makes the current period's and the family's `ahead`
 * next ones where missing, drops whole periods that ended more than the family's retention ago
 * (detach, then drop: never a row-by-row delete), and a queue's (`drainedEarly`) partition of an ended
 * period as soon as it is empty. Safe with several replicas: every partition change
 * of a family in a schema takes one advisory lock, and making a period that exists or dropping one
 * already gone does nothing.
 */
@Injectable()
export class PartitionMaintenanceJob extends PeriodicJob {
  private readonly hooks = new Map<string, BeforeDropFactory>();

  constructor(
    private readonly db: ModeDb,
    private readonly config: ConfigService<AllConfig, true>,
    @InjectDataSource('platform') private readonly platform: DataSource,
  ) {
    super(PARTITIONS_INTERVAL_MS);
  }

  /** Registers the hook `family`'s periods are dropped behind (the audit log's checkpoint; `dropsBehindHook`). */
  useBeforeDrop(family: PartitionFamily, hook: BeforeDropFactory): void {
    this.hooks.set(family.name, hook);
  }

  /** `work` on each mode schema of a mode family (the modes given, or both), or once on `platform`. */
  private inScope(
    family: PartitionFamily,
    modes: Mode[] | undefined,
    work: (manager: EntityManager, schema: string) => Promise<string[]>,
  ): Promise<string[][]> {
    if (family.scope === 'platform') return work(this.platform.manager, 'platform').then((names) => [names]);
    return this.eachScopedMode({ modes }, () => work(this.db.manager, this.db.schema));
  }

  protected runOnce(): Promise<unknown> {
    const now = this.clock.now();
    return this.ensureAhead(now).then(() => this.retire(now));
  }

  /** How long `family`'s rows are kept (the configured days, validated at boot against the family's minimum). */
  retentionMs(family: PartitionFamily): number {
    return this.config.get(`app.${family.retention}`, { infer: true }) * DAY_MS;
  }

  /** Makes each family's partitions of `now`'s period and the `ahead` after it where missing. */
  async ensureAhead(now: Date, modes?: Mode[], families = PARTITION_FAMILIES): Promise<PartitionChanges> {
    const made: PartitionChanges = {};
    for (const family of families) {
      made[family.name] = await this.inScope(family, modes, (manager, schema) =>
        ensurePartitions(
          manager,
          schema,
          family,
          periodStart(now, family.granularity),
          periodStart(now, family.granularity, family.ahead),
        ),
      );
    }
    return made;
  }

  /**
   * Drops each family's periods wholly before `now` minus its retention. A family whose periods go
   * only behind a hook (`dropsBehindHook`) keeps them all while none is registered.
   */
  async retire(now: Date, modes?: Mode[], families = PARTITION_FAMILIES): Promise<PartitionChanges> {
    const dropped: PartitionChanges = {};
    for (const family of families) {
      const factory = this.hooks.get(family.name);
      if (family.dropsBehindHook && !factory) {
        this.logger.warn(`${family.name}: no beforeDrop hook registered, no period dropped`);
        dropped[family.name] = [];
        continue;
      }
      dropped[family.name] = await this.retireFamily(family, now, factory ? await factory(now) : undefined, modes);
    }
    return dropped;
  }

  /**
   * Drops `family`'s periods wholly before `now` minus its retention, each behind `beforeDrop` when
   * given, then the empty partitions of its drained-early tables (queues) of periods ended by `now`.
   */
  async retireFamily(family: PartitionFamily, now: Date, beforeDrop?: BeforeDrop, modes?: Mode[]): Promise<string[][]> {
    const cutoff = new Date(now.getTime() - this.retentionMs(family));
    const expired: string[] = [];
    const drained: string[] = [];
    const dropped = await this.inScope(family, modes, async (manager, schema) => {
      const old = await dropPartitionsBefore(manager, schema, family, cutoff, undefined, beforeDrop);
      const empty = await dropDrainedPartitions(manager, schema, family, now);
      expired.push(...old);
      drained.push(...empty);
      return [...old, ...empty];
    });
    if (expired.length) this.logger.log(`dropped partition(s) ${expired.join(', ')} (before ${cutoff.toISOString()})`);
    if (drained.length)
      this.logger.log(`dropped drained partition(s) ${drained.join(', ')} (ended by ${now.toISOString()})`);
    return dropped;
  }
}
