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
import { mergeMetadata, previousAttributes } from '../metadata.js';
import type { CreateProductDto, UpdateProductDto } from './product.dto.js';
import type { Product } from './entities/product.entity.js';
import { ProductsRepository } from './products.repository.js';
import { toProductResponse, type ProductResponse } from './products.responses.js';

export const PRODUCT_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    active: ListFilters.boolean,
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'updated_at'],
  search: ['id', 'name', 'description'],
};

const notFound = (id: string) => new AppError(Errors.E4004, `No product with id "${id}".`);

@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly idempotency: IdempotencyScope,
  ) {}

  async create(principal: Principal, dto: CreateProductDto): Promise<ProductResponse> {
    const resumed = this.idempotency.resumes('product');
    if (resumed) return this.retrieve(principal, resumed);
    const now = this.clock.now();
    const product = await this.products.transaction(async (manager) => {
      const inserted = await this.products.insert(
        {
          id: newId(),
          application_id: principal.application.id,
          name: dto.name,
          description: dto.description ?? null,
          active: dto.active ?? true,
          metadata: dto.metadata ?? {},
          created_at: now,
          updated_at: now,
        } as Product,
        manager,
      );
      await this.events.record(manager, {
        applicationId: principal.application.id,
        type: 'product.created',
        object: toProductResponse(inserted),
      });
      await this.idempotency.checkpoint(manager, 'product', inserted.id);
      return inserted;
    });
    return toProductResponse(product);
  }

  async retrieve(principal: Principal, id: string): Promise<ProductResponse> {
    return toProductResponse(await this.get(principal, id));
  }

  /** The product of the scope's application and mode, or E4004. */
  async get(scope: Scope, id: string, manager?: EntityManager): Promise<Product> {
    const product = await this.products.findById(scope.application.id, id, manager);
    if (!product) throw notFound(id);
    return product;
  }

  /** The product (or null), read in the caller's transaction. */
  find(scope: Scope, id: string, manager?: EntityManager): Promise<Product | null> {
    return this.products.findById(scope.application.id, id, manager);
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<ProductResponse>> {
    return runList(this.products.query(principal.application.id), PRODUCT_LIST, query, toProductResponse);
  }

  /** POST /products/{id}: name, description, active, metadata; records product.updated when anything changed. */
  async update(principal: Principal, id: string, dto: UpdateProductDto): Promise<ProductResponse> {
    const applicationId = principal.application.id;
    return this.products.transaction(async (manager) => {
      const before = await this.products.lockById(applicationId, id, manager);
      if (!before) throw notFound(id);
      const after: Product = {
        ...before,
        name: dto.name ?? before.name,
        description: dto.description ?? before.description,
        active: dto.active ?? before.active,
        metadata: mergeMetadata(before.metadata, dto.metadata),
      };
      const previous = previousAttributes(before, after, ['name', 'description', 'active', 'metadata']);
      if (Object.keys(previous).length === 0) return toProductResponse(before);
      after.updated_at = this.clock.now();
      await this.products.update(
        applicationId,
        id,
        {
          name: after.name,
          description: after.description,
          active: after.active,
          metadata: after.metadata,
          updated_at: after.updated_at,
        },
        manager,
      );
      const response = toProductResponse(after);
      await this.events.record(manager, {
        applicationId,
        type: 'product.updated',
        object: response,
        previous_attributes: previous,
      });
      return response;
    });
  }
}
