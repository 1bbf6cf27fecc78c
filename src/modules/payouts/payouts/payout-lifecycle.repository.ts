import { currentTraceparent } from '../../../common/observability/trace-context.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import { isUuid } from '../../../common/ids.js';
import { BankAccount } from '../entities/bank-account.entity.js';
import { PayoutSchedule } from '../entities/payout-schedule.entity.js';
import { Payout } from '../entities/payout.entity.js';
import type { PayoutStatus } from './payout.transitions.js';

type PayoutFacts = Omit<QueryDeepPartialEntity<Payout>, 'status'> & { status?: never };

/** The payouts and payout_schedules tables; every read is scoped to the application. */
@Injectable()
export class PayoutLifecycleRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Inserts a payout; an automatic one whose account and period already has one is skipped (null). */
  async insert(payout: Omit<Payout, 'livemode'>, manager: EntityManager): Promise<Payout | null> {
    const result = await this.db
      .repository(Payout, manager)
      .createQueryBuilder()
      .insert()
      .values({ traceparent: currentTraceparent(), ...payout } as QueryDeepPartialEntity<Payout>)
      .orIgnore()
      .returning('id')
      .execute();
    if (result.raw.length === 0) return null;
    return this.lock(payout.application_id, payout.id, manager);
  }

  find(applicationId: string, id: string): Promise<Payout | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Payout).findOneBy({ application_id: applicationId, id });
  }

  byIds(applicationId: string, ids: string[]): Promise<Payout[]> {
    const wanted = ids.filter(isUuid);
    if (wanted.length === 0) return Promise.resolve([]);
    return this.db
      .repository(Payout)
      .createQueryBuilder('p')
      .where('p.application_id = :applicationId AND p.id IN (:...wanted)', { applicationId, wanted })
      .getMany();
  }

  lock(applicationId: string, id: string, manager: EntityManager): Promise<Payout | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db
      .repository(Payout, manager)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where('p.application_id = :applicationId AND p.id = :id', { applicationId, id })
      .getOne();
  }

  query(applicationId: string): SelectQueryBuilder<Payout> {
    return this.db.repository(Payout).createQueryBuilder('p').where('p.application_id = :applicationId', {
      applicationId,
    });
  }

  /** The one write of a payout's status (decided by payout.transitions.ts), with the facts that go with it. */
  async writeStatus(
    applicationId: string,
    id: string,
    status: PayoutStatus,
    facts: PayoutFacts,
    manager: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(Payout, manager)
      .update({ application_id: applicationId, id }, { ...facts, status } as QueryDeepPartialEntity<Payout>);
  }

  async update(applicationId: string, id: string, facts: PayoutFacts, manager: EntityManager): Promise<void> {
    await this.db
      .repository(Payout, manager)
      .update({ application_id: applicationId, id }, facts as QueryDeepPartialEntity<Payout>);
  }

  /** The payout `provider` knows by `reference`, of any application of the mode (provider webhooks). */
  byProviderReference(provider: string, reference: string): Promise<Payout | null> {
    return this.db.repository(Payout).findOne({ where: { provider, provider_reference: reference } });
  }

  /** Payouts the job reconciles with the provider (in transit, or pending without a provider answer), any application. */
  async unsettled(limit: number): Promise<Array<Pick<Payout, 'id' | 'application_id'>>> {
    return this.db
      .repository(Payout)
      .createQueryBuilder('p')
      .select(['p.id', 'p.application_id'])
      .where(`p.status IN ('pending', 'in_transit')`)
      .orderBy('p.updated_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** A bank account of the application, in any country (the job has no request country). */
  bankAccount(applicationId: string, id: string, manager?: EntityManager): Promise<BankAccount | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(BankAccount, manager).findOneBy({ application_id: applicationId, id });
  }

  schedule(applicationId: string, accountId: string, manager?: EntityManager): Promise<PayoutSchedule | null> {
    if (!isUuid(accountId)) return Promise.resolve(null);
    return this.db
      .repository(PayoutSchedule, manager)
      .findOneBy({ application_id: applicationId, account_id: accountId });
  }

  async upsertSchedule(row: Omit<PayoutSchedule, 'livemode'>, manager: EntityManager): Promise<PayoutSchedule> {
    await this.db
      .repository(PayoutSchedule, manager)
      .createQueryBuilder()
      .insert()
      .values(row as QueryDeepPartialEntity<PayoutSchedule>)
      .orUpdate(
        ['schedule_interval', 'weekly_anchor', 'destination', 'currency', 'minimum_amount', 'updated_at'],
        ['account_id'],
      )
      .execute();
    return (await this.schedule(row.application_id, row.account_id, manager))!;
  }

  /** Every automatic schedule of the mode (all applications), for the job. */
  automaticSchedules(): Promise<PayoutSchedule[]> {
    return this.db
      .repository(PayoutSchedule)
      .createQueryBuilder('s')
      .where(`s.schedule_interval <> 'manual'`)
      .orderBy('s.account_id')
      .getMany();
  }
}
