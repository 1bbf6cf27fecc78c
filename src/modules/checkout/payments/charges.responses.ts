import { toCustomerResponse, type Customer } from '../../customers/index.js';
import type { BalanceResponse } from '../../ledger/index.js';
import type { Charge } from '../entities/charge.entity.js';
import type { PaymentMethod } from '../entities/payment-method.entity.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toPaymentMethodResponse(pm: PaymentMethod, customer: Customer | null) {
  const card =
    pm.type === 'card'
      ? {
          brand: pm.brand,
          issuer: pm.issuer,
          last4: pm.last4,
          exp_month: pm.exp_month,
          exp_year: pm.exp_year,
          fingerprint: pm.fingerprint,
          funding: pm.funding,
        }
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
    status: pm.status,
    detached_at: iso(pm.detached_at),
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
