import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../../common/database/mode-db.js';
import { isUuid } from '../../../../common/ids.js';
import { Product } from './entities/product.entity.js';

/** Products of one application in the request's mode. */
@Injectable()
export class ProductsRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(product: Product, manager: EntityManager): Promise<Product> {
    const repo = this.db.repository(Product, manager);
    return repo.save(repo.create(product));
  }

  findById(applicationId: string, id: string, manager?: EntityManager): Promise<Product | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Product, manager).findOneBy({ application_id: applicationId, id });
  }

  /** The product, locked for update in the caller's transaction. */
  lockById(applicationId: string, id: string, manager: EntityManager): Promise<Product | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db
      .repository(Product, manager)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where('p.application_id = :applicationId AND p.id = :id', { applicationId, id })
      .getOne();
  }

  async update(
    applicationId: string,
    id: string,
    changes: Partial<Pick<Product, 'name' | 'description' | 'active' | 'metadata' | 'updated_at'>>,
    manager: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(Product, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<Product>);
  }

  query(applicationId: string): SelectQueryBuilder<Product> {
    return this.db
      .repository(Product)
      .createQueryBuilder('p')
      .where('p.application_id = :applicationId', { applicationId });
  }
}
