import { currentTraceparent } from '../../common/observability/trace-context.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid } from '../../common/ids.js';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { Refund } from './entities/refund.entity.js';
import type { RefundStatus } from './refund.transitions.js';

/** The only door to the refunds table. */
@Injectable()
export class RefundsRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  query(applicationId: string): SelectQueryBuilder<Refund> {
    return this.db
      .repository(Refund)
      .createQueryBuilder('r')
      .where('r.application_id = :applicationId', { applicationId });
  }

  /** The refund, or null; `lock` holds it FOR UPDATE until `manager`'s transaction ends. */
  find(applicationId: string, id: string, manager?: EntityManager, lock = false): Promise<Refund | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Refund, manager).findOne({
      where: { application_id: applicationId, id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** The refund `provider` knows by `reference`, of any application of the mode (provider webhooks). */
  byProviderReference(provider: string, reference: string): Promise<Refund | null> {
    return this.db.repository(Refund).findOne({ where: { provider, reference_id: reference } });
  }

  /** Pending refunds of `providers` with a provider reference, created before `before`, oldest first. */
  pendingAtProviders(
    providers: string[],
    before: Date,
    limit: number,
    scope: Pick<JobScope, 'applicationIds'> = {},
  ): Promise<Refund[]> {
    const qb = this.db
      .repository(Refund)
      .createQueryBuilder('r')
      .where("r.status = 'pending'")
      .andWhere('r.reference_id IS NOT NULL')
      .andWhere('r.provider IN (:...providers)', { providers })
      .andWhere('r.created_at < :before', { before });
    if (scope.applicationIds) qb.andWhere('r.application_id = ANY(:ids)', { ids: [...scope.applicationIds] });
    return qb.orderBy('r.created_at', 'ASC').limit(limit).getMany();
  }

  /** Pending refunds without a provider reference created before `before`, oldest first. */
  unanswered(before: Date, limit: number, scope: Pick<JobScope, 'applicationIds'> = {}): Promise<Refund[]> {
    const qb = this.db
      .repository(Refund)
      .createQueryBuilder('r')
      .where("r.status = 'pending'")
      .andWhere('r.reference_id IS NULL')
      .andWhere('r.created_at < :before', { before });
    if (scope.applicationIds) qb.andWhere('r.application_id = ANY(:ids)', { ids: [...scope.applicationIds] });
    return qb.orderBy('r.created_at', 'ASC').limit(limit).getMany();
  }

  async insert(refund: Refund, manager: EntityManager): Promise<Refund> {
    const repo = this.db.repository(Refund, manager);
    return repo.save(repo.create({ traceparent: currentTraceparent(), ...refund }));
  }

  /** Writes facts other than the status: the type refuses `status`. */
  async update(
    applicationId: string,
    id: string,
    changes: Omit<Partial<Refund>, 'status'> & { status?: never },
    manager?: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(Refund, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<Refund>);
  }

  /** The one write of a refund's status, from refund.transitions.ts; returns the refund as stored. */
  async writeStatus(
    applicationId: string,
    id: string,
    status: RefundStatus,
    changes: Omit<Partial<Refund>, 'status'>,
    manager: EntityManager,
  ): Promise<Refund> {
    await this.db
      .repository(Refund, manager)
      .update({ application_id: applicationId, id }, { ...changes, status } as QueryDeepPartialEntity<Refund>);
    return (await this.find(applicationId, id, manager))!;
  }
}
