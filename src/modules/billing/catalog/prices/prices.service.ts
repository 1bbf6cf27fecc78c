import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../../common/clock.js';
import type { Principal, Scope } from '../../../../common/context/principal.js';
import { AppError } from '../../../../common/errors/app-error.js';
import { Errors } from '../../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../../common/events/event-recorder.js';
import { IdempotencyScope } from '../../../../common/idempotency/idempotency-scope.js';
import { newId } from '../../../../common/ids.js';
import {
  ListFilters,
  runList,
  type ListEnvelope,
  type ListQuery,
  type ListSpec,
} from '../../../../common/list/index.js';
import { scalingFactorOf } from '../../../ledger/index.js';
import { MetersService } from '../../../meter/index.js';
import { BillingErrors as E } from '../../billing.errors.js';
import { mergeMetadata, previousAttributes } from '../metadata.js';
import { ProductsService } from '../products/products.service.js';
import { IMMUTABLE_PRICE_FIELDS, type CreatePriceDto, type UpdatePriceDto } from './price.dto.js';
import type { Price } from './entities/price.entity.js';
import { checkPriceShape } from './price-rules.js';
import { PricesRepository } from './prices.repository.js';
import { toPriceResponse, type PriceResponse } from './prices.responses.js';

export const PRICE_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    product_id: ListFilters.uuid,
    active: ListFilters.boolean,
    currency: ListFilters.currency,
    type: ListFilters.oneOf(['one_time', 'recurring']),
    billing_scheme: ListFilters.oneOf(['per_unit', 'tiered']),
    lookup_key: ListFilters.text,
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'updated_at'],
  search: ['id', 'lookup_key'],
};

const notFound = (id: string) => new AppError(Errors.E4004, `No price with id "${id}".`);

@Injectable()
export class PricesService {
  constructor(
    private readonly prices: PricesRepository,
    private readonly products: ProductsService,
    private readonly meters: MetersService,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly idempotency: IdempotencyScope,
  ) {}

  async create(principal: Principal, dto: CreatePriceDto): Promise<PriceResponse> {
    const resumed = this.idempotency.resumes('price');
    if (resumed) return this.retrieve(principal, resumed);
    const applicationId = principal.application.id;
    const billingScheme = dto.billing_scheme ?? 'per_unit';
    const { tiers, recurring } = checkPriceShape({ ...dto, billing_scheme: billingScheme });
    const meterId = dto.recurring?.meter_id ?? null;
    if (meterId !== null && !(await this.meters.find(principal, meterId))) {
      throw new AppError(E.E7611, `No meter with id "${meterId}".`);
    }
    const product = await this.products.find(principal, dto.product_id);
    if (!product) throw new AppError(E.E7600, `No product with id "${dto.product_id}".`);
    if (!product.active) throw new AppError(E.E7601, `Product "${product.id}" is inactive.`);
    const now = this.clock.now();
    const price = await this.prices.transaction(async (manager) => {
      const active = dto.active ?? true;
      const lookupKey = dto.lookup_key ?? null;
      if (active && lookupKey !== null && dto.transfer_lookup_key === true) {
        await this.releaseLookupKey(applicationId, lookupKey, manager);
      }
      const inserted = await this.prices.insert(
        {
          id: newId(),
          application_id: applicationId,
          product_id: product.id,
          currency: dto.currency,
          scaling_factor: scalingFactorOf(dto.currency),
          type: recurring ? 'recurring' : 'one_time',
          billing_scheme: billingScheme,
          unit_amount: dto.unit_amount ?? null,
          tiers,
          tiers_mode: dto.tiers_mode ?? null,
          transform_quantity: dto.transform_quantity
            ? { divide_by: dto.transform_quantity.divide_by, round: dto.transform_quantity.round }
            : null,
          recurring,
          meter_id: meterId,
          tax_behavior: dto.tax_behavior ?? 'exclusive',
          active,
          lookup_key: lookupKey,
          metadata: dto.metadata ?? {},
          created_at: now,
          updated_at: now,
        } as Price,
        manager,
      );
      if (!inserted) throw lookupKeyTaken(lookupKey);
      await this.events.record(manager, { applicationId, type: 'price.created', object: toPriceResponse(inserted) });
      await this.idempotency.checkpoint(manager, 'price', inserted.id);
      return inserted;
    });
    return toPriceResponse(price);
  }

