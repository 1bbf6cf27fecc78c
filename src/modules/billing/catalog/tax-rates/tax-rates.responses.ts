import type { TaxRate } from './entities/tax-rate.entity.js';

export function toTaxRateResponse(r: TaxRate) {
  return {
    id: r.id,
    object: 'tax_rate' as const,
    livemode: r.livemode,
    display_name: r.display_name,
    description: r.description,
    /** The stored decimal as a JSON number (7.25); it has at most 4 decimals, which a double shows exactly. */
    percentage: Number(r.percentage),
    inclusive: r.inclusive,
    country: r.country,
    jurisdiction: r.jurisdiction,
    active: r.active,
    metadata: r.metadata,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export type TaxRateResponse = ReturnType<typeof toTaxRateResponse>;
