import { linkActiveSpan } from '../../common/observability/trace-context.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import { IdempotencyScope } from '../../common/idempotency/idempotency-scope.js';
import { newId } from '../../common/ids.js';
import {
  claimThenApply,
  readBackAndApply,
  type ClaimNotice,
  type OutcomeResult,
} from '../../common/providers/provider-outcomes.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../common/list/index.js';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { ChargesService, CollectionProviders, toChargeResponse, type Charge } from '../checkout/index.js';
import { CollectionProviderError, type ProviderRefund } from '../../providers/ports/collection.port.js';
import { BalancesService } from '../ledger/index.js';
import { chargeMethodType, type PaymentMethodType } from '../../providers/ports/payment-method-types.js';
import type { CreateRefundDto } from './dto/refund.dto.js';
import { Refund } from './entities/refund.entity.js';
import { RefundJournals } from './refund.journals.js';
import { NEW_REFUND_STATUS, REFUND_STATUSES, refundTransition, type RefundEvent } from './refund.transitions.js';
import { RefundErrors } from './refunds.errors.js';
import { RefundsRepository } from './refunds.repository.js';
import { toRefundResponse, type RefundResponse } from './refunds.responses.js';

export const REFUND_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    status: ListFilters.oneOf(REFUND_STATUSES),
    charge_id: ListFilters.uuid,
    reason: ListFilters.word,
    currency: ListFilters.currency,
    amount: ListFilters.money,
    created: ListFilters.createdOf('r'),
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'amount'],
  search: ['id', 'reference_id', 'reason'],
};

/**
 * Refunds (docs/REFUNDS.md). A refund is recorded `pending` with its ledger debit and the charge's
 * `amount_refunded` in one transaction; the provider is called after it commits, outside any lock;
 * its answer is applied in a second transaction (succeeded: the money leaves through the provider;
 * failed: the debit is returned; pending: a later settle applies it).
 */
@Injectable()
export class RefundsService {
  constructor(
    private readonly refunds: RefundsRepository,
    private readonly charges: ChargesService,
    private readonly providers: CollectionProviders,
    private readonly balances: BalancesService,
    private readonly journals: RefundJournals,
    private readonly events: EventRecorder,
    private readonly idempotency: IdempotencyScope,
    private readonly clock: Clock,
  ) {}

