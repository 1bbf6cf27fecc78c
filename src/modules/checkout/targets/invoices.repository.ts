import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import { OwnedRecords } from '../../../common/database/owned-records.js';
import { Invoice, type InvoiceStatus } from '../entities/invoice.entity.js';

@Injectable()
export class InvoicesRepository extends OwnedRecords<Invoice> {
  constructor(db: ModeDb) {
    super(db, Invoice);
  }

  /** Many new invoices in one statement (a batch of period closes); answers them as stored. */
  async insertMany(records: Array<Partial<Invoice>>, manager: EntityManager): Promise<Invoice[]> {
    if (records.length === 0) return [];
    const repo = this.db.repository(Invoice, manager);
    const invoices = repo.create(records as Invoice[]);
    await repo.insert(invoices as QueryDeepPartialEntity<Invoice>[]);
    return invoices;
  }

  /** The one write of an invoice's status (invoice.transitions.ts), with the facts that change with it. */
  writeStatus(
    applicationId: string,
    id: string,
    status: InvoiceStatus,
    changes: Omit<Partial<Invoice>, 'status'>,
    manager: EntityManager,
  ): Promise<void> {
    return this.write(applicationId, id, { ...changes, status }, manager);
  }

  /** The test clocks (null: the service clock) with an off-session attempt scheduled, for the collection job. */
  async clocksWithAttempts(
    applicationIds?: readonly string[],
  ): Promise<Array<{ applicationId: string; clockId: string | null }>> {
    const qb = this.db
      .repository(Invoice)
      .createQueryBuilder('i')
      .select('i.application_id', 'application_id')
      .addSelect('i.test_clock_id', 'test_clock_id')
      .where(`i.next_payment_attempt IS NOT NULL AND i.status = 'open'`)
      .groupBy('i.application_id')
      .addGroupBy('i.test_clock_id');
    if (applicationIds) qb.andWhere('i.application_id IN (:...ids)', { ids: [...applicationIds] });
    const rows = await qb.getRawMany<{ application_id: string; test_clock_id: string | null }>();
    return rows.map((r) => ({ applicationId: r.application_id, clockId: r.test_clock_id }));
  }

  /**
   * Up to `limit` open invoices of one clock (`clockId` null: the service clock) whose next attempt is
   * due at `now`, earliest first, locked until `manager`'s transaction ends and skipped by other replicas.
   */
  claimDueAttempts(
    manager: EntityManager,
    applicationId: string,
    clockId: string | null,
    now: Date,
    limit: number,
  ): Promise<Invoice[]> {
    const qb = this.db
      .repository(Invoice, manager)
      .createQueryBuilder('i')
      .where(`i.application_id = :applicationId AND i.status = 'open'`, { applicationId })
      .andWhere('i.next_payment_attempt <= :now', { now })
      .orderBy('i.next_payment_attempt')
      .addOrderBy('i.id')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked');
    if (clockId === null) qb.andWhere('i.test_clock_id IS NULL');
    else qb.andWhere('i.test_clock_id = :clockId', { clockId });
    return qb.getMany();
  }
}
