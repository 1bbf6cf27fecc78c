import { linkActiveSpan } from '../../../common/observability/trace-context.js';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import type { EventType } from '../../../common/events/event-types.js';
import { Payout } from '../entities/payout.entity.js';
import { PayoutErrors } from '../payouts.errors.js';
import { SandboxTransferProvider } from '../providers/sandbox-transfer.provider.js';
import { TransferProviders } from '../providers/transfer-providers.js';
import { TransferProviderError, type ProviderTransfer } from '../../../providers/ports/transfer.port.js';
import { PayoutLifecycleRepository } from './payout-lifecycle.repository.js';
import { PayoutJournals } from './payout.journals.js';
import { canPayout, payoutTransition, type PayoutEvent, type PayoutStatus } from './payout.transitions.js';
import { payoutEvent, toPayoutResponse, type PayoutResponse } from './payouts.responses.js';

/** The sandbox "bank" credits a payout in transit one business day later (informational `arrival_date`). */
const ARRIVAL_MS = 24 * 3600 * 1000;

/**
 * A payout after its creation: sending it to the transfer provider, applying the provider's
 * answers (pending -> in_transit -> paid | failed, or canceled) one transition at a time with
 * their postings and events, cancelling, the sandbox's test helpers and the job's reconciliation.
 */
@Injectable()
export class PayoutLifecycleService {
  private readonly logger = new Logger(PayoutLifecycleService.name);

  constructor(
    private readonly payouts: PayoutLifecycleRepository,
    private readonly journals: PayoutJournals,
    private readonly events: EventRecorder,
    private readonly providers: TransferProviders,
    private readonly sandbox: SandboxTransferProvider,
    private readonly clock: Clock,
  ) {}

  /** Starts the transfer at the provider (outside any transaction) and applies its answer. */
  async send(payout: Payout): Promise<Payout> {
    const provider = payout.provider ? this.providers.named(payout.provider) : undefined;
    const bank = await this.payouts.bankAccount(payout.application_id, payout.destination);
    if (!provider || !bank?.recipient_reference) return payout;
    let transfer: ProviderTransfer;
    try {
      transfer = await provider.createTransfer({
        applicationId: payout.application_id,
        payoutId: payout.id,
        recipientReference: bank.recipient_reference,
        amount: Number(payout.amount),
        currency: payout.currency,
        scalingFactor: payout.scaling_factor,
        livemode: payout.livemode,
      });
    } catch (error) {
      if (!(error instanceof TransferProviderError)) throw error;
      // The payout stays pending (cancelable); the payouts job sends it again (the payout id is the provider's idempotency key).
      this.logger.warn(`payout ${payout.id}: the transfer provider did not answer: ${error.message}`);
      return payout;
    }
    return this.apply(payout.application_id, payout.id, transfer);
  }

  /**
   * Brings a payout to the provider's state, one transition at a time (pending -> in_transit ->
   * paid), each with its ledger posting and event, in one transaction under the payout's row lock.
   */
  async apply(
    applicationId: string,
    id: string,
    transfer: ProviderTransfer,
    before?: (manager: EntityManager, payout: Payout) => Promise<boolean>,
  ): Promise<Payout> {
    return this.payouts.transaction(async (manager) => {
      let payout = (await this.payouts.lock(applicationId, id, manager))!;
      if (before && !(await before(manager, payout))) return payout;
      if (!payout.provider_reference) {
        await this.payouts.update(applicationId, id, { provider_reference: transfer.reference }, manager);
        payout.provider_reference = transfer.reference;
      }
      const steps: PayoutEvent[] =
        transfer.status === 'in_transit'
          ? ['send']
          : transfer.status === 'paid'
            ? ['send', 'pay']
            : transfer.status === 'failed'
              ? ['fail']
              : transfer.status === 'canceled'
                ? ['cancel']
                : [];
      for (const step of steps) {
        if (!canPayout(payout.status, step)) continue;
        payout = await this.step(payout, step, manager, transfer.failure);
      }
      return payout;
    });
  }

  /**
   * A provider's notice about the transfer it knows by `transfer.reference` (its webhook, verified
   * by the provider-events module), applied like the job's reconciliation. `claim` records the
   * notice in the same transaction; false (seen before) changes nothing.
   */
  async applyProviderOutcome(
    provider: string,
    transfer: ProviderTransfer,
    claim?: (manager: EntityManager) => Promise<boolean>,
  ): Promise<'applied' | 'unchanged' | 'duplicate' | 'unknown'> {
    const found = await this.payouts.byProviderReference(provider, transfer.reference);
    if (!found) return 'unknown';
    linkActiveSpan(found.traceparent);
    let result = 'unchanged' as 'applied' | 'unchanged' | 'duplicate';
    let before: string | undefined;
    const after = await this.apply(found.application_id, found.id, transfer, async (manager, payout) => {
      before = payout.status;
      if (claim && !(await claim(manager))) {
        result = 'duplicate';
        return false;
      }
      return true;
    });
    if (result !== 'duplicate' && after.status !== before) result = 'applied';
    return result;
  }

