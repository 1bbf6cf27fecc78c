import { linkActiveSpan } from '../../../common/observability/trace-context.js';
import { Injectable, Logger } from '@nestjs/common';
import { scopeOf } from '../../../common/context/principal.js';
import { RequestContext } from '../../../common/context/request-context.js';
import {
  claimThenApply,
  readBackAndApply,
  type ClaimNotice,
  type OutcomeResult,
} from '../../../common/providers/provider-outcomes.js';
import { AppError } from '../../../common/errors/app-error.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { ApplicationsService } from '../../applications/index.js';
import { SessionsService } from '../../auth/index.js';
import { CheckoutsService } from '../checkouts/checkouts.service.js';
import type { Charge } from '../entities/charge.entity.js';
import { ChargesRepository } from './charges.repository.js';
import { ChargesService } from './charges.service.js';
import { CheckoutPaymentsService } from './checkout-payments.service.js';
import { CollectionProviderError, type ProviderPayment } from '../../../providers/ports/collection.port.js';
import { CollectionProviders } from './providers/collection-providers.js';
import { chargeMethodType } from '../../../providers/ports/payment-method-types.js';
import type { Target } from '../targets/targets.service.js';

/**
 * A provider's outcome for a pending charge that did not come back in the payment call's answer:
 * a PromptPay QR code paid (or not) later, a 3-D Secure card charge after the payer returned. It
 * arrives by the provider's webhook (verified by the provider-events module) or by the
 * reconciliation job reading the charge back. Applied with the confirm path's own steps
 * (CheckoutPaymentsService.succeed / recordFailure: ledger posting, checkout complete, target paid or its
 * failure, the events), in one transaction that locks checkout, charge and target in the order
 * payments take them. The mode is the one bound by the caller (runInMode). Provider calls happen
 * before the transaction, never under a lock.
 */
@Injectable()
export class ChargeOutcomesService {
  private readonly logger = new Logger(ChargeOutcomesService.name);

  constructor(
    private readonly charges: ChargesRepository,
    private readonly chargesService: ChargesService,
    private readonly checkouts: CheckoutsService,
    private readonly payments: CheckoutPaymentsService,
    private readonly providers: CollectionProviders,
    private readonly applications: ApplicationsService,
    private readonly sessions: SessionsService,
    private readonly context: RequestContext,
  ) {}

  /** Applies `result` (the provider's state of the charge it knows by `result.reference`). */
  async apply(provider: string, result: ProviderPayment, claim?: ClaimNotice): Promise<OutcomeResult> {
    const found = await this.charges.byProviderReference(provider, result.reference);
    if (!found) return 'unknown';
    linkActiveSpan(found.traceparent);
    return this.applyTo(found, provider, result, claim);
  }

  /**
   * Applies `result` to the charge `found` (the provider's answer for it, read back by its id when
   * the charge has no reference yet). A pending answer to a charge without a reference records the
   * reference (and the PromptPay code), so the webhook or ProviderReconciliationJob finishes it.
   */
  async applyTo(found: Charge, provider: string, result: ProviderPayment, claim?: ClaimNotice): Promise<OutcomeResult> {
    const applicationId = found.application_id;
    // Read before the transaction: the application (events name its slug) and, for a failure, its
    // reason from the provider (a webhook says only that it failed).
    const application = (await this.applications.byIds([applicationId])).get(applicationId);
    if (!application) return 'unknown';
    let outcome = result;
    if (result.status === 'failed' && !result.failure) outcome = await this.withFailure(provider, result);
    const pendingOn = await this.checkouts.pendingOn(applicationId, found.id);
    const scope = scopeOf(application, this.context.mode);

    const done = await this.payments.transaction((manager) =>
      claimThenApply(manager, claim, async () => {
        const checkout = pendingOn ? await this.checkouts.find(applicationId, pendingOn.id, manager, true) : null;
        const charge = await this.chargesService.lockById(applicationId, found.id, manager);
        if (!charge || charge.status !== 'pending') return { result: 'unchanged' as const };
        if (outcome.status === 'pending') {
          if (charge.reference_id) return { result: 'unchanged' as const };
          await this.chargesService.recordProviderFacts(
            charge,
            { reference_id: outcome.reference, settlement_status: 'pending', promptpay: outcome.promptpay ?? null },
            manager,
          );
          return { result: 'applied' as const };
        }
        if (!checkout || checkout.pending_charge_id !== charge.id) {
          if (outcome.status === 'succeeded') this.reconcileLater(provider, outcome.reference, charge.id);
          return { result: 'unchanged' as const };
        }
        let target: Target | null = null;
        try {
          target = await this.payments.lockTarget(checkout, manager);
        } catch (refused) {
          if (!(refused instanceof AppError)) throw refused;
        }
        if (outcome.status === 'authorized') {
          if (!target) {
            this.reconcileLater(provider, outcome.reference, charge.id);
            return { result: 'unchanged' as const };
          }
          await this.payments.authorize(scope, checkout, target, charge, manager, { reference_id: outcome.reference });
          return { result: 'applied' as const, sessionId: checkout.session_id };
        }
        if (outcome.status === 'succeeded') {
          if (!target) {
            this.reconcileLater(provider, outcome.reference, charge.id);
            return { result: 'unchanged' as const };
          }
          const method = chargeMethodType(charge);
          await this.payments.succeed(scope, checkout, target, charge, method, manager, {
            reference_id: outcome.reference,
          });
          return { result: 'applied' as const, sessionId: checkout.session_id };
        }
        const failed = await this.chargesService.transition(
          charge,
          'fail',
          {
            reference_id: charge.reference_id ?? outcome.reference,
            failure_code: outcome.failure?.code ?? 'payment_failed',
            failure_reason: outcome.failure?.reason ?? null,
            failure_message: outcome.failure?.message ?? 'The payment provider reported that the payment failed.',
            reason_source: 'provider',
            settlement_status: null,
            expires_at: null,
            next_action: [],
          },
          manager,
        );
        await this.payments.clearPending(checkout, manager);
        if (target) await this.payments.recordFailure(target, failed, manager);
        return { result: 'applied' as const };
      }),
    );
    if (done === 'duplicate') return done;
    if ('sessionId' in done && done.sessionId) await this.sessions.complete(done.sessionId);
    return done.result;
  }

