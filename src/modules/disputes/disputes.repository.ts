import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid } from '../../common/ids.js';
import type { JobScope } from '../../common/jobs/job-scope.js';
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

  /** The dispute a provider knows by `providerId`, locked (FOR UPDATE) until `manager`'s transaction ends. */
  lockByProviderId(
    applicationId: string,
    provider: string,
    providerId: string,
    manager: EntityManager,
  ): Promise<Dispute | null> {
    return this.db
      .repository(Dispute, manager)
      .createQueryBuilder('d')
      .setLock('pessimistic_write')
      .where('d.application_id = :applicationId AND d.provider = :provider AND d.provider_id = :providerId', {
        applicationId,
        provider,
        providerId,
      })
      .getOne();
  }

  /** The dispute a provider knows by `providerId`, in the mode bound, whichever application it is of. */
  findByProviderId(provider: string, providerId: string): Promise<Dispute | null> {
    return this.db.repository(Dispute).findOneBy({ provider, provider_id: providerId });
  }

  /**
   * Open disputes at `providers` whose provider state was last applied before `before` (never
   * applied first), oldest first: the reconciliation job reads them back.
   */
  staleAtProviders(
    providers: string[],
    before: Date,
    limit: number,
    scope: Pick<JobScope, 'applicationIds'> = {},
  ): Promise<Dispute[]> {
    if (providers.length === 0) return Promise.resolve([]);
    const qb = this.db
      .repository(Dispute)
      .createQueryBuilder('d')
      .where('d.settled = false AND d.provider_id IS NOT NULL')
      .andWhere('d.provider IN (:...providers)', { providers })
      .andWhere('(d.provider_synced_at IS NULL OR d.provider_synced_at < :before)', { before });
    if (scope.applicationIds) qb.andWhere('d.application_id = ANY(:ids)', { ids: [...scope.applicationIds] });
    return qb.orderBy('d.provider_synced_at', 'ASC', 'NULLS FIRST').addOrderBy('d.id', 'ASC').limit(limit).getMany();
  }

  async insert(dispute: Dispute, manager: EntityManager): Promise<Dispute> {
    const repo = this.db.repository(Dispute, manager);
    return repo.save(repo.create(dispute));
  }
}
