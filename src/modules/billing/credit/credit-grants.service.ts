import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { IdempotencyScope } from '../../../common/idempotency/idempotency-scope.js';
import { newId } from '../../../common/ids.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { ListFilters, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../../common/list/index.js';
import { CustomersService, type Customer } from '../../customers/index.js';
import { BalancesService, PostingService, scalingFactorOf } from '../../ledger/index.js';
import { PricesService } from '../catalog/prices/prices.service.js';
import { BillingClock } from '../test-clocks/billing-clock.js';
import { CreditErrors as E } from './credit.errors.js';
import { CREDIT_ACCOUNTS, endPosting, grantPosting } from './credit.journals.js';
import { CreditGrantsRepository } from './credit-grants.repository.js';
import { toCreditGrantResponse, type CreditGrantResponse } from './credit-grants.responses.js';
import { CreditUsageRepository } from './credit-usage.repository.js';
import type { CreateCreditGrantDto } from './dto/credit-grant.dto.js';
import type { CreditGrant } from './entities/credit-grant.entity.js';

export const CREDIT_GRANT_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    status: ListFilters.oneOf(['active', 'voided', 'expired']),
    category: ListFilters.oneOf(['paid', 'promotional']),
    currency: ListFilters.currency,
    expires_at: ListFilters.timestamp,
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'expires_at'],
  search: ['id', 'name'],
};

const notFound = (id: string) => new AppError(Errors.E4004, `No credit grant with id "${id}".`);

/**
 * Credit grants (docs/BILLING.md, "Prepaid credit"): a grant moves its amount into the customer's
 * `customer_credit` ledger balance in the transaction that stores it; voiding or expiring it gives
 * the remaining back to the funding account. Invoices draw on grants through CreditBalanceService.
 */
@Injectable()
export class CreditGrantsService {
  constructor(
    private readonly grants: CreditGrantsRepository,
    private readonly usage: CreditUsageRepository,
    private readonly customers: CustomersService,
    private readonly prices: PricesService,
    private readonly balances: BalancesService,
    private readonly postings: PostingService,
    private readonly billingClock: BillingClock,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly idempotency: IdempotencyScope,
  ) {}

  async create(principal: Principal, customerId: string, dto: CreateCreditGrantDto): Promise<CreditGrantResponse> {
    const resumed = this.idempotency.resumes('credit_grant');
    if (resumed) return this.retrieve(principal, resumed);
    const applicationId = principal.application.id;
    const customer = await this.customer(principal, customerId);
    const currency = dto.currency.toUpperCase();
    if (customer.currency && customer.currency.toUpperCase() !== currency) {
      throw new AppError(E.E7881, `Customer "${customerId}" pays in ${customer.currency}, not ${currency}.`).on(
        'currency',
      );
    }
    const customerNow = await this.billingClock.nowFor(customer);
    const expiresAt = dto.expires_at === undefined ? null : new Date(dto.expires_at);
    if (expiresAt && expiresAt.getTime() <= customerNow.getTime()) {
      throw new AppError(E.E7882, `expires_at ${dto.expires_at} is not after ${customerNow.toISOString()}.`).on(
        'expires_at',
      );
    }
    const priceIds = [...new Set(dto.applicability?.price_ids ?? [])];
    await this.checkPrices(principal, priceIds, currency);
    const now = this.clock.now();
    const grant = await this.grants.transaction(async (manager) => {
      const sides = await this.sides(applicationId, customerId, currency, manager);
      const id = newId();
      const inserted = await this.grants.insert(
        {
          id,
          application_id: applicationId,
          customer_id: customerId,
          test_clock_id: customer.test_clock_id,
          name: dto.name ?? null,
          category: dto.category ?? 'paid',
          currency,
          scaling_factor: scalingFactorOf(currency),
          amount: String(dto.amount),
          remaining: String(dto.amount),
          price_ids: priceIds,
          effective_at: customerNow,
          expires_at: expiresAt,
          status: 'active',
          voided_at: null,
          expired_at: null,
          balance_id: sides.customerBalanceId,
          metadata: dto.metadata ?? {},
          created_at: now,
          updated_at: now,
        } as CreditGrant,
        manager,
      );
      await this.postings.post(grantPosting(sides, id, dto.amount), manager);
      await this.usage.ensure(applicationId, customerId, currency, now, manager);
      await this.events.record(manager, {
        applicationId,
        type: 'billing.credit_grant.created',
        object: toCreditGrantResponse(inserted),
      });
      await this.idempotency.checkpoint(manager, 'credit_grant', id);
      return inserted;
    });
    return toCreditGrantResponse(grant);
  }

