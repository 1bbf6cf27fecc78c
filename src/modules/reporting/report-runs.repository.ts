import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import { returnedRows } from '../../common/database/returned-rows.js';
import { claimOldestPendingSql } from '../../common/jobs/run-queue.sql.js';
import { isUuid } from '../../common/ids.js';
import { ReportRun } from './entities/report-run.entity.js';
import type { ReportRunStatus } from './report-run.transitions.js';

/** The only door to `report_runs`; every read is scoped to the application, the mode is the bound one. */
@Injectable()
export class ReportRunsRepository {
  constructor(private readonly db: ModeDb) {}

  async insert(run: ReportRun, manager?: EntityManager): Promise<ReportRun> {
    const repo = this.db.repository(ReportRun, manager);
    return repo.save(repo.create(run));
  }

  find(applicationId: string, id: string, manager?: EntityManager): Promise<ReportRun | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(ReportRun, manager).findOneBy({ application_id: applicationId, id });
  }

  query(applicationId: string): SelectQueryBuilder<ReportRun> {
    return this.db
      .repository(ReportRun)
      .createQueryBuilder('r')
      .where('r.application_id = :applicationId', { applicationId });
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Claims the oldest pending run whose lease is free (none, or expired) until `until`: FOR UPDATE
   * SKIP LOCKED, so replicas never claim the same run at once, and a replica that died mid-run
   * leaves a lease that expires. `applicationIds` null: every application.
   */
  async claimPending(now: Date, until: Date, applicationIds: readonly string[] | null): Promise<ReportRun | null> {
    const table = this.db.table('report_runs');
    const claimed = returnedRows<{ id: string; application_id: string }>(
      await this.db.manager.query(claimOldestPendingSql(table), [now, until, applicationIds]),
    );
    return claimed.length > 0 ? this.find(claimed[0].application_id, claimed[0].id) : null;
  }

  /**
   * The run's one status writer, in `manager`'s transaction: locks the row and writes the new
   * status only while the run is still pending under the lease `claimedUntil` (a replica whose
   * lease expired and was taken over writes nothing); answers the written run or null.
   */
  async writeStatus(
    applicationId: string,
    id: string,
    claimedUntil: Date,
    status: ReportRunStatus,
    changes: Pick<Partial<ReportRun>, 'error' | 'result_file_id' | 'row_count' | 'succeeded_at' | 'updated_at'>,
    manager: EntityManager,
  ): Promise<ReportRun | null> {
    const locked = await this.db
      .repository(ReportRun, manager)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .where('r.application_id = :applicationId AND r.id = :id', { applicationId, id })
      .getOne();
    if (!locked || locked.status !== 'pending' || locked.claimed_until?.getTime() !== claimedUntil.getTime()) {
      return null;
    }
    await this.db
      .repository(ReportRun, manager)
      .update({ application_id: applicationId, id }, { ...changes, status, claimed_until: null });
    return this.find(applicationId, id, manager);
  }
}
