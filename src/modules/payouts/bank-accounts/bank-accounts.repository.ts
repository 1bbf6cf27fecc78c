import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import { isUuid } from '../../../common/ids.js';
import { BankAccountIntent } from '../entities/bank-account-intent.entity.js';
import { BankAccount } from '../entities/bank-account.entity.js';

/** Bank accounts and bank account intents. Every read is scoped to the application; the mode is the request's (ModeDb). */
@Injectable()
export class BankAccountsRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insertBankAccount(row: Omit<BankAccount, 'livemode'>, manager?: EntityManager): Promise<BankAccount> {
    const repo = this.db.repository(BankAccount, manager);
    return repo.save(repo.create(row));
  }

  async updateBankAccount(applicationId: string, id: string, changes: Partial<BankAccount>): Promise<void> {
    await this.db
      .repository(BankAccount)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<BankAccount>);
  }

  findBankAccount(applicationId: string, country: string, id: string): Promise<BankAccount | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(BankAccount).findOneBy({ application_id: applicationId, country, id });
  }

  bankAccounts(applicationId: string, country: string): SelectQueryBuilder<BankAccount> {
    return this.db
      .repository(BankAccount)
      .createQueryBuilder('b')
      .where('b.application_id = :applicationId', { applicationId })
      .andWhere('b.country = :country', { country });
  }

  async insertIntent(row: Omit<BankAccountIntent, 'livemode'>, manager?: EntityManager): Promise<BankAccountIntent> {
    const repo = this.db.repository(BankAccountIntent, manager);
    return repo.save(repo.create(row));
  }

  findIntent(applicationId: string, id: string): Promise<BankAccountIntent | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(BankAccountIntent).findOneBy({ application_id: applicationId, id });
  }

  /** The intent, row-locked for the rest of the transaction: one bank account per intent. */
  lockIntent(applicationId: string, id: string, manager: EntityManager): Promise<BankAccountIntent | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db
      .repository(BankAccountIntent, manager)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.application_id = :applicationId AND i.id = :id', { applicationId, id })
      .getOne();
  }

  async completeIntent(
    applicationId: string,
    id: string,
    bankAccountId: string,
    at: Date,
    manager: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(BankAccountIntent, manager)
      .update(
        { application_id: applicationId, id },
        { status: 'completed', bank_account_id: bankAccountId, completed_at: at, updated_at: at },
      );
  }
}
