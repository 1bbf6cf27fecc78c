import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid } from '../../common/ids.js';
import { Dispute } from './entities/dispute.entity.js';

@Injectable()
export class DisputesRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Disputes of one application in one application country. */
  query(applicationId: string, country: string): SelectQueryBuilder<Dispute> {
    return this.db
      .repository(Dispute)
      .createQueryBuilder('d')
      .where('d.application_id = :applicationId AND d.country = :country', { applicationId, country });
  }

  findById(applicationId: string, country: string, id: string): Promise<Dispute | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Dispute).findOneBy({ application_id: applicationId, country, id });
  }

  /** findById that also locks the dispute (FOR UPDATE) until `manager`'s transaction ends. */
  lock(applicationId: string, country: string, id: string, manager: EntityManager): Promise<Dispute | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db
      .repository(Dispute, manager)
      .createQueryBuilder('d')
      .setLock('pessimistic_write')
      .where('d.application_id = :applicationId AND d.country = :country AND d.id = :id', {
        applicationId,
        country,
        id,
      })
      .getOne();
  }

  async save(dispute: Dispute, manager: EntityManager): Promise<Dispute> {
    return this.db.repository(Dispute, manager).save(dispute);
  }

  findByCharge(applicationId: string, chargeId: string, manager: EntityManager): Promise<Dispute | null> {
    return this.db.repository(Dispute, manager).findOneBy({ application_id: applicationId, charge_id: chargeId });
  }

  async insert(dispute: Dispute, manager: EntityManager): Promise<Dispute> {
    const repo = this.db.repository(Dispute, manager);
    return repo.save(repo.create(dispute));
  }
}
