import type { ChargeResponse } from '../checkout/index.js';
import type { Dispute } from './entities/dispute.entity.js';

export function toDisputeResponse(d: Dispute, charge: ChargeResponse) {
  return {
    id: d.id,
    object: 'dispute' as const,
    livemode: d.livemode,
    number: d.number,
    charge_id: d.charge_id,
    payment_intent: d.payment_intent,
    currency: d.currency,
    status: d.status,
    reason: d.reason,
    network_reason_code: d.network_reason_code,
    idempotency_key: d.idempotency_key,
    provider: d.provider,
    provider_id: d.provider_id,
    reference_id: d.reference_id,
    forex_quote_id: d.forex_quote_id,
    country: d.country,
    settled: d.settled,
    reinstated: d.reinstated,
    amount_from_merchant: Number(d.amount_from_merchant),
    amount_from_app: Number(d.amount_from_app),
    amount: Number(d.amount),
    scaling_factor: d.scaling_factor,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
    evidence_due_by: d.evidence_due_by ? d.evidence_due_by.toISOString() : null,
    opened_at: d.opened_at.toISOString(),
    closed_at: d.closed_at ? d.closed_at.toISOString() : null,
    evidence: d.evidence,
    evidence_details: {
      due_by: d.evidence_due_by ? d.evidence_due_by.toISOString() : null,
      has_evidence: d.has_evidence,
      submission_count: d.submission_count,
    },
    metadata: d.metadata,
    labels: d.labels,
    charge,
  };
}

export type DisputeResponse = ReturnType<typeof toDisputeResponse>;
