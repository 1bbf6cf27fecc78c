import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import type { AllConfig } from '../../config/app.config.js';
import { EventsRepository } from './events.repository.js';

/** How often each replica purges; purging is idempotent and cheap when nothing is due. */
export const RETENTION_INTERVAL_MS = 60 * 60_000;
const BATCH = 1000;
const DAY_MS = 24 * 3600_000;

/**
 * Keeps events EVENT_RETENTION_DAYS (30 by default, never fewer: the contract promises `GET
 * /events` 30 days) and deletes them after, with their webhook deliveries and attempts, in both
 * mode schemas, in batches of BATCH oldest first. Safe with several replicas (SKIP LOCKED).
 */
@Injectable()
export class EventRetentionJob extends PeriodicJob {
  private readonly retentionMs: number;

  constructor(
    private readonly events: EventsRepository,
    config: ConfigService<AllConfig, true>,
  ) {
    super(RETENTION_INTERVAL_MS);
    this.retentionMs = config.get('app.eventRetentionDays', { infer: true }) * DAY_MS;
  }

  protected runOnce(): Promise<unknown> {
    return this.purge(this.clock.now());
  }

  /** Deletes what is older than the retention at `now`; returns how many events went. */
  async purge(now: Date, scope: JobScope = {}): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retentionMs);
    const perMode = await this.eachScopedMode(scope, () =>
      this.untilDrained(BATCH, () => this.events.purgeBefore(cutoff, BATCH, scope.applicationIds ?? null)),
    );
    const purged = perMode.reduce((sum, n) => sum + n, 0);
    if (purged > 0) this.logger.log(`purged ${purged} event(s) created before ${cutoff.toISOString()}`);
    return purged;
  }
}
