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
import { checkedPaymentMethodTypes } from '../checkout-rules.js';
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
    status: ListFilters.oneOf([
      'requires_payment_method',
      'requires_action',
      'processing',
      'requires_capture',
      'succeeded',
      'canceled',
    ]),
    capture_method: ListFilters.oneOf(['automatic', 'manual']),
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
    const captureMethod = dto.capture_method ?? 'automatic';
    const terms = captureMethod === 'manual' ? manualCaptureTerms(dto) : dto;
    const record = {
      ...(await newTargetFields(this.targets, this.providers, principal, terms, dto.amount, now)),
      status: NEW_PAYMENT_INTENT_STATUS,
      amount: dto.amount,
      amount_received: 0,
      capture_method: captureMethod,
      amount_capturable: 0,
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

  /**
   * Cancels a payment intent that has not succeeded and holds no authorization (those are voided at
   * their provider first: PaymentCapturesService); its open checkouts can no longer be paid.
   */
  async cancel(principal: Principal, id: string, dto: CancelPaymentIntentDto): Promise<PaymentIntentResponse> {
    const applicationId = principal.application.id;
    const pi = await this.repository.transaction(async (manager) => {
      const found = await this.repository.findById(applicationId, id, manager, true);
      if (!found) throw new AppError(Errors.E4004, `No payment intent with id "${id}".`);
      if (
        found.capture_method === 'manual' &&
        (found.status === 'requires_capture' || Number(found.amount_capturable) > 0)
      ) {
        throw new AppError(
          CheckoutErrors.E7016,
          `Payment intent "${id}" holds an authorization; cancel voids it first.`,
        );
      }
      return this.cancelLocked(found, dto.cancellation_reason ?? null, manager);
    });
    return toPaymentIntentResponse(pi);
  }

  /** The locked intent is canceled (`reason`; an authorization it held was voided): `payment_intent.canceled`. */
  async cancelLocked(record: PaymentIntent, reason: string | null, manager: EntityManager): Promise<PaymentIntent> {
    const now = this.clock.now();
    const before = record.status;
    const changes = { canceled_at: now, cancellation_reason: reason, amount_capturable: 0, updated_at: now };
    const canceled = await this.transition(record, 'cancel', changes, manager);
    await this.recordEvent('payment_intent.canceled', canceled, before, manager);
    return canceled;
  }

  /**
   * The locked manual-capture intent was authorized by `charge`: `requires_capture`, its amount
   * held (`amount_capturable`), `payment_intent.amount_capturable_updated`.
   */
  async authorize(record: PaymentIntent, charge: { id: string; amount: number }, manager: EntityManager) {
    const before = record.status;
    const changes = {
      amount_capturable: charge.amount,
      latest_charge: charge.id,
      last_payment_error: null,
      next_action: null,
      updated_at: this.clock.now(),
    };
    const authorized = await this.transition(record, 'authorize', changes, manager);
    await this.recordEvent('payment_intent.amount_capturable_updated', authorized, before, manager);
  }

  /** A capture claimed the locked intent's authorization: `processing` until its provider answers. */
  async beginCapture(record: PaymentIntent, manager: EntityManager): Promise<void> {
    await this.transition(record, 'begin_capture', { updated_at: this.clock.now() }, manager);
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

  /** The payment intent as stored (no lock), or E4004. */
  async find(applicationId: string, id: string): Promise<PaymentIntent> {
    const found = await this.repository.findById(applicationId, id);
    if (!found) throw new AppError(Errors.E4004, `No payment intent with id "${id}".`);
    return found;
  }

  /** The payment intent, locked until `manager`'s transaction ends, or E4004. */
  async lock(applicationId: string, id: string, manager: EntityManager): Promise<PaymentIntent> {
    const found = await this.repository.findById(applicationId, id, manager, true);
    if (!found) throw new AppError(Errors.E4004, `No payment intent with id "${id}".`);
    return found;
  }

  /** The locked intent is paid by `charge` (its amount; a capture's: what it captured): `payment_intent.succeeded`. */
  async succeed(record: PaymentIntent, charge: { id: string; amount: number }, manager: EntityManager): Promise<void> {
    const now = this.clock.now();
    const changes = {
      amount_received: charge.amount,
      amount_capturable: 0,
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
 * Manual capture collects cards only: payment_method_types defaults to card, and PromptPay (which
 * has no authorization to hold) is refused with E7103.
 */
function manualCaptureTerms(dto: CreatePaymentIntentDto): CreatePaymentIntentDto {
  const types = dto.payment_method_types ?? ['card'];
  if (types.some((t) => t !== 'card')) {
    throw new AppError(
      CheckoutErrors.E7103,
      `capture_method "manual" collects cards only; payment_method_types has ${types.filter((t) => t !== 'card').join(', ')}.`,
    );
  }
  return { ...dto, payment_method_types: types };
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
 * Validates what payment intents and invoices share: payment method types the registry allows for
 * the country, currency, amount and provider (checkout-rules.ts), an application fee
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
  const types = checkedPaymentMethodTypes(dto.payment_method_types as PaymentMethodType[] | undefined, {
    country,
    currency,
    amount,
    provider,
  });
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
