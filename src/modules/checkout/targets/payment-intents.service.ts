import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { countryOf, type Principal, type Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import type { EventType } from '../../../common/events/event-types.js';
import { newId } from '../../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../../common/list/index.js';
import { scalingFactorOf } from '../../ledger/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { toPaymentIntentResponse, type PaymentIntentResponse } from '../checkout.responses.js';
import { defaultPaymentMethodTypes } from '../checkout-rules.js';
import { type PaymentMethodType } from '../../../providers/ports/collection.port.js';
import type { CollectionTermsDto } from '../dto/common.dto.js';
import type { CancelPaymentIntentDto, CreatePaymentIntentDto } from '../dto/payment-intent.dto.js';
import type { IntentNextAction, PaymentIntent } from '../entities/payment-intent.entity.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { TargetsService } from './targets.service.js';
import {
  NEW_PAYMENT_INTENT_STATUS,
  paymentIntentTransition,
  type PaymentIntentEvent,
} from './payment-intent.transitions.js';
import { PaymentIntentsRepository } from './payment-intents.repository.js';

export const PAYMENT_INTENT_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    status: ListFilters.oneOf(['requires_payment_method', 'requires_action', 'processing', 'succeeded', 'canceled']),
    customer_id: ListFilters.uuid,
    currency: ListFilters.currency,
    amount: ListFilters.money,
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
    labels: ListFilters.labels,
  },
  sortable: ['created_at', 'amount'],
  search: ['id', 'description', 'customer_id'],
};

import type { PaymentError } from '../entities/payment-intent.entity.js';
export type { PaymentError };

/** The terms a new target carries: payment method types, destination and application fee, checked together. */
export interface CheckedTerms {
  payment_method_types: PaymentMethodType[];
  transfer_destination: string | null;
  application_fee_amount: number;
}

/**
 * Payment intents: created, read and canceled by the merchant; moved through a payment only by
 * `process`, `succeed` and `fail` here, which checkout payments call in their transaction.
 */
