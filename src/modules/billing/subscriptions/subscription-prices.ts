import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import type { Price } from '../catalog/prices/entities/price.entity.js';
import { PricesService } from '../catalog/prices/prices.service.js';
import { ratePrice } from '../pricing/index.js';
import { changeProrations, type ProrationLine } from './proration.js';
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
   * Prorations of a licensed item going from `from` to `to` (a price and quantity each; null when
   * added or removed) at `at` in `period` (proration.ts), each side costed by the catalog's rating
   * (per unit, tiers, transform_quantity). Metered prices are billed from usage: no proration.
   */
  prorations(
    from: { price: Price; quantity: number } | null,
    to: { price: Price; quantity: number } | null,
    at: Date,
    period: { start: Date; end: Date },
  ): Array<ProrationLine & { price: Price }> {
    const cost = (side: { price: Price; quantity: number } | null) =>
      side && side.price.recurring?.usage_type !== 'metered'
        ? { quantity: side.quantity, amount: BigInt(ratePrice(ratable(side.price), side.quantity)) }
        : null;
    // A credit is the old side's, a charge the new side's.
    return changeProrations(cost(from), cost(to), at, period).map((line) => ({
      ...line,
      price: line.amount < 0n ? from!.price : to!.price,
    }));
  }

  /** What the licensed items cost for a whole period, in minor units (what a coupon applies to). */
  periodAmount(items: Array<{ price: Price; quantity: number | null }>): number {
    return items.reduce((sum, i) => (i.quantity === null ? sum : sum + ratePrice(ratable(i.price), i.quantity)), 0);
  }
}

/** A bigint column may load as a string (the embedded database): rating takes numbers. */
const ratable = (price: Price): Price => ({
  ...price,
  unit_amount: price.unit_amount === null ? null : Number(price.unit_amount),
});
