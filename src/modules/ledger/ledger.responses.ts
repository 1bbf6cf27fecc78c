import { toCustomerResponse, type Customer, type CustomerResponse } from '../customers/index.js';
import type { Balance } from './entities/balance.entity.js';
import type { BalanceTransaction } from './entities/balance-transaction.entity.js';
import type { Charge } from './entities/charge.entity.js';
import type { PaymentMethod } from './entities/payment-method.entity.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toBalanceResponse(b: Balance, customer: Customer | null) {
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
    customer: customer ? toCustomerResponse(customer) : null,
  };
}

export type BalanceResponse = ReturnType<typeof toBalanceResponse>;

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

export function toPaymentMethodResponse(pm: PaymentMethod, customer: Customer | null) {
  const card =
    pm.type === 'card'
      ? { brand: pm.brand, issuer: pm.issuer, last4: pm.last4, exp_month: pm.exp_month, exp_year: pm.exp_year }
      : null;
  return {
    id: pm.id,
    object: 'payment_method' as const,
    livemode: pm.livemode,
    type: pm.type,
    brand: pm.brand,
    issuer: pm.issuer,
    last4: pm.last4,
    customer_id: pm.customer_id,
    card_holder_name: pm.card_holder_name,
    fingerprint: pm.fingerprint,
    allow_redisplay: pm.allow_redisplay,
    reference_id: pm.reference_id,
    provider: pm.provider,
    provider_connection_status: pm.provider_connection_status,
    exp_month: pm.exp_month,
    exp_year: pm.exp_year,
    needs_recollection: pm.needs_recollection,
    card,
    billing_details: pm.billing_details,
    metadata: pm.metadata,
    labels: pm.labels,
    created_at: pm.created_at.toISOString(),
    updated_at: pm.updated_at.toISOString(),
    customer: customer ? toCustomerResponse(customer) : null,
  };
}

export type PaymentMethodResponse = ReturnType<typeof toPaymentMethodResponse>;

export interface ChargeEmbeds {
  customer?: Customer | null;
  payment_method?: PaymentMethodResponse | null;
  balance?: BalanceResponse | null;
  /** The invoice record (built by its own module), or null. */
  invoice?: Record<string, unknown> | null;
}

export function toChargeResponse(c: Charge, embeds: ChargeEmbeds = {}) {
  return {
    id: c.id,
    object: 'charge' as const,
    livemode: c.livemode,
    status: c.status,
    customer_id: c.customer_id,
    payment_method_id: c.payment_method_id,
    payment_intent: c.payment_intent,
    application: c.application,
    application_fee: c.application_fee,
    transfer: c.transfer,
    on_behalf_of: c.on_behalf_of,
    transfer_group: c.transfer_group,
    currency: c.currency,
    capture_method: c.capture_method,
    settlement_status: c.settlement_status,
    failure_reason: c.failure_reason,
    failure_code: c.failure_code,
    failure_message: c.failure_message,
    reason_source: c.reason_source,
    dispute_id: c.dispute_id,
    dispute_status: c.dispute_status,
    dispute_reason: c.dispute_reason,
    provider: c.provider,
    plane: c.plane,
    reference_id: c.reference_id,
    amount: Number(c.amount),
    application_fee_amount: Number(c.application_fee_amount),
    application_tax_amount: Number(c.application_tax_amount),
    net_amount: Number(c.net_amount),
    amount_refunded: Number(c.amount_refunded),
    amount_captured: Number(c.amount_captured),
    amount_capturable: Number(c.amount_capturable),
    amount_voided: Number(c.amount_voided),
    scaling_factor: c.scaling_factor,
    dispute_amount: Number(c.dispute_amount),
    gateway_fee_amount: Number(c.gateway_fee_amount),
    credit_covered_fee_amount: Number(c.credit_covered_fee_amount),
    provider_fee_amount: Number(c.provider_fee_amount),
    payable_amount: Number(c.payable_amount),
    paid: c.paid,
    canceled: c.canceled,
    refunded: c.refunded,
    captured: c.captured,
    disputed: c.disputed,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
    expires_at: iso(c.expires_at),
    canceled_at: iso(c.canceled_at),
    metadata: c.metadata,
    labels: c.labels,
    transfer_data: c.transfer_data,
    next_action: c.next_action,
    promptpay: c.promptpay,
    installment: c.installment,
    customer: embeds.customer ? toCustomerResponse(embeds.customer) : null,
    payment_method: embeds.payment_method ?? null,
    balance: embeds.balance ?? null,
    invoice: embeds.invoice ?? null,
  };
}

export type ChargeResponse = ReturnType<typeof toChargeResponse>;
export type { CustomerResponse };
