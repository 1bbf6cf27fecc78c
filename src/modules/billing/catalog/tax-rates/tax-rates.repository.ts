import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../../common/database/mode-db.js';
import { isUuid } from '../../../../common/ids.js';
import { TaxRate } from './entities/tax-rate.entity.js';

export type TaxRateChanges = Partial<
  Pick<TaxRate, 'display_name' | 'description' | 'country' | 'jurisdiction' | 'active' | 'metadata' | 'updated_at'>
>;

/** Tax rates of one application in the request's mode; percentage and inclusive are written once, by insert. */
@Injectable()
export class TaxRatesRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(rate: TaxRate, manager: EntityManager): Promise<TaxRate> {
    const repo = this.db.repository(TaxRate, manager);
    await repo.insert(rate as QueryDeepPartialEntity<TaxRate>);
    // Read back: the database's numeric text ("7.0000") is what every later read answers.
    return (await repo.findOneBy({ application_id: rate.application_id, id: rate.id }))!;
  }

  findById(applicationId: string, id: string, manager?: EntityManager): Promise<TaxRate | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(TaxRate, manager).findOneBy({ application_id: applicationId, id });
  }

  async findMany(applicationId: string, ids: string[], manager?: EntityManager): Promise<TaxRate[]> {
    const wanted = ids.filter(isUuid);
    if (wanted.length === 0) return [];
    return this.db
      .repository(TaxRate, manager)
      .createQueryBuilder('r')
      .where('r.application_id = :applicationId AND r.id IN (:...wanted)', { applicationId, wanted })
      .getMany();
  }

  lockById(applicationId: string, id: string, manager: EntityManager): Promise<TaxRate | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db
      .repository(TaxRate, manager)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .where('r.application_id = :applicationId AND r.id = :id', { applicationId, id })
      .getOne();
  }

  async update(applicationId: string, id: string, changes: TaxRateChanges, manager: EntityManager): Promise<void> {
    await this.db
      .repository(TaxRate, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<TaxRate>);
  }

  query(applicationId: string): SelectQueryBuilder<TaxRate> {
    return this.db
      .repository(TaxRate)
      .createQueryBuilder('r')
      .where('r.application_id = :applicationId', { applicationId });
  }
}
