import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import type { AllConfig } from '../../config/app.config.js';
import { AuditChainKeeper } from './audit-chain-keeper.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';
import { AuthFailureBursts, BURST_WINDOW_MS } from './auth-failure-bursts.js';

const DAY_MS = 24 * 3600_000;

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

/** Removes audit rows older than AUDIT_RETENTION_DAYS (at least 365) behind signed checkpoints, hourly. */
@Injectable()
export class AuditRetentionJob extends PeriodicJob {
  private readonly retentionMs: number;

  constructor(
    private readonly keeper: AuditChainKeeper,
    config: ConfigService<AllConfig, true>,
  ) {
    super(60 * 60_000);
    this.retentionMs = config.get('app.auditRetentionDays', { infer: true }) * DAY_MS;
  }

  protected runOnce(): Promise<number> {
    return this.purge(this.clock.now());
  }

  /** Removes what is older than the retention at `now` (of `applicationIds`' chains only, when given). */
  async purge(now: Date, applicationIds?: string[]): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retentionMs);
    const removed = await this.keeper.removeBefore(cutoff, applicationIds);
    if (removed > 0) this.logger.log(`removed ${removed} audit row(s) written before ${cutoff.toISOString()}`);
    return removed;
  }
}
