import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { countryOf, type Principal, type Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { newId } from '../../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../../common/list/index.js';
import { scalingFactorOf } from '../../ledger/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { CollectionRepository } from '../checkout.repository.js';
import { toPaymentIntentResponse, type PaymentIntentResponse } from '../checkout.responses.js';
import { defaultPaymentMethodTypes, type PaymentMethodType } from '../checkout-rules.js';
import type { CollectionTermsDto } from '../dto/common.dto.js';
import type { CancelPaymentIntentDto, CreatePaymentIntentDto } from '../dto/payment-intent.dto.js';
import { PaymentIntent } from '../entities/payment-intent.entity.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { TargetsService } from './targets.service.js';
import { NEW_PAYMENT_INTENT_STATUS, paymentIntentTransition } from './payment-intent.transitions.js';

export const PAYMENT_INTENT_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    status: ListFilters.oneOf(['requires_payment_method', 'processing', 'succeeded', 'canceled']),
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

/** The terms a new target carries: payment method types, destination and application fee, checked together. */
export interface CheckedTerms {
  payment_method_types: PaymentMethodType[];
  transfer_destination: string | null;
  application_fee_amount: number;
}

@Injectable()
export class PaymentIntentsService {
  constructor(
    private readonly repository: CollectionRepository,
    private readonly targets: TargetsService,
    private readonly providers: CollectionProviders,
    private readonly clock: Clock,
  ) {}

  async create(principal: Principal, dto: CreatePaymentIntentDto): Promise<PaymentIntentResponse> {
    if (dto.customer_id) await this.targets.chargeableCustomer(principal, dto.customer_id);
    const now = this.clock.now();
    const pi = await this.repository.insert(PaymentIntent, {
      ...(await newTargetFields(this.targets, this.providers, principal, dto, dto.amount, now)),
      status: NEW_PAYMENT_INTENT_STATUS,
      amount: dto.amount,
      amount_received: 0,
      customer_id: dto.customer_id ?? null,
      latest_charge: null,
      last_payment_error: null,
      cancellation_reason: null,
      canceled_at: null,
      succeeded_at: null,
    });
    return toPaymentIntentResponse(pi);
  }

  async retrieve(principal: Principal, id: string): Promise<PaymentIntentResponse> {
    const pi = await this.repository.find(PaymentIntent, principal.application.id, id);
    if (!pi) throw new AppError(Errors.E4004, `No payment intent with id "${id}".`);
    return toPaymentIntentResponse(pi);
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<PaymentIntentResponse>> {
    const qb = this.repository.query(PaymentIntent, 'pi', principal.application.id);
    return runList(qb, PAYMENT_INTENT_LIST, query, toPaymentIntentResponse);
  }

  /** Cancels a payment intent that has not succeeded; its open checkouts can no longer be paid. */
  async cancel(principal: Principal, id: string, dto: CancelPaymentIntentDto): Promise<PaymentIntentResponse> {
    const notFound = `No payment intent with id "${id}".`;
    const pi = await this.repository.updateLocked(PaymentIntent, principal.application.id, id, notFound, (found) => {
      const now = this.clock.now();
      return {
        status: paymentIntentTransition(found.status, 'cancel', id),
        canceled_at: now,
        cancellation_reason: dto.cancellation_reason ?? null,
        updated_at: now,
      };
    });
    return toPaymentIntentResponse(pi);
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
