import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import {
  runList,
  parseValue,
  type ListEnvelope,
  type ListQuery,
  type ListSpec,
  ListFilters,
} from '../../common/list/index.js';
import type { Balance } from './entities/balance.entity.js';
import { BalanceCustomers } from './balance-customers.js';
import { HotLegsRepository } from './hot-legs.repository.js';
import { LedgerRepository } from './ledger.repository.js';
import { toBalanceAsOfResponse, toBalanceResponse, type BalanceResponse } from './ledger.responses.js';
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
  params: { as_of: ListFilters.timestamp },
};

/** `as_of` of a balance read: an RFC 3339 moment not after now (400 E2004 otherwise). */
export function parseAsOf(raw: string | undefined, now: Date): string | undefined {
  if (raw === undefined) return undefined;
  const at = parseValue('as_of', raw, ListFilters.timestamp) as Date;
  if (at.getTime() > now.getTime()) {
    throw new AppError(Errors.E2004, 'Invalid query parameter "as_of": must not be in the future.');
  }
  return raw;
}

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
    private readonly hot: HotLegsRepository,
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

  /** The balance; with `asOfRaw` (RFC 3339), its amounts as they were at that moment. */
  async retrieve(principal: Scope, id: string, asOfRaw?: string): Promise<BalanceResponse> {
    const asOf = parseAsOf(asOfRaw, this.clock.now());
    const applicationId = principal.application.id;
    const balance = await this.ledger.findBalance(applicationId, id);
    if (!balance) throw new AppError(Errors.E4004, `No balance with id "${id}".`);
    const [response] = await this.toResponses(applicationId, [balance]);
    return asOf === undefined ? response : (await this.asOf(applicationId, [response], asOf))[0];
  }

  /**
   * The list; with `as_of`, only the balances that existed then (created at or before it), each with
   * its amounts as they were. Filters and sort apply to the balance records as they are now.
   */
  async list(principal: Scope, query: ListQuery, asOfRaw?: string): Promise<ListEnvelope<BalanceResponse>> {
    const asOf = parseAsOf(asOfRaw, this.clock.now());
    const applicationId = principal.application.id;
    const qb = this.ledger.balances(applicationId);
    if (asOf !== undefined) qb.andWhere('b.created_at <= CAST(:asOf AS timestamptz)', { asOf });
    const page = await runList(qb, BALANCE_LIST, query, (b) => b);
    const data = await this.toResponses(applicationId, page.data);
    return { ...page, data: asOf === undefined ? data : await this.asOf(applicationId, data, asOf) };
  }

  /** Balances with `available`, `hold` and `total` as the entries up to `asOf` sum them. */
  private async asOf(applicationId: string, balances: BalanceResponse[], asOf: string): Promise<BalanceResponse[]> {
    const amounts = await this.ledger.amountsAsOf(
      applicationId,
      balances.map((b) => b.id),
      asOf,
    );
    return balances.map((b) => toBalanceAsOfResponse(b, amounts.get(b.id) ?? { available: 0, hold: 0 }, asOf));
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
    // A hot balance's queued legs (docs/LEDGER.md, "Hot balances") are committed money: they count
    // (read only when some account is hot: otherwise the sweep empties the queue within a second).
    const available = this.hot.enabled
      ? await this.ledger.availableWithQueued(
          applicationId,
          balances.map((b) => b.id),
          manager,
        )
      : new Map<string, number>();
    return balances.map((b) => ({
      ...toBalanceResponse(b, customers.get(b.customer_id ?? '') ?? null),
      available: available.get(b.id) ?? Number(b.available),
    }));
  }
}