  async retrieve(principal: Principal, id: string): Promise<PriceResponse> {
    return toPriceResponse(await this.get(principal, id));
  }

  /** The price of the scope's application and mode (active or not), or E4004. */
  async get(scope: Scope, id: string, manager?: EntityManager): Promise<Price> {
    const price = await this.prices.findById(scope.application.id, id, manager);
    if (!price) throw notFound(id);
    return price;
  }

  /**
   * For other modules (subscriptions, checkout line items): the prices `ids` name, in their order,
   * each active and of the scope's application and mode. E7617 names the first unknown id, E7618
   * the first inactive price. With `manager`, read in the caller's transaction.
   */
  async findUsable(scope: Scope, ids: string[], manager?: EntityManager): Promise<Price[]> {
    const found = new Map((await this.prices.findMany(scope.application.id, ids, manager)).map((p) => [p.id, p]));
    return ids.map((id) => {
      const price = found.get(id);
      if (!price) throw new AppError(E.E7617, `No price with id "${id}".`);
      if (!price.active) throw new AppError(E.E7618, `Price "${id}" is inactive.`);
      return price;
    });
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<PriceResponse>> {
    return runList(this.prices.query(principal.application.id), PRICE_LIST, query, toPriceResponse);
  }

  /** POST /prices/{id}: active, lookup_key (with transfer_lookup_key) and metadata; amounts never change (E7615). */
  async update(principal: Principal, id: string, dto: UpdatePriceDto): Promise<PriceResponse> {
    const immutable = IMMUTABLE_PRICE_FIELDS.filter((field) => dto[field] !== undefined);
    if (immutable.length > 0) {
      throw new AppError(
        E.E7615,
        `${immutable.join(', ')} of a price cannot change: deactivate it and create another.`,
      );
    }
    const applicationId = principal.application.id;
    return this.prices.transaction(async (manager) => {
      const before = await this.prices.lockById(applicationId, id, manager);
      if (!before) throw notFound(id);
      const after: Price = {
        ...before,
        active: dto.active ?? before.active,
        lookup_key: dto.lookup_key === undefined ? before.lookup_key : dto.lookup_key || null,
        metadata: mergeMetadata(before.metadata, dto.metadata),
      };
      const previous = previousAttributes(before, after, ['active', 'lookup_key', 'metadata']);
      if (Object.keys(previous).length === 0) return toPriceResponse(before);
      if (after.active && after.lookup_key !== null && dto.transfer_lookup_key === true) {
        await this.releaseLookupKey(applicationId, after.lookup_key, manager, id);
      }
      after.updated_at = this.clock.now();
      const written = await this.prices.update(
        applicationId,
        id,
        { active: after.active, lookup_key: after.lookup_key, metadata: after.metadata, updated_at: after.updated_at },
        manager,
      );
      if (!written) throw lookupKeyTaken(after.lookup_key);
      const response = toPriceResponse(after);
      await this.events.record(manager, {
        applicationId,
        type: 'price.updated',
        object: response,
        previous_attributes: previous,
      });
      return response;
    });
  }

  /** transfer_lookup_key: the active price holding `lookupKey` (other than `except`) gives it up, with its price.updated. */
  private async releaseLookupKey(
    applicationId: string,
    lookupKey: string,
    manager: EntityManager,
    except?: string,
  ): Promise<void> {
    const holder = await this.prices.lockByLookupKey(applicationId, lookupKey, manager);
    if (!holder || holder.id === except) return;
    const updatedAt = this.clock.now();
    await this.prices.update(applicationId, holder.id, { lookup_key: null, updated_at: updatedAt }, manager);
    await this.events.record(manager, {
      applicationId,
      type: 'price.updated',
      object: toPriceResponse({ ...holder, lookup_key: null, updated_at: updatedAt }),
      previous_attributes: { lookup_key: lookupKey },
    });
  }
}

const lookupKeyTaken = (lookupKey: string | null) =>
  new AppError(
    E.E7612,
    `Another active price has lookup_key "${lookupKey}" (send transfer_lookup_key: true to move it).`,
  );
