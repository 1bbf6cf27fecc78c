import type { Price } from './entities/price.entity.js';

export function toPriceResponse(p: Price) {
  return {
    id: p.id,
    object: 'price' as const,
    livemode: p.livemode,
    product_id: p.product_id,
    active: p.active,
    currency: p.currency,
    scaling_factor: p.scaling_factor,
    type: p.type,
    billing_scheme: p.billing_scheme,
    unit_amount: p.unit_amount === null ? null : Number(p.unit_amount),
    tiers: p.tiers,
    tiers_mode: p.tiers_mode,
    transform_quantity: p.transform_quantity,
    recurring: p.recurring === null ? null : { ...p.recurring, meter_id: p.meter_id },
    tax_behavior: p.tax_behavior,
    lookup_key: p.lookup_key,
    metadata: p.metadata,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export type PriceResponse = ReturnType<typeof toPriceResponse>;
