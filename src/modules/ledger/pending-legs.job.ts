import { Injectable } from '@nestjs/common';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import { HotLegsRepository } from './hot-legs.repository.js';

const INTERVAL_MS = 1_000;

/**
 * The sweep of queued legs on hot balances (docs/LEDGER.md, "Hot balances"): applies every leg still
 * queued, in each mode. Normally the applier has taken them right after their caller's commit; this
 * picks up what a killed process or a failed applier transaction left. Safe with several replicas:
 * an applier locks the balances first, so two sweeps of one balance run one after the other and the
 * second finds nothing.
 */
@Injectable()
export class PendingLegsJob extends PeriodicJob {
  constructor(private readonly hot: HotLegsRepository) {
    super(INTERVAL_MS);
  }

  protected async runOnce(): Promise<number> {
    const applied = await this.eachScopedMode({}, (mode) => this.hot.drain(mode));
    return applied.reduce((sum, n) => sum + n, 0);
  }
}
