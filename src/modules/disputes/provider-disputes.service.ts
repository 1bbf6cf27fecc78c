import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import type { Mode } from '../../common/context/principal.js';
import { newId } from '../../common/ids.js';
import { inScope, type JobScope } from '../../common/jobs/job-scope.js';
import { claimThenApply, type ClaimNotice, type OutcomeResult } from '../../common/providers/provider-outcomes.js';
import { DisputeProviderError, type ProviderDispute } from '../../providers/ports/dispute.port.js';
import { ProviderAdapters } from '../../providers/provider-adapters.js';
import { ChargesService, type Charge } from '../checkout/index.js';
import { DisputeRecords, disputeNumber, evidenceDetails, EVIDENCE_WINDOW_MS } from './dispute-records.js';
import { DisputeJournals, disputeFee } from './dispute.journals.js';
import { isClosed, type DisputeStatus } from './dispute.transitions.js';
import { DisputesRepository } from './disputes.repository.js';
import { Dispute } from './entities/dispute.entity.js';
import { planProviderSync } from './provider-dispute.sync.js';

/** How far back the reconciliation job lists a provider's disputes (by creation). */
export const DISPUTE_LIST_WINDOW_MS = 3 * 24 * 3600 * 1000;
/** An open provider dispute not heard of for this long is read back by the reconciliation job. */
export const DISPUTE_RESYNC_AFTER_MS = 3600 * 1000;

/**
 * Disputes reported by a real provider (Opn, Stripe): a snapshot, from a verified webhook or read
 * back by the reconciliation job, creates the service's dispute or moves it, in one transaction
 * that claims the webhook's notice first (a replay changes nothing), locks the charge, then the
 * dispute, and books what planProviderSync says (withdrawal, the provider's fee, the final
 * journal) through DisputeJournals. A snapshot for a charge this service does not know is
 * `unknown`.
 */
@Injectable()
export class ProviderDisputesService {
  private readonly logger = new Logger(ProviderDisputesService.name);

  constructor(
    private readonly disputes: DisputesRepository,
    private readonly charges: ChargesService,
    private readonly journals: DisputeJournals,
    private readonly records: DisputeRecords,
    private readonly adapters: ProviderAdapters,
    private readonly clock: Clock,
  ) {}

  /** Applies `snapshot` (in the mode bound); `scope` limits it to some applications (jobs in tests). */
  async apply(
    provider: string,
    snapshot: ProviderDispute,
    claim?: ClaimNotice,
    scope: Pick<JobScope, 'applicationIds'> = {},
  ): Promise<OutcomeResult> {
    const found = await this.charges.findByProviderReference(provider, snapshot.charge_reference);
    if (!found?.country || !inScope(scope, found.application_id)) return 'unknown';
    const applicationId = found.application_id;
    const country = found.country;
    const done = await this.disputes.transaction((manager) =>
      claimThenApply(manager, claim, async (): Promise<OutcomeResult> => {
        const charge = await this.charges.lockById(applicationId, found.id, manager);
        if (!charge) return 'unknown';
        let d = await this.disputes.lockByProviderId(applicationId, provider, snapshot.reference, manager);
        let created = false;
        if (!d) {
          if (await this.disputes.findByCharge(applicationId, charge.id, manager)) {
            this.logger.warn(`${provider} dispute ${snapshot.reference}: charge ${charge.id} has another dispute`);
            return 'unchanged';
          }
          d = await this.open(provider, snapshot, charge, country, manager);
          created = true;
        }
        const changed = await this.move(d, snapshot, charge, manager);
        return created || changed ? 'applied' : 'unchanged';
      }),
    );
    return done;
  }

  /**
   * For lost webhooks, in the mode bound: lists each provider's disputes created within
   * DISPUTE_LIST_WINDOW_MS and applies those not closed here; then reads back the open ones not
   * heard of for DISPUTE_RESYNC_AFTER_MS (a lost update or close). Up to `limit` of each per
   * provider; a provider that does not answer is left for the next run.
   */
  async reconcile(mode: Mode, limit: number, scope: JobScope = {}): Promise<{ read: number; applied: number }> {
    const now = this.clock.nowMs();
    let read = 0;
    let applied = 0;
    const providers = this.adapters.disputeProviders(mode);
    for (const provider of providers) {
      let recent: ProviderDispute[];
      try {
        recent = await provider.listRecent(new Date(now - DISPUTE_LIST_WINDOW_MS), limit);
      } catch (err) {
        if (!(err instanceof DisputeProviderError)) throw err;
        this.logger.warn(`${provider.name} disputes could not be listed: ${err.message}`);
        continue;
      }
      for (const snapshot of recent) {
        const known = await this.disputes.findByProviderId(provider.name, snapshot.reference);
        if (known && isClosed(known.status)) continue;
        read += 1;
        if ((await this.apply(provider.name, snapshot, undefined, scope)) === 'applied') applied += 1;
      }
    }
    const names = providers.map((p) => p.name);
    const stale = await this.disputes.staleAtProviders(names, new Date(now - DISPUTE_RESYNC_AFTER_MS), limit, scope);
    for (const d of stale) {
      const provider = this.adapters.disputesFor(d.provider!, mode);
      if (!provider) continue;
      read += 1;
      try {
        const snapshot = await provider.retrieve(d.provider_id!);
        if ((await this.apply(provider.name, snapshot, undefined, scope)) === 'applied') applied += 1;
      } catch (err) {
        if (!(err instanceof DisputeProviderError)) throw err;
        this.logger.warn(`${provider.name} dispute ${d.provider_id} could not be read back: ${err.message}`);
      }
    }
    return { read, applied };
  }

