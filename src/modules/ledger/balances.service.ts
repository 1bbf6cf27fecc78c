import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../common/list/index.js';
import type { Balance } from './entities/balance.entity.js';
import { BalanceCustomers } from './balance-customers.js';
import { LedgerRepository } from './ledger.repository.js';
import { toBalanceResponse, type BalanceResponse } from './ledger.responses.js';
import { scalingFactorOf } from './money.js';

const NAME = { regex: /^[a-z][a-z0-9_]{0,63}$/, description: 'a lower-case name such as customer' };

export const BALANCE_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    customer_id: ListFilters.uuid,
    account: { type: 'text', pattern: NAME },
    currency: ListFilters.currency,
    available: ListFilters.money,
    hold: ListFilters.money,
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
  },
  sortable: ['created_at'],
  search: ['id', 'customer_id', 'name', 'description', 'account'],
};

export interface BalanceOwner {
  account: string;
  customer_id?: string | null;
  currency: string;
  name?: string | null;
  description?: string | null;
  /** Defaults to the request's application (jobs and the CLI pass it). */
  application_id: string;
}

@Injectable()
export class BalancesService {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly customers: BalanceCustomers,
    private readonly clock: Clock,
  ) {}

  /** The balance of `account` (and customer) in `currency`, created with zero amounts on first use. */
  async getOrCreate(owner: BalanceOwner, manager?: EntityManager): Promise<Balance> {
    const applicationId = owner.application_id;
    const currency = owner.currency.toUpperCase();
    const customerId = owner.customer_id ?? null;
    return this.ledger.upsertBalance(
      {
        applicationId,
        customerId,
        account: owner.account,
        currency,
        name: owner.name ?? null,
        description: owner.description ?? null,
        scalingFactor: scalingFactorOf(currency),
      },
      this.clock.now(),
      manager,
    );
  }

  async retrieve(principal: Principal, id: string): Promise<BalanceResponse> {
    const applicationId = principal.application.id;
    const balance = await this.ledger.findBalance(applicationId, id);
    if (!balance) throw new AppError(Errors.E4004, `No balance with id "${id}".`);
    return (await this.toResponses(applicationId, [balance]))[0];
  }

  async list(principal: Principal, query: ListQuery): Promise<ListEnvelope<BalanceResponse>> {
    const applicationId = principal.application.id;
    const page = await runList(this.ledger.balances(applicationId), BALANCE_LIST, query, (b) => b);
    return { ...page, data: await this.toResponses(applicationId, page.data) };
  }

  /**
   * Locks the balances (in id order, as a posting does) until `manager`'s transaction ends and
   * answers their available and held amounts: a debit that splits between them decides the split
   * on these, so a concurrent posting or hold release cannot change them before the debit is posted.
   */
  lockAmounts(
    applicationId: string,
    ids: string[],
    manager: EntityManager,
  ): Promise<Map<string, { available: number; hold: number }>> {
    return this.ledger.lockAmounts(applicationId, ids, manager);
  }

  /** Balance records by id (each with its customer), for the records that embed their balance. */
  async responsesById(
    applicationId: string,
    ids: Array<string | null>,
    manager?: EntityManager,
  ): Promise<Map<string, BalanceResponse>> {
    const balances = await this.ledger.balancesById(applicationId, ids, manager);
    return new Map((await this.toResponses(applicationId, balances, manager)).map((b) => [b.id, b]));
  }

  private async toResponses(
    applicationId: string,
    balances: Balance[],
    manager?: EntityManager,
  ): Promise<BalanceResponse[]> {
    const customers = await this.customers.byIds(
      applicationId,
      balances.map((b) => b.customer_id),
      manager,
    );
    return balances.map((b) => toBalanceResponse(b, customers.get(b.customer_id ?? '') ?? null));
  }
}