  async retrieve(principal: Principal, id: string): Promise<CreditGrantResponse> {
    const grant = await this.grants.findById(principal.application.id, id);
    if (!grant) throw notFound(id);
    return toCreditGrantResponse(grant);
  }

  async list(principal: Principal, customerId: string, query: ListQuery): Promise<ListEnvelope<CreditGrantResponse>> {
    await this.customer(principal, customerId);
    const qb = this.grants.query(principal.application.id).andWhere('g.customer_id = :customerId', { customerId });
    return runList(qb, CREDIT_GRANT_LIST, query, toCreditGrantResponse);
  }

  /** POST /credit_grants/{id}/void: the remaining credit goes back to the funding account (E7884 if already ended). */
  async void(principal: Principal, id: string): Promise<CreditGrantResponse> {
    const applicationId = principal.application.id;
    return this.grants.transaction(async (manager) => {
      const grant = await this.grants.findById(applicationId, id, manager, true);
      if (!grant) throw notFound(id);
      if (grant.status !== 'active') throw new AppError(E.E7884, `Credit grant "${id}" is ${grant.status}.`);
      const at = await this.billingClock.nowFor(grant, manager);
      return this.end(grant, 'voided', at, manager);
    });
  }

  /**
   * Expires the grants whose `expires_at` has come by their customer's clock, a batch at a time (the
   * CreditGrantsJob's step); answers how many it expired.
   */
  async expireDue(limit: number, scope: JobScope): Promise<number> {
    return this.grants.transaction(async (manager) => {
      const due = await this.grants.claimExpired(this.clock.now(), limit, scope, manager);
      for (const grant of due) await this.end(grant, 'expired', grant.expires_at ?? grant.expiry_now, manager);
      return due.length;
    });
  }

  private async end(
    grant: CreditGrant,
    how: 'voided' | 'expired',
    at: Date,
    manager: EntityManager,
  ): Promise<CreditGrantResponse> {
    const applicationId = grant.application_id;
    const remaining = Number(grant.remaining);
    if (remaining > 0) {
      const sides = await this.sides(applicationId, grant.customer_id, grant.currency, manager);
      await this.postings.post(endPosting(sides, grant.id, remaining, how), manager);
    }
    const now = this.clock.now();
    await this.grants.end(applicationId, grant.id, how, at, now, manager);
    const after = (await this.grants.findById(applicationId, grant.id, manager))!;
    const response = toCreditGrantResponse(after);
    await this.events.record(manager, {
      applicationId,
      type: `billing.credit_grant.${how}`,
      object: response,
      previous_attributes: { status: 'active', remaining_amount: remaining },
    });
    return response;
  }

  /** The customer's credit balance and the funding account's, created on first use. */
  private async sides(applicationId: string, customerId: string, currency: string, manager: EntityManager) {
    const customerBalance = await this.balances.getOrCreate(
      { application_id: applicationId, account: CREDIT_ACCOUNTS.customer, customer_id: customerId, currency },
      manager,
    );
    const funding = await this.balances.getOrCreate(
      { application_id: applicationId, account: CREDIT_ACCOUNTS.funding, currency },
      manager,
    );
    return { applicationId, currency, customerBalanceId: customerBalance.id, otherBalanceId: funding.id };
  }

  private async customer(principal: Principal, customerId: string): Promise<Customer> {
    const customer = await this.customers.find(principal.application.id, customerId);
    if (!customer) throw new AppError(E.E7880, `No customer with id "${customerId}".`).on('customer_id');
    return customer;
  }

  /** applicability.price_ids: active recurring prices of this application in the grant's currency (E7883). */
  private async checkPrices(principal: Principal, ids: string[], currency: string): Promise<void> {
    if (ids.length === 0) return;
    const prices = await this.prices.findUsable(principal, ids).catch((error: unknown) => {
      if (error instanceof AppError) throw new AppError(E.E7883, error.message).on('applicability.price_ids');
      throw error;
    });
    const unfit = prices.find((p) => p.currency !== currency || p.type !== 'recurring');
    if (unfit) {
      throw new AppError(
        E.E7883,
        `Price "${unfit.id}" is ${unfit.type === 'recurring' ? `in ${unfit.currency}` : 'one-time'}: a grant in ${currency} pays recurring prices in ${currency}.`,
      ).on('applicability.price_ids');
    }
  }
}