  async retrieve(principal: Principal, id: string): Promise<RefundResponse> {
    const refund = await this.refunds.find(principal.application.id, id);
    if (!refund) throw new AppError(Errors.E4004, `No refund with id "${id}".`);
    return toRefundResponse(refund);
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<RefundResponse>> {
    return runList(this.refunds.query(principal.application.id), REFUND_LIST, query, toRefundResponse);
  }

  /**
   * A resend of a keyed request whose earlier attempt committed the pending refund resumes it
   * (docs/IDEMPOTENCY.md): the provider is asked again with the same refund id, its idempotency key.
   */
  async create(principal: Principal, dto: CreateRefundDto): Promise<RefundResponse> {
    const applicationId = principal.application.id;
    const resumed = this.idempotency.resumes('refund');
    if (resumed) {
      const refund = (await this.refunds.find(applicationId, resumed))!;
      return toRefundResponse(await this.send(refund, { failUnreachable: false }));
    }
    const pending = await this.refunds.transaction(async (manager) => {
      const recorded = await this.recordPending(applicationId, dto, manager);
      await this.idempotency.checkpoint(manager, 'refund', recorded.refund.id);
      return recorded;
    });
    return toRefundResponse(await this.send(pending.refund, { failUnreachable: true, charge: pending.charge }));
  }

  /**
   * Sends a pending refund that has no answer from its provider yet and applies the answer; one
   * that has it is returned as it is. The refund id is the provider's idempotency key, so asking
   * again after a lost answer reads back the first answer. A provider that cannot be reached fails
   * the refund when this is the first ask (`failUnreachable`: nothing was refunded) and leaves it
   * pending otherwise (an earlier ask may have reached it).
   */
  private async send(refund: Refund, how: { failUnreachable: boolean; charge?: Charge }): Promise<Refund> {
    if (refund.status !== 'pending' || refund.reference_id) return refund;
    const applicationId = refund.application_id;
    const charge = how.charge ?? (await this.charges.findById(applicationId, refund.charge_id))!;
    let answer: ProviderRefund;
    try {
      answer = await this.providers.named(refund.provider ?? 'sandbox').refund({
        applicationId,
        refundId: refund.id,
        chargeReference: charge.reference_id ?? charge.id,
        method: refund.method as PaymentMethodType,
        amount: Number(refund.amount),
        currency: refund.currency,
        scalingFactor: refund.scaling_factor,
        livemode: refund.livemode,
      });
    } catch (error) {
      if (!(error instanceof CollectionProviderError)) throw error;
      if (!how.failUnreachable) return refund;
      answer = {
        status: 'failed',
        reference: '',
        failure: {
          code: 'provider_unavailable',
          reason: 'provider_unavailable',
          message: 'The payment provider could not be reached; nothing was refunded.',
        },
      };
    }
    return this.apply(applicationId, refund.id, answer);
  }

  /**
   * Test helper: the provider settles a pending (PromptPay) refund. Asks the provider for the
   * refund's outcome by its reference and applies it.
   */
  async settleForTest(principal: Principal, id: string): Promise<RefundResponse> {
    const applicationId = principal.application.id;
    const refund = await this.refunds.find(applicationId, id);
    if (!refund) throw new AppError(Errors.E4004, `No refund with id "${id}".`);
    if (refund.status !== 'pending' || !refund.reference_id) refundTransition(refund.status, 'succeed', refund.id);
    const answer = await this.providers.named(refund.provider ?? 'sandbox').refundStatus(refund.reference_id!);
    return toRefundResponse(await this.apply(applicationId, id, answer));
  }

  /**
   * A provider's outcome for the refund it knows by `answer.reference` (its webhook, verified by the
   * provider-events module, or the reconciliation job), applied like the refund call's own answer.
   * `claim` records the notice in the same transaction; false (seen before) changes nothing.
   */
  async applyProviderOutcome(provider: string, answer: ProviderRefund, claim?: ClaimNotice): Promise<OutcomeResult> {
    const refund = await this.refunds.byProviderReference(provider, answer.reference);
    if (!refund) return 'unknown';
    linkActiveSpan(refund.traceparent);
    let result = 'unchanged' as OutcomeResult;
    await this.apply(refund.application_id, refund.id, answer, async (manager, current) => {
      const claimed = await claimThenApply(manager, claim, async () => {
        result = current.status === 'pending' && answer.status !== 'pending' ? 'applied' : 'unchanged';
        return true as const;
      });
      if (claimed === 'duplicate') result = 'duplicate';
      return claimed === true;
    });
    return result;
  }

  /** Reads back pending refunds of `providers` created before `before` and applies what is final. */
  async reconcile(
    providers: string[],
    before: Date,
    limit: number,
    scope: Pick<JobScope, 'applicationIds'> = {},
  ): Promise<{ read: number; applied: number }> {
    const pending = await this.refunds.pendingAtProviders(providers, before, limit, scope);
    return readBackAndApply(
      pending,
      async (refund) => {
        try {
          return await this.providers.named(refund.provider!).refundStatus(refund.reference_id!);
        } catch (error) {
          if (!(error instanceof CollectionProviderError)) throw error;
          return null;
        }
      },
      (refund, answer) => this.applyProviderOutcome(refund.provider!, answer),
    );
  }

  /**
   * The lost answers: pending refunds that have no provider reference `before` (their request lost
   * the database or its process between recording the refund and applying the provider's answer)
   * are sent again by their id and the answer applied. Answers how many it read and finished.
   */
  async reconcileUnanswered(
    before: Date,
    limit: number,
    scope: Pick<JobScope, 'applicationIds'> = {},
  ): Promise<{ read: number; applied: number }> {
    const unanswered = await this.refunds.unanswered(before, limit, scope);
    let applied = 0;
    for (const refund of unanswered) {
      if ((await this.send(refund, { failUnreachable: false })).status !== 'pending') applied += 1;
    }
    return { read: unanswered.length, applied };
  }

  private async recordPending(
    applicationId: string,
    dto: CreateRefundDto,
    manager: EntityManager,
  ): Promise<{ refund: Refund; charge: Charge }> {
    const charge = await this.charges.lockById(applicationId, dto.charge_id, manager);
    if (!charge) throw new AppError(Errors.E4004, `No charge with id "${dto.charge_id}".`);
    if (charge.status !== 'succeeded' || !charge.paid || !charge.balance_id) {
      throw new AppError(
        RefundErrors.E7502,
        `Charge "${charge.id}" is ${charge.status}${charge.paid ? '' : ', not paid'}.`,
      );
    }
    if (charge.disputed) throw new AppError(RefundErrors.E7505, `Charge "${charge.id}" is disputed.`);
    const refunded = Number(charge.amount_refunded);
    const left = Number(charge.amount) - refunded;
    if (left <= 0) {
      throw new AppError(RefundErrors.E7503, `Charge "${charge.id}" has refunds of ${refunded}, all of its amount.`);
    }
    const amount = dto.amount ?? left;
    this.charges.assertRefundable(charge, amount);
    if (amount > left) {
      throw new AppError(
        RefundErrors.E7501,
        `amount ${amount} is more than the ${left} left of charge "${charge.id}" (${charge.amount}, ${refunded} refunded or pending).`,
      );
    }
    const now = this.clock.now();
    const id = newId();
    const { parts, reversal } = await this.shares(charge, amount, dto, manager);
    const debits = await this.journals.debit(
      {
        id,
        applicationId,
        chargeId: charge.id,
        currency: charge.currency,
        parts,
        allowedNegative: Number(charge.provider_fee_amount) + Number(charge.application_fee_amount),
      },
      manager,
    );
    const refund = await this.refunds.insert(
      Object.assign(new Refund(), {
        id,
        application_id: applicationId,
        country: charge.country,
        charge_id: charge.id,
        payment_intent: charge.payment_intent,
        status: NEW_REFUND_STATUS,
        amount,
        currency: charge.currency,
        scaling_factor: charge.scaling_factor,
        reason: dto.reason ?? null,
        method: chargeMethodType(charge),
        provider: charge.provider ?? 'sandbox',
        reference_id: null,
        balance_id: parts[0].balanceId,
        amount_from_available: debits.reduce((sum, d) => sum + d.available, 0),
        amount_from_hold: debits.reduce((sum, d) => sum + d.hold, 0),
        debits,
        reverse_transfer: dto.reverse_transfer ?? false,
        refund_application_fee: dto.refund_application_fee ?? false,
        transfer_reversal_amount: reversal,
        failure_code: null,
        failure_reason: null,
        failure_message: null,
        metadata: dto.metadata ?? {},
        created_at: now,
        updated_at: now,
      }),
      manager,
    );
    const updated = await this.charges.recordRefund(applicationId, charge.id, refunded + amount, manager);
    await this.events.record(manager, { applicationId, type: 'refund.created', object: toRefundResponse(refund) });
    return { refund, charge: updated };
  }

  /**
   * Who pays the refund. Own charges: the charge's balance. Destination charges (docs/REFUNDS.md):
   * the platform's `merchant` balance pays all of it, unless `reverse_transfer` takes the connected
   * account's share back from it: its transfer in proportion to the refund, plus the application
   * fee share unless `refund_application_fee` (then the platform pays that share).
   */
  private async shares(
    charge: Charge,
    amount: number,
    dto: CreateRefundDto,
    manager: EntityManager,
  ): Promise<{ parts: Array<{ balanceId: string; amount: number }>; reversal: number }> {
    if (!charge.transfer_data) {
      if (dto.reverse_transfer || dto.refund_application_fee) {
        throw new AppError(
          RefundErrors.E7506,
          `Charge "${charge.id}" is not a destination charge: reverse_transfer and refund_application_fee do not apply.`,
        );
      }
      return { parts: [{ balanceId: charge.balance_id!, amount }], reversal: 0 };
    }
    const platform = await this.balances.getOrCreate(
      { application_id: charge.application_id, account: 'merchant', currency: charge.currency },
      manager,
    );
    if (!dto.reverse_transfer) return { parts: [{ balanceId: platform.id, amount }], reversal: 0 };
    const gross = Number(charge.amount);
    const share = (part: number) => Math.floor((part * amount) / gross);
    const reversal = Math.min(
      amount,
      share(Number(charge.transfer_data.amount)) +
        (dto.refund_application_fee ? 0 : share(Number(charge.application_fee_amount))),
    );
    return {
      parts: [
        { balanceId: platform.id, amount: amount - reversal },
        { balanceId: charge.transfer_data.balance_id, amount: reversal },
      ],
      reversal,
    };
  }

  /**
   * Applies the provider's answer in its own transaction; a refund no longer pending is left as it
   * is. `before` runs first in the transaction with the locked refund; false stops there.
   */
  private apply(
    applicationId: string,
    id: string,
    answer: ProviderRefund,
    before?: (manager: EntityManager, refund: Refund) => Promise<boolean>,
  ): Promise<Refund> {
    return this.refunds.transaction(async (manager) => {
      const refund = (await this.refunds.find(applicationId, id, manager, true))!;
      if (before && !(await before(manager, refund))) return refund;
      if (refund.status !== 'pending') return refund;
      const reference = answer.reference || refund.reference_id;
      if (answer.status === 'pending') {
        if (reference !== refund.reference_id) {
          await this.refunds.update(applicationId, id, { reference_id: reference }, manager);
          refund.reference_id = reference;
        }
        return refund;
      }
      const event: RefundEvent = answer.status === 'succeeded' ? 'succeed' : 'fail';
      const status = refundTransition(refund.status, event, refund.id);
      const charge = (await this.charges.lockById(applicationId, refund.charge_id, manager))!;
      const updated = await this.refunds.writeStatus(
        applicationId,
        id,
        status,
        {
          reference_id: reference,
          failure_code: answer.failure?.code ?? null,
          failure_reason: answer.failure?.reason ?? null,
          failure_message: answer.failure?.message ?? null,
          updated_at: this.clock.now(),
        },
        manager,
      );
      const object = toRefundResponse(updated);
      const previous_attributes = { status: refund.status };
      await this.events.record(manager, { applicationId, type: 'refund.updated', object, previous_attributes });
      if (status === 'succeeded') {
        await this.journals.settle(updated, manager);
        await this.events.record(manager, { applicationId, type: 'refund.succeeded', object, previous_attributes });
        await this.events.record(manager, {
          applicationId,
          type: 'charge.refunded',
          object: toChargeResponse(charge),
        });
      } else {
        await this.journals.reverse(updated, manager);
        await this.charges.recordRefund(
          applicationId,
          charge.id,
          Number(charge.amount_refunded) - Number(refund.amount),
          manager,
        );
        await this.events.record(manager, { applicationId, type: 'refund.failed', object, previous_attributes });
      }
      return updated;
    });
  }
}
