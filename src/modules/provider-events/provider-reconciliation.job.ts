import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import type { AllConfig } from '../../config/app.config.js';
import { ProviderAdapters } from '../../providers/provider-adapters.js';
import { ChargeOutcomesService } from '../checkout/index.js';
import { ProviderDisputesService } from '../disputes/index.js';
import { RefundsService } from '../refunds/index.js';

const INTERVAL_MS = 60_000;
const BATCH = 100;

export interface ReconciliationRun {
  charges_read: number;
  charges_applied: number;
  refunds_read: number;
  refunds_applied: number;
  disputes_read: number;
  disputes_applied: number;
}

/**
 * For a lost webhook: every minute (when RUN_JOBS is true), in both modes, reads back from the
 * real providers (every plug: Opn, Stripe) the charges and refunds still pending
 * PROVIDER_RECONCILE_AFTER_MINUTES (default 15) after they were created, and applies what is final through the same code paths as the webhook. Up to
 * BATCH of each per mode and run, oldest first; a provider that does not answer leaves them for
 * the next run. Payouts are read back by the payouts job already (PayoutLifecycleService.reconcile).
 * Disputes: each provider's disputes created in the last 3 days are listed and applied, and open
 * ones not heard of for an hour are read back (ProviderDisputesService.reconcile).
 * Safe with several replicas: applying is idempotent (state checked under the row lock).
 */
@Injectable()
export class ProviderReconciliationJob extends PeriodicJob {
  private readonly afterMs: number;

  constructor(
    private readonly adapters: ProviderAdapters,
    private readonly charges: ChargeOutcomesService,
    private readonly refunds: RefundsService,
    private readonly disputes: ProviderDisputesService,
    config: ConfigService<AllConfig, true>,
  ) {
    super(INTERVAL_MS);
    this.afterMs = config.get('app.providerReconcileAfterMinutes', { infer: true }) * 60_000;
  }

  protected runOnce(): Promise<unknown> {
    return this.run();
  }

  /** One run as of the service clock (scoped to some applications: tests share one database). */
  async run(scope: JobScope = {}): Promise<ReconciliationRun> {
    const before = new Date(this.clock.nowMs() - this.afterMs);
    const out: ReconciliationRun = {
      charges_read: 0,
      charges_applied: 0,
      refunds_read: 0,
      refunds_applied: 0,
      disputes_read: 0,
      disputes_applied: 0,
    };
    await this.eachScopedMode(scope, async (mode) => {
      // The real providers' outcomes may arrive late, by webhook; the sandboxes answer at once.
      const providers = this.adapters.names();
      const charges = await this.charges.reconcile(providers, before, BATCH, scope);
      const refunds = await this.refunds.reconcile(providers, before, BATCH, scope);
      out.charges_read += charges.read;
      out.charges_applied += charges.applied;
      out.refunds_read += refunds.read;
      out.refunds_applied += refunds.applied;
      const disputes = await this.disputes.reconcile(mode, BATCH, scope);
      out.disputes_read += disputes.read;
      out.disputes_applied += disputes.applied;
    });
    if (out.charges_applied + out.refunds_applied + out.disputes_applied > 0) {
      this.logger.log(`reconciled with providers: ${JSON.stringify(out)}`);
    }
    return out;
  }
}