  /** Cancels a payout still pending: the provider first (outside the transaction), then the books. */
  async cancel(principal: Principal, id: string): Promise<PayoutResponse> {
    const applicationId = principal.application.id;
    const payout = await this.found(applicationId, id);
    payoutTransition(payout.status, 'cancel', id);
    if (payout.provider_reference && payout.provider) {
      const provider = this.providers.named(payout.provider);
      const transfer = await provider?.cancelTransfer(payout.provider_reference);
      if (transfer && transfer.status !== 'canceled') {
        const applied = await this.apply(applicationId, id, transfer);
        payoutTransition(applied.status, 'cancel', id);
      }
    }
    const canceled = await this.payouts.transaction(async (manager) => {
      const locked = (await this.payouts.lock(applicationId, id, manager))!;
      payoutTransition(locked.status, 'cancel', id);
      return this.step(locked, 'cancel', manager);
    });
    return toPayoutResponse(canceled);
  }

  /** Test mode: the sandbox bank settles a payout in transit (paid, or failed `could_not_process`). */
  async settleForTest(principal: Principal, id: string, outcome: 'paid' | 'failed'): Promise<PayoutResponse> {
    const applicationId = principal.application.id;
    const payout = await this.found(applicationId, id);
    payoutTransition(payout.status, outcome === 'paid' ? 'pay' : 'fail', id);
    if (payout.provider !== this.sandbox.name || !payout.provider_reference) {
      throw new AppError(PayoutErrors.E6305, `Payout "${id}" is not at the sandbox transfer provider.`);
    }
    const transfer = await this.sandbox.settle(payout.provider_reference, outcome);
    return toPayoutResponse(await this.apply(applicationId, id, transfer));
  }

  /** The job: sends pending payouts again and reconciles those in transit with the provider. */
  async reconcile(payout: Pick<Payout, 'id' | 'application_id'>): Promise<void> {
    const current = await this.payouts.find(payout.application_id, payout.id);
    if (!current || (current.status !== 'pending' && current.status !== 'in_transit')) return;
    if (!current.provider_reference) {
      await this.send(current);
      return;
    }
    const provider = current.provider ? this.providers.named(current.provider) : undefined;
    if (!provider) return;
    try {
      await this.apply(current.application_id, current.id, await provider.transferStatus(current.provider_reference));
    } catch (error) {
      if (!(error instanceof TransferProviderError)) throw error;
      this.logger.warn(`payout ${current.id}: no transfer status: ${error.message}`);
    }
  }

  /** The payout of this application, or E4004. */
  async found(applicationId: string, id: string): Promise<Payout> {
    const payout = await this.payouts.find(applicationId, id);
    if (!payout) throw new AppError(Errors.E4004, `No payout with id "${id}".`);
    return payout;
  }

  /** One transition: the status, its facts, its ledger posting and its event, in the caller's transaction. */
  private async step(
    payout: Payout,
    event: PayoutEvent,
    manager: EntityManager,
    failure?: { code: string; message: string },
  ): Promise<Payout> {
    const previous = payout.status;
    const status = payoutTransition(previous, event, payout.id);
    const now = this.clock.now();
    const facts: Partial<Payout> = { updated_at: now };
    if (status === 'in_transit') facts.arrival_date = new Date(now.getTime() + ARRIVAL_MS);
    if (status === 'paid') facts.paid_at = now;
    if (status === 'failed') {
      facts.failed_at = now;
      facts.failure_code = failure?.code ?? 'could_not_process';
      facts.failure_message = failure?.message ?? 'The bank could not process the payout.';
    }
    if (status === 'canceled') facts.canceled_at = now;
    const { status: _ignored, ...rest } = facts as Partial<Payout> & { status?: PayoutStatus };
    await this.payouts.writeStatus(payout.application_id, payout.id, status, rest as never, manager);
    const next = Object.assign(new Payout(), payout, rest, { status });
    if (status === 'paid') await this.journals.paid(next, manager);
    if (status === 'failed' || status === 'canceled') await this.journals.reversed(next, status, manager);
    const type: EventType =
      status === 'paid'
        ? 'payout.paid'
        : status === 'failed'
          ? 'payout.failed'
          : status === 'canceled'
            ? 'payout.canceled'
            : 'payout.updated';
    await this.events.record(manager, payoutEvent(type, next, { status: previous }));
    return next;
  }
}
