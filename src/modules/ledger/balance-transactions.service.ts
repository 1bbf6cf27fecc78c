import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../common/list/index.js';
import type { BalanceTransaction } from './entities/balance-transaction.entity.js';
import { BalancesService } from './balances.service.js';
import { BalanceTransfers } from './balance-transfers.js';
import { LedgerRepository } from './ledger.repository.js';
import { toBalanceTransactionResponse, type BalanceTransactionResponse } from './ledger.responses.js';

const NAME = { regex: /^[a-z][a-z0-9_.]{0,63}$/, description: 'a lower-case name such as payment' };
const STATES = ['available', 'hold'] as const;

export const BALANCE_TRANSACTION_LIST: ListSpec = {
  filters: {
    amount: ListFilters.money,
    balance_id: ListFilters.uuid,
    created_at: ListFilters.timestamp,
    currency: ListFilters.currency,
    id: ListFilters.uuid,
    original_amount: ListFilters.money,
    original_currency: ListFilters.currency,
    record_only: ListFilters.boolean,
    running_balance: ListFilters.money,
    source: { type: 'text', pattern: NAME },
    state: ListFilters.oneOf(STATES),
    type: { type: 'text', pattern: NAME },
    updated_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'amount'],
  search: ['id', 'description', 'event_id', 'parent_event_id', 'transfer_id', 'journal_id', 'balance_id'],
  // Must stay the expression of the bt_search_idx index.
  searchVector: `to_tsvector('simple', regexp_replace(lower(coalesce(bt.description, '') || ' ' || coalesce(bt.event_id, '') || ' ' || coalesce(bt.parent_event_id, '') || ' ' || coalesce(bt.transfer_id, '')), '[^[:alnum:]]+', ' ', 'g'))`,
  searchIds: ['journal_id', 'balance_id'],
  params: {
    balance_id: ListFilters.uuid,
    customer_id: ListFilters.uuid,
    state: ListFilters.oneOf(STATES),
    process_type: ListFilters.oneOf(['credit', 'debit']),
  },
};

@Injectable()
export class BalanceTransactionsService {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly balances: BalancesService,
    private readonly transfers: BalanceTransfers,
  ) {}

  async retrieve(principal: Principal, id: string): Promise<BalanceTransactionResponse> {
    const entry = await this.ledger.findEntry(principal.application.id, id);
    if (!entry) throw new AppError(Errors.E4004, `No balance transaction with id "${id}".`);
    return (await this.embed(principal.application.id, [entry]))[0];
  }

  async list(principal: Principal, query: ListQuery): Promise<ListEnvelope<BalanceTransactionResponse>> {
    const qb = this.ledger.entries(principal.application.id);
    const { balance_id, customer_id, state, process_type } = query.params;
    if (balance_id !== undefined) qb.andWhere('bt.balance_id = :pBalance', { pBalance: balance_id });
    if (customer_id !== undefined) qb.andWhere('bt.customer_id = :pCustomer', { pCustomer: customer_id });
    if (state !== undefined) qb.andWhere('bt.state = :pState', { pState: state });
    if (process_type === 'credit') qb.andWhere('bt.amount > 0');
    if (process_type === 'debit') qb.andWhere('bt.amount < 0');
    const page = await runList(qb, BALANCE_TRANSACTION_LIST, query, (e) => e);
    return { ...page, data: await this.embed(principal.application.id, page.data) };
  }

  private async embed(applicationId: string, entries: BalanceTransaction[]): Promise<BalanceTransactionResponse[]> {
    const balances = await this.balances.responsesById(
      applicationId,
      entries.map((e) => e.balance_id),
    );
    // Transfers (payouts) belong to the payouts module, which supplies them through BalanceTransfers.
    const transfers = await this.transfers.byIds(
      applicationId,
      entries.map((e) => e.transfer_id),
    );
    return entries.map((e) =>
      toBalanceTransactionResponse(e, balances.get(e.balance_id)!, transfers.get(e.transfer_id ?? '') ?? null),
    );
  }
}
