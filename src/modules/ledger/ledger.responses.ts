import type { Balance } from './entities/balance.entity.js';
import type { BalanceTransaction } from './entities/balance-transaction.entity.js';

/**
 * The customer record a balance embeds, as the customers module answers for it. The ledger reads no
 * customer itself: the module that owns customers supplies them through `BalanceCustomers`.
 */
export type EmbeddedCustomer = Record<string, unknown>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toBalanceResponse(b: Balance, customer: EmbeddedCustomer | null) {
  return {
    id: b.id,
    object: 'balance' as const,
    livemode: b.livemode,
    customer_id: b.customer_id,
    account: b.account,
    currency: b.currency,
    name: b.name,
    description: b.description,
    available: Number(b.available),
    hold: Number(b.hold),
    scaling_factor: b.scaling_factor,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
    customer,
  };
}

export type BalanceResponse = ReturnType<typeof toBalanceResponse> & { as_of?: string; total?: number };

/** A balance as it was at `asOf`: its amounts then, their `total`, and the moment asked for. */
export function toBalanceAsOfResponse(
  b: BalanceResponse,
  amounts: { available: number; hold: number },
  asOf: string,
): BalanceResponse {
  return {
    ...b,
    available: amounts.available,
    hold: amounts.hold,
    total: amounts.available + amounts.hold,
    as_of: asOf,
  };
}

/** A balance transaction embeds its balance (with the balance's customer) and its transfer or null. */
export function toBalanceTransactionResponse(
  e: BalanceTransaction,
  balance: BalanceResponse,
  transfer: Record<string, unknown> | null = null,
) {
  return {
    id: e.id,
    object: 'balance_transaction' as const,
    livemode: e.livemode,
    currency: e.currency,
    state: e.state,
    description: e.description,
    original_currency: e.original_currency,
    balance_id: e.balance_id,
    account: e.account,
    event_type: e.event_type,
    event_id: e.event_id,
    parent_event_type: e.parent_event_type,
    parent_event_id: e.parent_event_id,
    transfer_id: e.transfer_id,
    journal_id: e.journal_id,
    category: e.category,
    forex_quote_id: e.forex_quote_id,
    type: e.type,
    source: e.source,
    reporting_category: e.reporting_category,
    plane: e.plane,
    amount: Number(e.amount),
    running_balance: Number(e.running_balance),
    chain_seq: e.chain_seq === null ? null : Number(e.chain_seq),
    entry_hash: e.entry_hash,
    scaling_factor: e.scaling_factor,
    original_amount: e.original_amount === null ? null : Number(e.original_amount),
    fee: Number(e.fee),
    net: Number(e.net),
    gross_amount: Number(e.gross_amount),
    exchange_rate: e.exchange_rate,
    record_only: e.record_only,
    fee_details: e.fee_details,
    available_on: iso(e.available_on),
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
    balance,
    transfer,
  };
}

export type BalanceTransactionResponse = ReturnType<typeof toBalanceTransactionResponse>;
