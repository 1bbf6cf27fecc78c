import type { Product } from './entities/product.entity.js';

export function toProductResponse(p: Product) {
  return {
    id: p.id,
    object: 'product' as const,
    livemode: p.livemode,
    name: p.name,
    description: p.description,
    active: p.active,
    metadata: p.metadata,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export type ProductResponse = ReturnType<typeof toProductResponse>;
