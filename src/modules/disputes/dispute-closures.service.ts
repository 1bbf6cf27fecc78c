import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { countryOf, type Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { DisputeProviderError, type ProviderDispute } from '../../providers/ports/dispute.port.js';
import { ProviderAdapters } from '../../providers/provider-adapters.js';
import { disputeTransition, isClosed, type DisputeStatus } from './dispute.transitions.js';
import { DisputeErrors } from './disputes.errors.js';
import { DisputesRepository } from './disputes.repository.js';
import type { Dispute } from './entities/dispute.entity.js';
import { ProviderDisputesService } from './provider-disputes.service.js';

/**
 * POST /disputes/{id}/close on a dispute a real provider reported: the merchant's accept is sent
 * to the provider (Stripe `POST /v1/disputes/{id}/close`, Opn `PATCH /disputes/{id}/accept`), as
 * load, decide, call, record, like an evidence submission (DisputeSubmissions):
 * 1. under the dispute's lock: the transition (E9504, E9505) and the recovery point
 *    `close_started_at`; committed;
 * 2. the provider is called with no lock held, with the idempotency key `dispute:<id>:close`;
 * 3. the provider's closed dispute is applied as its webhook would be (ProviderDisputesService:
 *    the charge then the dispute locked, the lost journal with the provider's fee or the table fee,
 *    charge.dispute.closed), which clears the recovery point.
 * A refusal by the provider (E9510) clears the recovery point; no answer (E5002) keeps it: closing
 * again repeats the call with the same key, and the reconciliation job's read-back (or the
 * provider's `closed` webhook) records the outcome.
 */
@Injectable()
export class DisputeClosures {
  private readonly logger = new Logger(DisputeClosures.name);

  constructor(
    private readonly disputes: DisputesRepository,
    private readonly adapters: ProviderAdapters,
    private readonly providerDisputes: ProviderDisputesService,
    private readonly clock: Clock,
  ) {}

  /** Accepts at the dispute's provider; null when the dispute is not at a real provider (closed here alone). */
  async closeAtProvider(principal: Principal, id: string): Promise<Dispute | null> {
    const found = await this.disputes.findById(principal.application.id, countryOf(principal), id);
    const provider =
      found?.provider && found.provider_id ? this.adapters.disputesFor(found.provider, principal.mode) : undefined;
    if (!found || !provider) return null;
    disputeTransition(found.status as DisputeStatus, 'accept');

    const started = await this.disputes.transaction(async (manager) => {
      const d = await this.lock(principal, id, manager);
      disputeTransition(d.status as DisputeStatus, 'accept');
      const now = this.clock.now();
      d.close_started_at ??= now;
      d.updated_at = now;
      return this.disputes.save(d, manager);
    });
    let answer: ProviderDispute;
    try {
      answer = await provider.accept(started.provider_id!, `dispute:${started.id}:close`);
    } catch (err) {
      if (!(err instanceof DisputeProviderError)) throw err;
      return this.failed(principal, started, err);
    }
    if (!isClosed(answer.status)) {
      this.logger.warn(
        `${provider.name} dispute ${answer.reference}: accepted, but the provider says ${answer.status}`,
      );
    }
    await this.providerDisputes.apply(provider.name, answer);
    const after = await this.disputes.findById(principal.application.id, countryOf(principal), id);
    return after ?? started;
  }

  /** The provider refused (the recovery point is cleared: nothing changed there) or did not answer (kept). */
  private async failed(principal: Principal, d: Dispute, err: DisputeProviderError): Promise<never> {
    this.logger.warn(`${d.provider} dispute ${d.provider_id}: not accepted: ${err.message}`);
    if (!err.refused) {
      throw new AppError(Errors.E5002, `${err.message}. Closing again repeats the same request.`);
    }
    await this.disputes.transaction(async (manager) => {
      const locked = await this.lock(principal, d.id, manager);
      locked.close_started_at = null;
      await this.disputes.save(locked, manager);
    });
    throw new AppError(DisputeErrors.E9510, `${err.message}.`);
  }

  private async lock(principal: Principal, id: string, manager: Parameters<DisputesRepository['lock']>[3]) {
    const d = await this.disputes.lock(principal.application.id, countryOf(principal), id, manager);
    if (!d) throw new AppError(Errors.E4004, `No dispute with id "${id}" in this country.`);
    return d;
  }
}
