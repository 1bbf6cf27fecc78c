import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { PartitionMaintenanceJob } from '../../common/database/partitions/partition-maintenance.job.js';
import { AUDIT_EVENTS } from '../../common/database/partitions/partitioned-tables.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import { AuditChainKeeper } from './audit-chain-keeper.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';
import { AuthFailureBursts, BURST_WINDOW_MS } from './auth-failure-bursts.js';

/**
 * Writes one `authentication.failed_burst` row per (application, client address, credential
 * prefix, minute) that reached the burst threshold, after the minute ended (AuthFailureBursts).
 */
@Injectable()
export class AuditBurstJob extends PeriodicJob {
  constructor(
    private readonly bursts: AuthFailureBursts,
    private readonly audit: AuditService,
    private readonly repository: AuditRepository,
  ) {
    super(BURST_WINDOW_MS / 4);
  }

  protected runOnce(): Promise<number> {
    return this.flush(this.clock.nowMs());
  }

  /** Writes the ended windows at `nowMs`; returns how many rows. */
  async flush(nowMs: number): Promise<number> {
    const ended = this.bursts.takeEnded(nowMs);
    for (const w of ended) {
      await this.repository.transaction((manager) =>
        this.audit.record(manager, {
          applicationId: w.applicationId,
          livemode: null,
          actor: { type: 'anonymous', id: null },
          action: 'authentication.failed_burst',
          target: { type: 'credential', id: w.credential },
          metadata: {
            client_address: w.clientAddress,
            failures: w.count,
            window_start: new Date(w.windowStart).toISOString(),
            window_end: new Date(w.windowStart + BURST_WINDOW_MS).toISOString(),
          },
        }),
      );
    }
    return ended.length;
  }
}

/**
 * Audit retention (docs/AUDIT.md "Retention"): whole months of `platform.audit_events` are dropped by
 * the partition maintenance job once they ended AUDIT_RETENTION_DAYS (at least 365) ago, each behind
 * the signed checkpoints of what it held, written in the drop's transaction by the hook registered
 * here. `purge` runs the same drop now (`audit:retention`).
 */
@Injectable()
export class AuditRetention implements OnModuleInit {
  private readonly logger = new Logger('AuditRetention');

  constructor(
    private readonly keeper: AuditChainKeeper,
    private readonly partitions: PartitionMaintenanceJob,
  ) {}

  onModuleInit(): void {
    this.partitions.useBeforeDrop(AUDIT_EVENTS, () => this.keeper.beforeDrop());
  }

  /** Drops the months that ended more than the retention before `now`, behind their checkpoints; answers the rows removed. */
  async purge(now: Date): Promise<{ rows: number; partitions: string[] }> {
    const removed = { rows: 0 };
    const dropped = await this.partitions.retireFamily(AUDIT_EVENTS, now, await this.keeper.beforeDrop(removed));
    if (removed.rows > 0) this.logger.log(`removed ${removed.rows} audit row(s) behind signed checkpoints`);
    return { rows: removed.rows, partitions: dropped.flat() };
  }
}
