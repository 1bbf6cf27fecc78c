import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { ModeDb } from '../../../common/database/mode-db.js';
import { OwnedRecords } from '../../../common/database/owned-records.js';
import { isUuid } from '../../../common/ids.js';
import { PaymentMethod, type SavedStatus } from '../entities/payment-method.entity.js';

/** Saved payment methods: the rows of payment_methods with a status (a charge attempt's own ones have none). */
@Injectable()
export class PaymentMethodsRepository extends OwnedRecords<PaymentMethod> {
  constructor(db: ModeDb) {
    super(db, PaymentMethod);
  }

  /** A saved method of the application, or null; `lock` `update` (detach) or `share` (naming it as a default). */
  findSaved(
    applicationId: string,
    id: string,
    manager?: EntityManager,
    lock?: 'update' | 'share',
  ): Promise<PaymentMethod | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    const qb = this.db
      .repository(PaymentMethod, manager)
      .createQueryBuilder('pm')
      .where('pm.application_id = :applicationId AND pm.id = :id AND pm.status IS NOT NULL', { applicationId, id });
    if (lock) qb.setLock(lock === 'update' ? 'pessimistic_write' : 'pessimistic_read');
    return qb.getOne();
  }

  /** The provider customer (`cust_…`, `cus_…`) holding this customer's cards at `provider`, if any. */
  async providerCustomerOf(applicationId: string, customerId: string, provider: string): Promise<string | null> {
    const row = await this.listQuery('pm', applicationId)
      .andWhere('pm.customer_id = :customerId AND pm.provider = :provider', { customerId, provider })
      .andWhere('pm.status IS NOT NULL AND pm.provider_customer IS NOT NULL')
      .orderBy('pm.created_at', 'DESC')
      .getOne();
    return row?.provider_customer ?? null;
  }

  /** A customer's saved methods, for the list engine. */
  savedOf(alias: string, applicationId: string, customerId: string): SelectQueryBuilder<PaymentMethod> {
    return this.listQuery(alias, applicationId)
      .andWhere(`${alias}.customer_id = :customerId`, { customerId })
      .andWhere(`${alias}.status IS NOT NULL`);
  }

  /** The one write of a saved method's status (payment-method.transitions.ts). */
  writeStatus(
    applicationId: string,
    id: string,
    status: SavedStatus,
    changes: Omit<Partial<PaymentMethod>, 'status'>,
    manager: EntityManager,
  ): Promise<void> {
    return this.write(applicationId, id, { ...changes, status }, manager);
  }
}
