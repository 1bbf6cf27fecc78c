import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import { isUuid } from '../../../common/ids.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { TestClock } from './entities/test-clock.entity.js';

/** The only door to the test_clocks table. */
@Injectable()
export class TestClocksRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  query(applicationId: string): SelectQueryBuilder<TestClock> {
    return this.db
      .repository(TestClock)
      .createQueryBuilder('tc')
      .where('tc.application_id = :applicationId', { applicationId });
  }

  /** The clock, or null; `lock` holds it FOR UPDATE until `manager`'s transaction ends. */
  find(applicationId: string, id: string, manager?: EntityManager, lock = false): Promise<TestClock | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(TestClock, manager).findOne({
      where: { application_id: applicationId, id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async insert(clock: TestClock, manager?: EntityManager): Promise<TestClock> {
    const repo = this.db.repository(TestClock, manager);
    return repo.save(repo.create(clock));
  }

  async update(
    applicationId: string,
    id: string,
    changes: Partial<TestClock>,
    manager: EntityManager,
  ): Promise<TestClock> {
    await this.db
      .repository(TestClock, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<TestClock>);
    return (await this.find(applicationId, id, manager))!;
  }

  async delete(applicationId: string, id: string, manager: EntityManager): Promise<void> {
    await this.db.repository(TestClock, manager).delete({ application_id: applicationId, id });
  }

  /**
   * One advancing clock, locked until `manager`'s transaction ends and skipped by other replicas
   * (one replica advances a clock at a time), the one waiting longest first.
   */
  claimAdvancing(manager: EntityManager, scope: Pick<JobScope, 'applicationIds'>): Promise<TestClock | null> {
    const qb = this.db
      .repository(TestClock, manager)
      .createQueryBuilder('tc')
      .where(`tc.status = 'advancing'`)
      .orderBy('tc.updated_at')
      .limit(1)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked');
    if (scope.applicationIds) qb.andWhere('tc.application_id IN (:...ids)', { ids: [...scope.applicationIds] });
    return qb.getOne();
  }
}
