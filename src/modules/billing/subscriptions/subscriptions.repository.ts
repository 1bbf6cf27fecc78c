import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import { isUuid } from '../../../common/ids.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { PendingItem } from './entities/pending-item.entity.js';
import { SubscriptionItem } from './entities/subscription-item.entity.js';
import { Subscription } from './entities/subscription.entity.js';
import type { SubscriptionStatus } from './subscription.transitions.js';

type Facts = Omit<Partial<Subscription>, 'status'> & { status?: never };

/** The only door to subscriptions, their items and their pending items. */
@Injectable()
export class SubscriptionsRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  query(applicationId: string): SelectQueryBuilder<Subscription> {
    return this.db
      .repository(Subscription)
      .createQueryBuilder('s')
      .where('s.application_id = :applicationId', { applicationId });
  }

  /** Subscriptions with an item of `priceId` (the list's `price` parameter). */
  withPrice(qb: SelectQueryBuilder<Subscription>, priceId: string): SelectQueryBuilder<Subscription> {
    return qb.andWhere(
      `EXISTS (SELECT 1 FROM ${this.db.table('subscription_items')} si
                WHERE si.subscription_id = s.id AND si.application_id = s.application_id AND si.price_id = :priceId)`,
      { priceId },
    );
  }

  find(applicationId: string, id: string, manager?: EntityManager, lock = false): Promise<Subscription | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Subscription, manager).findOne({
      where: { application_id: applicationId, id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async insert(subscription: Subscription, items: SubscriptionItem[], manager: EntityManager): Promise<void> {
    await this.db.repository(Subscription, manager).insert(subscription as QueryDeepPartialEntity<Subscription>);
    if (items.length > 0)
      await this.db.repository(SubscriptionItem, manager).insert(items as QueryDeepPartialEntity<SubscriptionItem>[]);
  }

  /** Writes facts other than the status: the type refuses `status`. */
  async update(applicationId: string, id: string, changes: Facts, manager: EntityManager): Promise<void> {
    await this.db
      .repository(Subscription, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<Subscription>);
  }

  /** The one write of a subscription's status, from subscription.transitions.ts. */
  async writeStatus(
    applicationId: string,
    id: string,
    status: SubscriptionStatus,
    changes: Omit<Partial<Subscription>, 'status'>,
    manager: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(Subscription, manager)
      .update({ application_id: applicationId, id }, { ...changes, status } as QueryDeepPartialEntity<Subscription>);
  }

  /** Items of subscriptions, oldest first, grouped by subscription id. */
  async itemsOf(
    applicationId: string,
    subscriptionIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, SubscriptionItem[]>> {
    const out = new Map<string, SubscriptionItem[]>(subscriptionIds.map((id) => [id, []]));
    if (subscriptionIds.length === 0) return out;
    const rows = await this.db
      .repository(SubscriptionItem, manager)
      .createQueryBuilder('si')
      .where('si.application_id = :applicationId AND si.subscription_id IN (:...ids)', {
        applicationId,
        ids: subscriptionIds,
      })
      .orderBy('si.created_at')
      .addOrderBy('si.id')
      .getMany();
    for (const row of rows) out.get(row.subscription_id)!.push(row);
    return out;
  }

  async insertItems(items: SubscriptionItem[], manager: EntityManager): Promise<void> {
    if (items.length > 0)
      await this.db.repository(SubscriptionItem, manager).insert(items as QueryDeepPartialEntity<SubscriptionItem>[]);
  }

  async updateItem(
    applicationId: string,
    id: string,
    changes: Partial<Pick<SubscriptionItem, 'price_id' | 'quantity' | 'metadata'>>,
    manager: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(SubscriptionItem, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<SubscriptionItem>);
  }

  async deleteItems(applicationId: string, ids: string[], manager: EntityManager): Promise<void> {
    for (const id of ids)
      await this.db.repository(SubscriptionItem, manager).delete({ application_id: applicationId, id });
  }

  async insertPending(items: PendingItem[], manager: EntityManager): Promise<void> {
    if (items.length > 0)
      await this.db.repository(PendingItem, manager).insert(items as QueryDeepPartialEntity<PendingItem>[]);
  }

  pendingQuery(applicationId: string, subscriptionId: string): SelectQueryBuilder<PendingItem> {
    return this.db
      .repository(PendingItem)
      .createQueryBuilder('p')
      .where('p.application_id = :applicationId AND p.subscription_id = :subscriptionId', {
        applicationId,
        subscriptionId,
      });
  }

  /**
   * Subscriptions on the service clock with a step due at `now`, locked until `manager`'s
   * transaction ends and skipped by other replicas.
   */
  claimDue(manager: EntityManager, now: Date, limit: number, scope: JobScope): Promise<Subscription[]> {
    const qb = this.db
      .repository(Subscription, manager)
      .createQueryBuilder('s')
      .where('s.test_clock_id IS NULL AND s.next_event_at <= :now', { now })
      .orderBy('s.next_event_at')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked');
    if (scope.applicationIds) qb.andWhere('s.application_id IN (:...ids)', { ids: [...scope.applicationIds] });
    return qb.getMany();
  }

  /** The subscription of test clock `clockId` whose step is due first, up to `until`, locked; or null. */
  nextDueOnClock(
    manager: EntityManager,
    applicationId: string,
    clockId: string,
    until: Date,
  ): Promise<Subscription | null> {
    return this.db
      .repository(Subscription, manager)
      .createQueryBuilder('s')
      .where('s.application_id = :applicationId AND s.test_clock_id = :clockId', { applicationId, clockId })
      .andWhere('s.next_event_at <= :until', { until })
      .orderBy('s.next_event_at')
      .addOrderBy('s.id')
      .limit(1)
      .setLock('pessimistic_write')
      .getOne();
  }

  /** The subscriptions of test clock `clockId` that are not final, locked. */
  openOnClock(manager: EntityManager, applicationId: string, clockId: string): Promise<Subscription[]> {
    return this.db
      .repository(Subscription, manager)
      .createQueryBuilder('s')
      .where('s.application_id = :applicationId AND s.test_clock_id = :clockId', { applicationId, clockId })
      .andWhere(`s.status NOT IN ('canceled', 'incomplete_expired')`)
      .orderBy('s.id')
      .setLock('pessimistic_write')
      .getMany();
  }
}
