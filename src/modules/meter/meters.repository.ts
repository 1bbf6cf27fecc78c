import { Injectable } from '@nestjs/common';
import { QueryFailedError, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid } from '../../common/ids.js';
import { Meter } from './entities/meter.entity.js';

/** Meters of one application in the request's (or job's) mode. */
@Injectable()
export class MetersRepository {
  constructor(private readonly db: ModeDb) {}

  /** Inserts the meter; null when the application already has a meter with its event name. */
  async insert(meter: Meter, manager: EntityManager): Promise<Meter | null> {
    const repo = this.db.repository(Meter, manager);
    try {
      // A duplicate leaves the caller's transaction aborted: the caller throws, which rolls it back.
      return await repo.save(repo.create(meter));
    } catch (err) {
      if (err instanceof QueryFailedError && (err as { code?: string }).code === '23505') return null;
      throw err;
    }
  }

  findById(applicationId: string, id: string, manager?: EntityManager): Promise<Meter | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Meter, manager).findOneBy({ application_id: applicationId, id });
  }

  findByEventName(applicationId: string, eventName: string): Promise<Meter | null> {
    return this.db.repository(Meter).findOneBy({ application_id: applicationId, event_name: eventName });
  }

  async deactivate(applicationId: string, id: string, at: Date, manager: EntityManager): Promise<void> {
    await this.db
      .repository(Meter, manager)
      .update({ application_id: applicationId, id, status: 'active' }, { status: 'inactive', updated_at: at });
  }

  async update(
    applicationId: string,
    id: string,
    changes: Partial<Pick<Meter, 'display_name' | 'enforce_credit' | 'updated_at'>>,
    manager: EntityManager,
  ): Promise<void> {
    await this.db.repository(Meter, manager).update({ application_id: applicationId, id }, changes);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  query(applicationId: string): SelectQueryBuilder<Meter> {
    return this.db.repository(Meter).createQueryBuilder('m').where('m.application_id = :app', { app: applicationId });
  }
}
