import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid } from '../../common/ids.js';
import { AccountRecord } from './entities/account.entity.js';

export type NewAccount = Omit<AccountRecord, 'livemode'>;

/** Every read is scoped to the application; the mode is the request's (ModeDb). */
@Injectable()
export class AccountsRepository {
  constructor(private readonly db: ModeDb) {}

  async insert(account: NewAccount, manager?: EntityManager): Promise<AccountRecord> {
    const repo = this.db.repository(AccountRecord, manager);
    return repo.save(repo.create(account));
  }

  /**
   * Inserts the application's own account unless it has one: a partial unique index allows one
   * `own` account per application, so concurrent callers cannot make two.
   */
  async insertOwnIfMissing(account: NewAccount, manager?: EntityManager): Promise<void> {
    await this.db
      .repository(AccountRecord, manager)
      .createQueryBuilder()
      .insert()
      .into(AccountRecord)
      .values(account as QueryDeepPartialEntity<AccountRecord>)
      .orIgnore()
      .execute();
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  findById(applicationId: string, id: string, manager?: EntityManager): Promise<AccountRecord | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(AccountRecord, manager).findOneBy({ application_id: applicationId, id });
  }

  /** The account a provider's notice names by its provider account id (any application: the id is the provider's). */
  findByProviderAccount(
    provider: string,
    providerAccountId: string,
    manager?: EntityManager,
  ): Promise<AccountRecord | null> {
    return this.db.repository(AccountRecord, manager).findOneBy({ provider, provider_account_id: providerAccountId });
  }

  /** The account under a row lock, in `manager`'s transaction. */
  lock(applicationId: string, id: string, manager: EntityManager): Promise<AccountRecord | null> {
    return this.db
      .repository(AccountRecord, manager)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.application_id = :applicationId AND a.id = :id', { applicationId, id })
      .getOne();
  }

  findOwn(applicationId: string, manager?: EntityManager): Promise<AccountRecord | null> {
    return this.db.repository(AccountRecord, manager).findOneBy({ application_id: applicationId, type: 'own' });
  }

  async update(
    applicationId: string,
    id: string,
    changes: Partial<AccountRecord>,
    manager?: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(AccountRecord, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<AccountRecord>);
  }

  query(applicationId: string): SelectQueryBuilder<AccountRecord> {
    return this.db
      .repository(AccountRecord)
      .createQueryBuilder('a')
      .where('a.application_id = :applicationId', { applicationId });
  }
}
