import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { RestrictedPermissions } from '../../../common/auth/permissions.js';
import type { Mode } from '../../../common/context/principal.js';
import { isUuid } from '../../../common/ids.js';
import { ApiKey } from '../entities/api-key.entity.js';

/** platform.api_keys: secret and restricted keys, always scoped by application (and mode where the caller has one). */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  insert(manager: EntityManager, key: Partial<ApiKey>): Promise<ApiKey> {
    return manager.getRepository(ApiKey).save(manager.getRepository(ApiKey).create(key));
  }

  /** The key with this public prefix, of any application: what a presented key is looked up by. */
  findByPrefix(prefix: string): Promise<ApiKey | null> {
    return this.db.getRepository(ApiKey).findOneBy({ prefix });
  }

  /** Application `applicationId`'s key `id` in `mode` (and of `kind` when given), locked with `manager`'s FOR UPDATE when given. */
  find(
    applicationId: string,
    mode: Mode,
    id: string,
    kind?: ApiKey['kind'],
    manager?: EntityManager,
  ): Promise<ApiKey | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    const qb = (manager ?? this.db.manager)
      .getRepository(ApiKey)
      .createQueryBuilder('k')
      .where('k.application_id = :applicationId AND k.mode = :mode AND k.id = :id', { applicationId, mode, id });
    if (kind) qb.andWhere('k.kind = :kind', { kind });
    if (manager) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** Application `applicationId`'s keys of `kind` in `mode`, for the list engine. */
  listQuery(applicationId: string, mode: Mode, kind: ApiKey['kind']): SelectQueryBuilder<ApiKey> {
    return this.db
      .getRepository(ApiKey)
      .createQueryBuilder('k')
      .where('k.application_id = :applicationId AND k.mode = :mode AND k.kind = :kind', { applicationId, mode, kind });
  }

  listAll(applicationId: string, mode?: Mode): Promise<ApiKey[]> {
    return this.db.getRepository(ApiKey).find({
      where: mode ? { application_id: applicationId, mode } : { application_id: applicationId },
      order: { created_at: 'ASC' },
    });
  }

  async update(
    manager: EntityManager,
    id: string,
    changes: Partial<Pick<ApiKey, 'name' | 'permissions' | 'expires_at' | 'replaced_by' | 'status' | 'revoked_at'>>,
  ): Promise<ApiKey> {
    await manager
      .getRepository(ApiKey)
      .update({ id }, changes as Partial<ApiKey> & { permissions?: RestrictedPermissions });
    return await manager.getRepository(ApiKey).findOneByOrFail({ id });
  }
}
