import type { CreditGrant } from './entities/credit-grant.entity.js';

export function toCreditGrantResponse(g: CreditGrant) {
  return {
    id: g.id,
    object: 'billing.credit_grant' as const,
    livemode: g.livemode,
    customer_id: g.customer_id,
    name: g.name,
    category: g.category,
    amount: Number(g.amount),
    remaining_amount: Number(g.remaining),
    currency: g.currency,
    scaling_factor: g.scaling_factor,
    applicability: { price_ids: g.price_ids },
    status: g.status,
    effective_at: g.effective_at.toISOString(),
    expires_at: g.expires_at?.toISOString() ?? null,
    voided_at: g.voided_at?.toISOString() ?? null,
    expired_at: g.expired_at?.toISOString() ?? null,
    balance_id: g.balance_id,
    metadata: g.metadata,
    created_at: g.created_at.toISOString(),
    updated_at: g.updated_at.toISOString(),
  };
}

export type CreditGrantResponse = ReturnType<typeof toCreditGrantResponse>;
