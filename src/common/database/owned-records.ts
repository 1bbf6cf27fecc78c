import type { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { isUuid } from '../ids.js';
import type { ModeDb } from './mode-db.js';

type Owned = ObjectLiteral & { id: string; application_id: string };

/**
 * What every repository of an application-owned table does the same way: inserts, reads by id
 * scoped to the application (immich's `findById(ownerId, id)`), lists, and writes fields by id.
 * A named repository extends it for one table and adds that table's own queries; a table with a
 * lifecycle adds its one status write there, so the status never goes through `update`.
 */
export abstract class OwnedRecords<T extends Owned> {
  protected constructor(
    protected readonly db: ModeDb,
    private readonly entity: new () => T,
  ) {}

  transaction<R>(work: (manager: EntityManager) => Promise<R>): Promise<R> {
    return this.db.transaction(work);
  }

  async insert(record: Partial<T>, manager?: EntityManager): Promise<T> {
    const repo = this.db.repository(this.entity, manager);
    return repo.save(repo.create(record as T));
  }

  /** The application's record, or null; `lock` holds it FOR UPDATE until `manager`'s transaction ends. */
  findById(applicationId: string, id: string, manager?: EntityManager, lock = false): Promise<T | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(this.entity, manager).findOne({
      where: { application_id: applicationId, id } as never,
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** The application's records of `ids` (nulls skipped), by id. */
  async byIds(applicationId: string, ids: ReadonlyArray<string | null>): Promise<Map<string, T>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map<string, T>();
    const rows = await this.listQuery('r', applicationId).andWhere('r.id IN (:...wanted)', { wanted }).getMany();
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The application's records, for the list engine. */
  listQuery(alias: string, applicationId: string): SelectQueryBuilder<T> {
    return this.db
      .repository(this.entity)
      .createQueryBuilder(alias)
      .where(`${alias}.application_id = :applicationId`, { applicationId });
  }

  /** Writes fields other than the status (the type refuses `status`: a lifecycle has its own write). */
  update(
    applicationId: string,
    id: string,
    changes: Omit<Partial<T>, 'status'> & { status?: never },
    manager?: EntityManager,
  ): Promise<void> {
    return this.write(applicationId, id, changes as Partial<T>, manager);
  }

  protected async write(applicationId: string, id: string, changes: Partial<T>, manager?: EntityManager) {
    await this.db
      .repository(this.entity, manager)
      .update({ application_id: applicationId, id } as never, changes as QueryDeepPartialEntity<T>);
  }
}
