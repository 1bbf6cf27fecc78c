import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Mode } from '../../common/context/principal.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import type { AllConfig } from '../../config/app.config.js';
import { monthStart } from './meter-event-partitions.sql.js';
import { MeterEventsRepository } from './meter-events.repository.js';

/** How often each replica makes partitions ahead and drops expired ones; cheap when nothing is due. */
export const PARTITIONS_INTERVAL_MS = 60 * 60_000;
/** Months made ahead of the current one: a replica down for weeks still leaves inserts a partition. */
const MONTHS_AHEAD = 2;
const DAY_MS = 86_400_000;

/**
 * The monthly partitions of `meter_events` (docs/METERING.md "Partitions"), in both mode schemas:
 * makes the current month's and the next MONTHS_AHEAD months' where missing (the migration made the
 * months of its day; a row whose month is still missing when it is stored makes it then, see
 * MeterEventsRepository), and drops whole months received more than
 * METER_EVENT_RETENTION_DAYS ago (detach, then drop: never a row-by-row delete). Safe with several
 * replicas: every partition change of a schema takes one advisory lock, and making a month that
 * exists or dropping one already gone does nothing.
 */
@Injectable()
export class MeterEventPartitionsJob extends PeriodicJob {
  private readonly retentionMs: number;

  constructor(
    private readonly events: MeterEventsRepository,
    config: ConfigService<AllConfig, true>,
  ) {
    super(PARTITIONS_INTERVAL_MS);
    this.retentionMs = config.get('app.meterEventRetentionDays', { infer: true }) * DAY_MS;
  }

  protected runOnce(): Promise<unknown> {
    const now = this.clock.now();
    return this.ensureAhead(now).then(() => this.retire(now));
  }

  /** Makes the partitions of `now`'s month and the MONTHS_AHEAD after it where missing; answers those made per mode. */
  ensureAhead(now: Date, modes?: Mode[]): Promise<string[][]> {
    return this.eachScopedMode({ modes }, () =>
      this.events.ensurePartitions(monthStart(now), monthStart(now, MONTHS_AHEAD)),
    );
  }

  /** Drops the months wholly received before `now` minus the retention; answers those dropped per mode. */
  async retire(now: Date, modes?: Mode[]): Promise<string[][]> {
    const cutoff = new Date(now.getTime() - this.retentionMs);
    const dropped = await this.eachScopedMode({ modes }, () => this.events.dropPartitionsBefore(cutoff));
    const names = dropped.flat();
    if (names.length)
      this.logger.log(`dropped meter event partition(s) ${names.join(', ')} (received before ${cutoff.toISOString()})`);
    return dropped;
  }
}
