import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../../config/app.config.js';
import type { Mode } from '../../context/principal.js';
import { PeriodicJob } from '../../jobs/periodic-job.js';
import { ModeDb } from '../mode-db.js';
import { PARTITION_FAMILIES, type PartitionFamily } from './partitioned-tables.js';
import { dropPartitionsBefore, ensurePartitions, periodStart } from './partitions.sql.js';

/** How often each replica makes partitions ahead and drops expired ones; cheap when nothing is due. */
export const PARTITIONS_INTERVAL_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

/** Per family, per mode (in mode order), the partitions made or dropped. */
export type PartitionChanges = Record<string, string[][]>;

/**
 * The one maintenance job of every partitioned family (partitioned-tables.ts; docs/SCALING.md
 * "Partitioned tables"), in both mode schemas: makes the current period's and the family's `ahead`
 * next ones where missing, and drops whole periods that ended more than the family's retention ago
 * (detach, then drop: never a row-by-row delete). Safe with several replicas: every partition change
 * of a family in a schema takes one advisory lock, and making a period that exists or dropping one
 * already gone does nothing.
 */
@Injectable()
export class PartitionMaintenanceJob extends PeriodicJob {
  constructor(
    private readonly db: ModeDb,
    private readonly config: ConfigService<AllConfig, true>,
  ) {
    super(PARTITIONS_INTERVAL_MS);
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
      made[family.name] = await this.eachScopedMode({ modes }, () =>
        ensurePartitions(
          this.db.manager,
          this.db.schema,
          family,
          periodStart(now, family.granularity),
          periodStart(now, family.granularity, family.ahead),
        ),
      );
    }
    return made;
  }

  /** Drops each family's periods wholly before `now` minus its retention. */
  async retire(now: Date, modes?: Mode[], families = PARTITION_FAMILIES): Promise<PartitionChanges> {
    const dropped: PartitionChanges = {};
    for (const family of families) {
      const cutoff = new Date(now.getTime() - this.retentionMs(family));
      dropped[family.name] = await this.eachScopedMode({ modes }, () =>
        dropPartitionsBefore(this.db.manager, this.db.schema, family, cutoff),
      );
      const names = dropped[family.name].flat();
      if (names.length) this.logger.log(`dropped partition(s) ${names.join(', ')} (before ${cutoff.toISOString()})`);
    }
    return dropped;
  }
}
