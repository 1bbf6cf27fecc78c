import type { Refund } from './entities/refund.entity.js';

export function toRefundResponse(r: Refund) {
  return {
    id: r.id,
    object: 'refund' as const,
    livemode: r.livemode,
    charge_id: r.charge_id,
    payment_intent: r.payment_intent,
    status: r.status,
    amount: Number(r.amount),
    currency: r.currency,
    scaling_factor: r.scaling_factor,
    reason: r.reason,
    method: r.method,
    provider: r.provider,
    reference_id: r.reference_id,
    balance_id: r.balance_id,
    amount_from_available: Number(r.amount_from_available),
    amount_from_hold: Number(r.amount_from_hold),
    reverse_transfer: r.reverse_transfer,
    refund_application_fee: r.refund_application_fee,
    transfer_reversal_amount: Number(r.transfer_reversal_amount),
    failure_code: r.failure_code,
    failure_reason: r.failure_reason,
    failure_message: r.failure_message,
    metadata: r.metadata,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export type RefundResponse = ReturnType<typeof toRefundResponse>;