  /** The service's dispute for a provider's new one, open (moved to its status by `move`), with charge.dispute.created. */
  private async open(
    provider: string,
    snapshot: ProviderDispute,
    charge: Charge,
    country: string,
    manager: EntityManager,
  ): Promise<Dispute> {
    const now = this.clock.now();
    const inquiry = snapshot.status === 'warning_needs_response' || snapshot.status === 'warning_closed';
    const d = await this.disputes.insert(
      Object.assign(new Dispute(), {
        id: newId(),
        application_id: charge.application_id,
        country,
        number: disputeNumber(now),
        charge_id: charge.id,
        payment_intent: charge.payment_intent,
        currency: charge.currency,
        status: inquiry ? 'warning_needs_response' : 'needs_response',
        reason: snapshot.reason,
        network_reason_code: snapshot.network_reason_code,
        idempotency_key: null,
        provider,
        provider_id: snapshot.reference,
        reference_id: charge.reference_id,
        forex_quote_id: null,
        settled: false,
        reinstated: false,
        amount_from_merchant: snapshot.amount,
        amount_from_app: 0,
        amount: snapshot.amount,
        scaling_factor: charge.scaling_factor,
        evidence: {},
        metadata: {},
        labels: [],
        evidence_due_by: snapshot.due_by ?? new Date(snapshot.created_at.getTime() + EVIDENCE_WINDOW_MS),
        opened_at: snapshot.created_at,
        closed_at: null,
        funds_withdrawn: false,
        fee_booked: 0,
        submission_count: 0,
        has_evidence: false,
        submission_started_at: null,
        close_started_at: null,
        provider_synced_at: null,
        created_at: now,
        updated_at: now,
      }),
      manager,
    );
    await this.records.record(manager, d, 'charge.dispute.created');
    return d;
  }

  /** Moves `d` to the snapshot's state with its journals; true when anything but the sync time changed. */
  private async move(d: Dispute, snapshot: ProviderDispute, charge: Charge, manager: EntityManager): Promise<boolean> {
    const plan = planProviderSync(
      { status: d.status as DisputeStatus, funds_withdrawn: d.funds_withdrawn, fee_booked: Number(d.fee_booked) },
      snapshot,
      disputeFee(charge.currency, charge.scaling_factor),
    );
    const from = d.status;
    const details = evidenceDetails(d);
    const withdrawn = d.funds_withdrawn;
    if (plan.withdraw) {
      await this.journals.opened(d, charge, manager);
      d.funds_withdrawn = true;
    }
    if (plan.feeDelta !== 0) {
      await this.journals.fee(d, charge, plan.feeDelta, manager);
      d.fee_booked = Number(d.fee_booked) + plan.feeDelta;
    }
    if (plan.close === 'won' && plan.reinstated) await this.journals.won(d, charge, manager);
    if (plan.close === 'lost') await this.journals.lost(d, charge, manager, plan.lostFee);
    const now = this.clock.now();
    d.status = plan.status;
    if (!isClosed(from)) {
      d.submission_count = Math.max(d.submission_count, snapshot.submission_count);
      d.has_evidence = d.has_evidence || snapshot.has_evidence;
      if (snapshot.due_by) d.evidence_due_by = snapshot.due_by;
    }
    // The provider has the submission once it says so: an interrupted one is finished.
    if (d.submission_started_at && (snapshot.submission_count > 0 || plan.status !== 'needs_response')) {
      d.submission_started_at = null;
    }
    // Closed at the provider: an interrupted accept (POST /disputes/{id}/close) is finished.
    if (isClosed(plan.status)) d.close_started_at = null;
    if (plan.close) Object.assign(d, { settled: true, reinstated: plan.reinstated, closed_at: now });
    const previous: Record<string, unknown> = {};
    if (from !== d.status) previous.status = from;
    if (JSON.stringify(details) !== JSON.stringify(evidenceDetails(d))) previous.evidence_details = details;
    const changed = Object.keys(previous).length > 0 || d.funds_withdrawn !== withdrawn || plan.feeDelta !== 0;
    d.provider_synced_at = now;
    if (changed) d.updated_at = now;
    const saved = await this.disputes.save(d, manager);
    if (plan.close) {
      await this.records.record(manager, saved, 'charge.dispute.closed', {
        status: from,
        settled: false,
        reinstated: false,
        closed_at: null,
      });
    } else if (changed) {
      await this.records.record(manager, saved, 'charge.dispute.updated', previous);
    }
    return changed;
  }
}
