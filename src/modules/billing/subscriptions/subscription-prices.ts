import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import type { Price } from '../catalog/prices/entities/price.entity.js';
import { PricesService } from '../catalog/prices/prices.service.js';
import { quantityChangeProrations, type ProrationLine } from './proration.js';
import { SubscriptionErrors } from './subscriptions.errors.js';

/** The catalog's prices as subscriptions use them. */
@Injectable()
export class SubscriptionPrices {
  constructor(private readonly prices: PricesService) {}

  /** The prices `ids` name (active or not: the rules decide), by id; E7710 names the first unknown one. */
  async load(scope: Scope, ids: string[], manager: EntityManager): Promise<Map<string, Price>> {
    const out = new Map<string, Price>();
    for (const id of new Set(ids)) {
      try {
        out.set(id, await this.prices.get(scope, id, manager));
      } catch (err) {
        if (err instanceof AppError && err.definition.code === 'E4004')
          throw new AppError(SubscriptionErrors.E7710, `No price with id "${id}".`);
        throw err;
      }
    }
    return out;
  }

  /**
   * Prorations of a licensed item going from `fromQuantity` to `toQuantity` at `at` in `period`
   * (proration.ts). Per-unit prices only for now: a tiered price is E7730.
   */
  prorations(
    price: Price,
    fromQuantity: number,
    toQuantity: number,
    at: Date,
    period: { start: Date; end: Date },
  ): ProrationLine[] {
    if (price.recurring?.usage_type === 'metered') return [];
    if (price.billing_scheme !== 'per_unit' || price.unit_amount === null)
      throw new AppError(
        SubscriptionErrors.E7730,
        `Price "${price.id}" is tiered: its prorations come with the pricing functions; use proration_behavior none.`,
      );
    return quantityChangeProrations(BigInt(price.unit_amount), fromQuantity, toQuantity, at, period);
  }
}