  /**
   * Reads back from their providers the pending charges of `providers` created before `before`
   * (up to `limit`), and applies what is final. A provider that does not answer leaves the charge
   * for the next run. Returns how many were read and applied.
   */
  async reconcile(
    providers: string[],
    before: Date,
    limit: number,
    scope: Pick<JobScope, 'applicationIds'> = {},
  ): Promise<{ read: number; applied: number }> {
    const pending = await this.charges.pendingAtProviders(providers, before, limit, scope);
    return readBackAndApply(
      pending,
      (charge) => this.readBack(charge),
      (charge, answer) => this.apply(charge.provider!, answer),
    );
  }

  /**
   * The lost answers: pending charges with no provider reference recorded before `before` (their
   * request lost the database or its process after recording the attempt) are read back from their
   * provider by OUR id (`paymentByChargeId`) and the answer applied. A provider that made no payment
   * for the charge had the call never reach it: the attempt is failed, nothing was charged. A
   * provider that cannot be asked leaves the charge for the next run.
   */
  async reconcileUnanswered(
    before: Date,
    limit: number,
    scope: Pick<JobScope, 'applicationIds'> = {},
  ): Promise<{ read: number; applied: number }> {
    const unanswered = await this.charges.unanswered(before, limit, scope);
    let applied = 0;
    for (const charge of unanswered) {
      if ((await this.finishUnanswered(charge)) === 'applied') applied += 1;
    }
    return { read: unanswered.length, applied };
  }

  /** One charge without an answer: read back by its id and applied, or failed when the provider made none. */
  async finishUnanswered(charge: Charge): Promise<OutcomeResult | 'unreachable'> {
    const provider = charge.provider!;
    let payment: ProviderPayment | null;
    try {
      payment = await this.providers.named(provider).paymentByChargeId(charge.id, charge.created_at);
    } catch (err) {
      if (!(err instanceof CollectionProviderError)) throw err;
      this.logger.warn({ err }, `charge ${charge.id}: ${provider} could not be asked; retried next run`);
      return 'unreachable';
    }
    if (payment) return this.applyTo(charge, provider, payment);
    const pendingOn = await this.checkouts.pendingOn(charge.application_id, charge.id);
    const failed = await this.payments.abandon(
      charge.application_id,
      pendingOn?.id ?? null,
      charge.id,
      new Error(`${provider} made no payment for this attempt; nothing was charged.`),
    );
    return failed ? 'applied' : 'unchanged';
  }

  private async readBack(charge: Charge): Promise<ProviderPayment | null> {
    try {
      return await this.providers.named(charge.provider!).confirmPromptPay(charge.reference_id!);
    } catch (err) {
      this.logger.warn({ err }, `charge ${charge.id}: ${charge.provider} could not be asked; retried next run`);
      return null;
    }
  }

  private async withFailure(provider: string, result: ProviderPayment): Promise<ProviderPayment> {
    try {
      const read = await this.providers.named(provider).confirmPromptPay(result.reference);
      return read.status === 'failed' ? read : result;
    } catch {
      return result;
    }
  }

  private reconcileLater(provider: string, reference: string, chargeId: string): void {
    this.logger.error(
      `provider ${provider} reports payment ${reference} of charge ${chargeId} paid, but the charge's checkout ` +
        'can no longer be paid: refund or reconcile it with the provider',
    );
  }
}