@Injectable()
export class PaymentIntentsService {
  constructor(
    private readonly repository: PaymentIntentsRepository,
    private readonly targets: TargetsService,
    private readonly providers: CollectionProviders,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  /** With `created`, the intent is inserted in a transaction that `created` joins (an idempotency checkpoint). */
  async create(
    principal: Principal,
    dto: CreatePaymentIntentDto,
    created?: (manager: EntityManager, id: string) => Promise<void>,
  ): Promise<PaymentIntentResponse> {
    if (dto.customer_id) await this.targets.chargeableCustomer(principal, dto.customer_id);
    const now = this.clock.now();
    const record = {
      ...(await newTargetFields(this.targets, this.providers, principal, dto, dto.amount, now)),
      status: NEW_PAYMENT_INTENT_STATUS,
      amount: dto.amount,
      amount_received: 0,
      customer_id: dto.customer_id ?? null,
      payment_method: null,
      next_action: null,
      latest_charge: null,
      last_payment_error: null,
      cancellation_reason: null,
      canceled_at: null,
      succeeded_at: null,
    };
    const pi = created
      ? await this.repository.transaction(async (manager) => {
          const inserted = await this.repository.insert(record, manager);
          await created(manager, inserted.id);
          return inserted;
        })
      : await this.repository.insert(record);
    return toPaymentIntentResponse(pi);
  }

  async retrieve(principal: Principal, id: string): Promise<PaymentIntentResponse> {
    const pi = await this.repository.findById(principal.application.id, id);
    if (!pi) throw new AppError(Errors.E4004, `No payment intent with id "${id}".`);
    return toPaymentIntentResponse(pi);
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<PaymentIntentResponse>> {
    const qb = this.repository.listQuery('pi', principal.application.id);
    return runList(qb, PAYMENT_INTENT_LIST, query, toPaymentIntentResponse);
  }

  /** Cancels a payment intent that has not succeeded; its open checkouts can no longer be paid. */
  async cancel(principal: Principal, id: string, dto: CancelPaymentIntentDto): Promise<PaymentIntentResponse> {
    const applicationId = principal.application.id;
    const pi = await this.repository.transaction(async (manager) => {
      const found = await this.repository.findById(applicationId, id, manager, true);
      if (!found) throw new AppError(Errors.E4004, `No payment intent with id "${id}".`);
      const now = this.clock.now();
      const changes = { canceled_at: now, cancellation_reason: dto.cancellation_reason ?? null, updated_at: now };
      return this.transition(found, 'cancel', changes, manager);
    });
    return toPaymentIntentResponse(pi);
  }

  /** A payment of the locked intent is under way (`chargeId`, e.g. a PromptPay QR code waiting to be paid). */
  async process(
    record: PaymentIntent,
    chargeId: string,
    manager: EntityManager,
    paymentMethodId: string | null = record.payment_method,
  ): Promise<void> {
    const changes = {
      latest_charge: chargeId,
      payment_method: paymentMethodId,
      next_action: null,
      updated_at: this.clock.now(),
    };
    await this.transition(record, 'process', changes, manager);
  }

  /**
   * The locked intent's off-session payment needs the customer to authenticate: `requires_action`
   * with the page that does it (`nextAction`), `payment_intent.requires_action`.
   */
  async requireAction(record: PaymentIntent, nextAction: IntentNextAction, manager: EntityManager): Promise<void> {
    const before = record.status;
    const changes = { next_action: nextAction, updated_at: this.clock.now() };
    const waiting = await this.transition(record, 'require_action', changes, manager);
    await this.recordEvent('payment_intent.requires_action', waiting, before, manager);
  }

  /** The payment intent, locked until `manager`'s transaction ends, or E4004. */
  async lock(applicationId: string, id: string, manager: EntityManager): Promise<PaymentIntent> {
    const found = await this.repository.findById(applicationId, id, manager, true);
    if (!found) throw new AppError(Errors.E4004, `No payment intent with id "${id}".`);
    return found;
  }

  /** The locked intent is paid by `charge` (its amount): `payment_intent.succeeded`. */
  async succeed(record: PaymentIntent, charge: { id: string; amount: number }, manager: EntityManager): Promise<void> {
    const now = this.clock.now();
    const changes = {
      amount_received: charge.amount,
      latest_charge: charge.id,
      last_payment_error: null,
      next_action: null,
      succeeded_at: now,
      updated_at: now,
    };
    const before = record.status;
    const paid = await this.transition(record, 'succeed', changes, manager);
    await this.recordEvent('payment_intent.succeeded', paid, before, manager);
  }

  /** The locked intent's payment failed (`error`): it waits for another one, `payment_intent.payment_failed`. */
  async fail(record: PaymentIntent, error: PaymentError, manager: EntityManager): Promise<void> {
    const changes = {
      latest_charge: error.charge,
      last_payment_error: error,
      next_action: null,
      updated_at: this.clock.now(),
    };
    const before = record.status;
    const failed = await this.transition(record, 'fail', changes, manager);
    await this.recordEvent('payment_intent.payment_failed', failed, before, manager);
  }

  /** The one write of a payment intent's status: the locked `record` after `event`, with `changes`. */
  private async transition(
    record: PaymentIntent,
    event: PaymentIntentEvent,
    changes: Omit<Partial<PaymentIntent>, 'status'>,
    manager: EntityManager,
  ): Promise<PaymentIntent> {
    const status = paymentIntentTransition(record.status, event, record.id);
    await this.repository.writeStatus(record.application_id, record.id, status, changes, manager);
    return Object.assign(record, changes, { status });
  }

  private recordEvent(type: EventType, record: PaymentIntent, before: string, manager: EntityManager) {
    return this.events.record(manager, {
      applicationId: record.application_id,
      type,
      object: toPaymentIntentResponse(record),
      previous_attributes: { status: before },
    });
  }
}

/**
 * The fields a new target (payment intent or invoice) starts with besides its own: id and tenancy,
 * the currency's scale, the checked terms, description, metadata, labels and timestamps.
 */
export async function newTargetFields(
  targets: TargetsService,
  providers: CollectionProviders,
  principal: Principal,
  dto: CollectionTermsDto & { currency: string; description?: string },
  amount: number,
  now: Date,
) {
  const terms = await checkTerms(targets, providers, principal, dto, amount, dto.currency);
  return {
    id: newId(),
    application_id: principal.application.id,
    country: countryOf(principal),
    currency: dto.currency,
    scaling_factor: scalingFactorOf(dto.currency),
    description: dto.description ?? null,
    ...terms,
    metadata: dto.metadata ?? {},
    labels: dto.labels ?? [],
    created_at: now,
    updated_at: now,
  };
}

/**
 * Validates what payment intents and invoices share: PromptPay only for THB, an application fee
 * only with a destination (a verified connected account), and small enough that the destination
 * still receives a positive amount after the provider's largest fee.
 */
export async function checkTerms(
  targets: TargetsService,
  providers: CollectionProviders,
  scope: Scope,
  dto: CollectionTermsDto,
  amount: number,
  currency: string,
): Promise<CheckedTerms> {
  const country = countryOf(scope);
  // Live mode without a live collection provider for the country: refused before anything else (E5003).
  const provider = providers.forCountry(country, scope.livemode);
  const types = (dto.payment_method_types as PaymentMethodType[] | undefined) ?? defaultPaymentMethodTypes(currency);
  if (types.includes('promptpay') && currency !== 'THB') {
    throw new AppError(CheckoutErrors.E7017, `payment_method_types includes promptpay, the currency is ${currency}.`);
  }
  const destination = dto.transfer_data?.destination ?? null;
  const fee = dto.application_fee_amount ?? 0;
  if (destination) await targets.assertDestination(scope, destination);
  if (fee > 0 && !destination) {
    throw new AppError(CheckoutErrors.E7011, 'application_fee_amount needs transfer_data.destination.');
  }
  const largestFee = Math.max(...types.map((t) => provider.fee(t, amount, currency)));
  if (fee + largestFee >= amount) {
    if (fee === 0) {
      throw new AppError(
        CheckoutErrors.E7019,
        `amount ${amount} does not cover the provider fee of up to ${largestFee}.`,
      );
    }
    throw new AppError(
      CheckoutErrors.E7011,
      `application_fee_amount ${fee} plus the provider fee of up to ${largestFee} leaves nothing of ${amount} for the destination.`,
    );
  }
  return { payment_method_types: types, transfer_destination: destination, application_fee_amount: fee };
}
