import { Injectable } from '@nestjs/common';
import { QueryFailedError, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../../common/database/mode-db.js';
import { isUuid } from '../../../../common/ids.js';
import { Price } from './entities/price.entity.js';

const uniqueViolation = (err: unknown) =>
  err instanceof QueryFailedError && (err as { code?: string }).code === '23505';

/** Prices of one application in the request's mode. Amount columns are written once, by insert. */
@Injectable()
export class PricesRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Inserts the price; null when another active price holds its lookup_key (the partial unique index). */
  async insert(price: Price, manager: EntityManager): Promise<Price | null> {
    const repo = this.db.repository(Price, manager);
    try {
      return await repo.save(repo.create(price));
    } catch (err) {
      if (uniqueViolation(err)) return null;
      throw err;
    }
  }

  findById(applicationId: string, id: string, manager?: EntityManager): Promise<Price | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Price, manager).findOneBy({ application_id: applicationId, id });
  }

  async findMany(applicationId: string, ids: string[], manager?: EntityManager): Promise<Price[]> {
    const wanted = ids.filter(isUuid);
    if (wanted.length === 0) return [];
    return this.db
      .repository(Price, manager)
      .createQueryBuilder('p')
      .where('p.application_id = :applicationId AND p.id IN (:...wanted)', { applicationId, wanted })
      .getMany();
  }

  lockById(applicationId: string, id: string, manager: EntityManager): Promise<Price | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.lockWhere(manager, 'p.application_id = :applicationId AND p.id = :id', { applicationId, id });
  }

  /** The active price holding `lookupKey`, locked, if any. */
  lockByLookupKey(applicationId: string, lookupKey: string, manager: EntityManager): Promise<Price | null> {
    return this.lockWhere(manager, 'p.application_id = :applicationId AND p.active AND p.lookup_key = :lookupKey', {
      applicationId,
      lookupKey,
    });
  }

  /** Writes the mutable fields; false when the lookup_key is held by another active price. */
  async update(
    applicationId: string,
    id: string,
    changes: Partial<Pick<Price, 'active' | 'lookup_key' | 'metadata' | 'updated_at'>>,
    manager: EntityManager,
  ): Promise<boolean> {
    try {
      await this.db
        .repository(Price, manager)
        .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<Price>);
      return true;
    } catch (err) {
      if (uniqueViolation(err)) return false;
      throw err;
    }
  }

  query(applicationId: string): SelectQueryBuilder<Price> {
    return this.db
      .repository(Price)
      .createQueryBuilder('p')
      .where('p.application_id = :applicationId', { applicationId });
  }

  private lockWhere(manager: EntityManager, where: string, params: Record<string, unknown>): Promise<Price | null> {
    return this.db
      .repository(Price, manager)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where(where, params)
      .getOne();
  }
}
