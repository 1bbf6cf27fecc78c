import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid } from '../../common/ids.js';
import { Customer } from './entities/customer.entity.js';

/** Every read is scoped to the application; the mode is the request's (ModeDb). */
@Injectable()
export class CustomersRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(customer: Partial<Customer>, manager?: EntityManager): Promise<Customer> {
    const repo = this.db.repository(Customer, manager);
    return repo.save(repo.create(customer));
  }

  findById(applicationId: string, id: string, manager?: EntityManager): Promise<Customer | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Customer, manager).findOneBy({ application_id: applicationId, id });
  }

  async findMany(applicationId: string, ids: string[], manager?: EntityManager): Promise<Customer[]> {
    const wanted = ids.filter(isUuid);
    if (wanted.length === 0) return [];
    return this.db
      .repository(Customer, manager)
      .createQueryBuilder('c')
      .where('c.application_id = :applicationId AND c.id IN (:...wanted)', { applicationId, wanted })
      .getMany();
  }

  async update(applicationId: string, id: string, changes: Partial<Customer>, manager?: EntityManager): Promise<void> {
    await this.db
      .repository(Customer, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<Customer>);
  }

  async detachTestClock(applicationId: string, testClockId: string, manager: EntityManager): Promise<void> {
    await this.db
      .repository(Customer, manager)
      .update({ application_id: applicationId, test_clock_id: testClockId }, { test_clock_id: null });
  }

  /** Clears `invoice_settings.default_payment_method` of the customer where it is `paymentMethodId`. */
  async clearDefaultPaymentMethod(
    applicationId: string,
    customerId: string,
    paymentMethodId: string,
    manager: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(Customer, manager)
      .createQueryBuilder()
      .update()
      .set({
        invoice_settings: () => `jsonb_set(invoice_settings, '{default_payment_method}', 'null'::jsonb)`,
        updated_at: () => 'now()',
      })
      .where('application_id = :applicationId AND id = :customerId', { applicationId, customerId })
      .andWhere(`invoice_settings->>'default_payment_method' = :paymentMethodId`, { paymentMethodId })
      .execute();
  }

  query(applicationId: string): SelectQueryBuilder<Customer> {
    return this.db
      .repository(Customer)
      .createQueryBuilder('c')
      .where('c.application_id = :applicationId', { applicationId });
  }
}
