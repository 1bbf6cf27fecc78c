import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import { isUuid } from '../../../common/ids.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { Coupon } from '../catalog/coupons/entities/coupon.entity.js';
import { PromotionCode } from '../catalog/promotion-codes/entities/promotion-code.entity.js';
import { Price } from '../catalog/prices/entities/price.entity.js';
import { TaxRate } from '../catalog/tax-rates/entities/tax-rate.entity.js';
import { PendingItem } from '../subscriptions/entities/pending-item.entity.js';
import { SubscriptionItem } from '../subscriptions/entities/subscription-item.entity.js';
import { Subscription } from '../subscriptions/entities/subscription.entity.js';
import { InvoiceLine } from './entities/invoice-line.entity.js';
import { UpcomingNotice } from './entities/upcoming-notice.entity.js';
import { SubscriptionInvoice } from './entities/subscription-invoice.entity.js';

export interface ItemWithPrice {
  item: SubscriptionItem;
  price: Price;
}

/**
 * Billing's invoicing tables (invoice lines, the schedule of subscription invoices) and what a
 * period close reads of billing's own catalog and subscriptions, in the current mode.
 */
@Injectable()
export class InvoicingRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  subscription(applicationId: string, id: string): Promise<Subscription | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Subscription).findOneBy({ application_id: applicationId, id });
  }

  /**
   * Up to `limit` subscriptions (still renewing) within `beforeMs` of their period end by their
   * customer's clock, with no upcoming notice for that period yet, locked (SKIP LOCKED).
   */
  claimUpcoming(
    manager: EntityManager,
    now: Date,
    beforeMs: number,
    limit: number,
    scope: JobScope,
  ): Promise<Subscription[]> {
    const qb = this.db
      .repository(Subscription, manager)
      .createQueryBuilder('s')
      .leftJoin(
        `(SELECT id, frozen_time FROM ${this.db.table('test_clocks')})`,
        'tc',
        'tc.id = s.test_clock_id AND s.test_clock_id IS NOT NULL',
      )
      .where("s.status IN ('active', 'past_due', 'trialing', 'unpaid') AND NOT s.cancel_at_period_end")
      .andWhere('s.current_period_end <= COALESCE(tc.frozen_time, :now) + make_interval(secs => :secs)', {
        now,
        secs: beforeMs / 1000,
      })
      .andWhere('s.current_period_end > COALESCE(tc.frozen_time, :now)')
      .andWhere(
        `NOT EXISTS (SELECT 1 FROM ${this.db.table('invoice_upcoming_notices')} n
                      WHERE n.subscription_id = s.id AND n.period_end = s.current_period_end)`,
      )
      .orderBy('s.current_period_end')
      .addOrderBy('s.id')
      .limit(limit)
      .setLock('pessimistic_write', undefined, ['s'])
      .setOnLocked('skip_locked');
    if (scope.applicationIds) qb.andWhere('s.application_id IN (:...ids)', { ids: [...scope.applicationIds] });
    return qb.getMany();
  }

  async insertNotice(sub: Subscription, at: Date, manager: EntityManager): Promise<void> {
    await this.db
      .repository(UpcomingNotice, manager)
      .createQueryBuilder()
      .insert()
      .values({
        subscription_id: sub.id,
        period_end: sub.current_period_end,
        application_id: sub.application_id,
        created_at: at,
      } as QueryDeepPartialEntity<UpcomingNotice>)
      .orIgnore()
      .execute();
  }

  /** Records the period's invoice; false when the period already has one (a replayed close). */
  async insertSchedule(row: SubscriptionInvoice, manager: EntityManager): Promise<boolean> {
    const inserted = await this.db
      .repository(SubscriptionInvoice, manager)
      .createQueryBuilder()
      .insert()
      .values(row as QueryDeepPartialEntity<SubscriptionInvoice>)
      .orIgnore()
      .returning(['invoice_id'])
      .execute();
    return (inserted.raw as unknown[]).length > 0;
  }

  /** Records many periods' invoices in one statement; answers the invoice ids recorded (not those of replayed closes). */
  async insertSchedules(rows: SubscriptionInvoice[], manager: EntityManager): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const inserted = await this.db
      .repository(SubscriptionInvoice, manager)
      .createQueryBuilder()
      .insert()
      .values(rows as QueryDeepPartialEntity<SubscriptionInvoice>[])
      .orIgnore()
      .returning(['invoice_id'])
      .execute();
    return new Set((inserted.raw as Array<{ invoice_id: string }>).map((r) => r.invoice_id));
  }

  /** {@link countSchedules} of many subscriptions, by subscription id (absent: none). */
  async countSchedulesOf(subs: Array<Pick<Subscription, 'application_id' | 'id'>>, manager: EntityManager) {
    const rows: Array<{ subscription_id: string; count: number }> = await manager.query(
      `SELECT subscription_id, count(*)::int AS count FROM ${this.db.table('subscription_invoices')}
        WHERE application_id = ANY($1::uuid[]) AND subscription_id = ANY($2::uuid[]) GROUP BY subscription_id`,
      [[...new Set(subs.map((s) => s.application_id))], subs.map((s) => s.id)],
    );
    return new Map(rows.map((r) => [r.subscription_id, r.count]));
  }

  /** How many invoices billing made for the subscription before (a `once` coupon applies to the first only). */
  countSchedules(applicationId: string, subscriptionId: string, manager?: EntityManager): Promise<number> {
    return this.db
      .repository(SubscriptionInvoice, manager)
      .countBy({ application_id: applicationId, subscription_id: subscriptionId });
  }

  findSchedule(applicationId: string, invoiceId: string, manager?: EntityManager): Promise<SubscriptionInvoice | null> {
    if (!isUuid(invoiceId)) return Promise.resolve(null);
    return this.db
      .repository(SubscriptionInvoice, manager)
      .findOneBy({ application_id: applicationId, invoice_id: invoiceId });
  }

  /**
   * Up to `limit` invoices whose grace window ended by their customer's clock (the test clock's
   * frozen_time, else `now`), oldest first, locked (FOR UPDATE SKIP LOCKED: replicas never share one).
   */
  claimDue(manager: EntityManager, now: Date, limit: number, scope: JobScope): Promise<SubscriptionInvoice[]> {
    const qb = this.db
      .repository(SubscriptionInvoice, manager)
      .createQueryBuilder('si')
      .leftJoin(
        `(SELECT id, frozen_time FROM ${this.db.table('test_clocks')})`,
        'tc',
        'tc.id = si.test_clock_id AND si.test_clock_id IS NOT NULL',
      )
      .where('si.finalized_at IS NULL')
      .andWhere('si.finalize_at <= COALESCE(tc.frozen_time, :now)', { now })
      .orderBy('si.finalize_at')
      .addOrderBy('si.invoice_id')
      .limit(limit)
      .setLock('pessimistic_write', undefined, ['si'])
      .setOnLocked('skip_locked');
    if (scope.applicationIds) qb.andWhere('si.application_id IN (:...ids)', { ids: [...scope.applicationIds] });
    return qb.getMany();
  }

  async markFinalized(applicationId: string, invoiceId: string, at: Date, manager: EntityManager): Promise<void> {
    await this.db
      .repository(SubscriptionInvoice, manager)
      .update({ application_id: applicationId, invoice_id: invoiceId }, { finalized_at: at });
  }

  /** The subscription's items with their prices, oldest first. */
  async itemsWithPrices(
    applicationId: string,
    subscriptionId: string,
    manager?: EntityManager,
  ): Promise<ItemWithPrice[]> {
    return (await this.itemsWithPricesOf(applicationId, [subscriptionId], manager)).get(subscriptionId)!;
  }

  /** {@link itemsWithPrices} of many subscriptions of one application, by subscription id. */
  async itemsWithPricesOf(
    applicationId: string,
    subscriptionIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, ItemWithPrice[]>> {
    const items = await this.db
      .repository(SubscriptionItem, manager)
      .createQueryBuilder('i')
      .where('i.application_id = :applicationId AND i.subscription_id IN (:...ids)', {
        applicationId,
        ids: subscriptionIds,
      })
      .orderBy('i.created_at')
      .addOrderBy('i.id')
      .getMany();
    const prices = await this.pricesById(
      applicationId,
      items.map((i) => i.price_id),
      manager,
    );
    const bySubscription = new Map<string, ItemWithPrice[]>(subscriptionIds.map((id) => [id, []]));
    for (const item of items)
      bySubscription.get(item.subscription_id)!.push({ item, price: prices.get(item.price_id)! });
    return bySubscription;
  }

  async pricesById(applicationId: string, ids: string[], manager?: EntityManager): Promise<Map<string, Price>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .repository(Price, manager)
      .createQueryBuilder('p')
      .where('p.application_id = :applicationId AND p.id IN (:...ids)', { applicationId, ids: [...new Set(ids)] })
      .getMany();
    return new Map(rows.map((p) => [p.id, p]));
  }

  /** The subscription's pending items no invoice bills yet, locked unless only previewed. */
  async unbilledPendingItems(
    applicationId: string,
    subscriptionId: string,
    manager?: EntityManager,
    lock = true,
  ): Promise<PendingItem[]> {
    return (await this.unbilledPendingItemsOf(applicationId, [subscriptionId], manager, lock)).get(subscriptionId)!;
  }

  /** {@link unbilledPendingItems} of many subscriptions of one application (locked unless `lock` is false), by subscription id. */
  async unbilledPendingItemsOf(
    applicationId: string,
    subscriptionIds: string[],
    manager?: EntityManager,
    lock = true,
  ): Promise<Map<string, PendingItem[]>> {
    const qb = this.db
      .repository(PendingItem, manager)
      .createQueryBuilder('pi')
      .where('pi.application_id = :applicationId AND pi.subscription_id IN (:...ids)', {
        applicationId,
        ids: subscriptionIds,
      })
      .andWhere('pi.invoice_id IS NULL')
      .orderBy('pi.created_at')
      .addOrderBy('pi.id');
    const rows = await (lock ? qb.setLock('pessimistic_write') : qb).getMany();
    const bySubscription = new Map<string, PendingItem[]>(subscriptionIds.map((id) => [id, []]));
    for (const row of rows) bySubscription.get(row.subscription_id)!.push(row);
    return bySubscription;
  }

  async markPendingBilled(
    applicationId: string,
    ids: string[],
    invoiceId: string,
    manager: EntityManager,
  ): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .repository(PendingItem, manager)
      .createQueryBuilder()
      .update()
      .set({ invoice_id: invoiceId })
      .where('application_id = :applicationId AND id IN (:...ids)', { applicationId, ids })
      .execute();
  }

  /** The coupon, deleted or not (a discount already given keeps applying, as Stripe's). */
  coupon(applicationId: string, id: string, manager?: EntityManager): Promise<Coupon | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Coupon, manager).findOneBy({ application_id: applicationId, id });
  }

  async couponOfPromotionCode(applicationId: string, id: string, manager?: EntityManager): Promise<string | null> {
    if (!isUuid(id)) return null;
    const code = await this.db.repository(PromotionCode, manager).findOneBy({ application_id: applicationId, id });
    return code?.coupon_id ?? null;
  }

  /** The tax rates in the order asked, active or not (a subscription keeps the rates it was made with). */
  async taxRates(applicationId: string, ids: string[], manager?: EntityManager): Promise<TaxRate[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const rows = await this.db
      .repository(TaxRate, manager)
      .createQueryBuilder('t')
      .where('t.application_id = :applicationId AND t.id IN (:...ids)', { applicationId, ids: valid })
      .getMany();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return valid.map((id) => byId.get(id)).filter((r): r is TaxRate => r !== undefined);
  }

  async insertLines(lines: InvoiceLine[], manager: EntityManager): Promise<void> {
    if (lines.length === 0) return;
    await this.db.repository(InvoiceLine, manager).insert(lines as QueryDeepPartialEntity<InvoiceLine>[]);
  }

  async updateLine(line: InvoiceLine, manager: EntityManager): Promise<void> {
    const { id, application_id, ...rest } = line;
    const changes: Record<string, unknown> = { ...rest };
    delete changes.livemode;
    await this.db
      .repository(InvoiceLine, manager)
      .update({ application_id, id }, changes as QueryDeepPartialEntity<InvoiceLine>);
  }

  linesOf(applicationId: string, invoiceId: string, manager?: EntityManager): Promise<InvoiceLine[]> {
    return this.db
      .repository(InvoiceLine, manager)
      .find({ where: { application_id: applicationId, invoice_id: invoiceId }, order: { id: 'ASC' } });
  }

  findLine(applicationId: string, invoiceId: string, id: string): Promise<InvoiceLine | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(InvoiceLine).findOneBy({ application_id: applicationId, invoice_id: invoiceId, id });
  }

  lineById(applicationId: string, id: string, manager?: EntityManager): Promise<InvoiceLine | null> {
    return this.db.repository(InvoiceLine, manager).findOneBy({ application_id: applicationId, id });
  }

  /**
   * The metered lines of finalized invoices of the subscription for `meterId` whose period starts
   * before `before` and ends after `since`: the periods late events may still belong to.
   */
  finalizedMeteredLines(
    input: { applicationId: string; subscriptionId: string; meterId: string; before: Date; since: Date },
    manager: EntityManager,
  ): Promise<InvoiceLine[]> {
    return this.db
      .repository(InvoiceLine, manager)
      .createQueryBuilder('l')
      .innerJoin(SubscriptionInvoice, 'si', 'si.invoice_id = l.invoice_id AND si.finalized_at IS NOT NULL')
      .where('l.application_id = :app AND l.subscription_id = :sub AND l.meter_id = :meter', {
        app: input.applicationId,
        sub: input.subscriptionId,
        meter: input.meterId,
      })
      .andWhere("l.type = 'metered' AND l.period_start < :before AND l.period_end > :since", {
        before: input.before,
        since: input.since,
      })
      .orderBy('l.period_start')
      .getMany();
  }

  /** The `metered_earlier` lines that added late usage to `lineId`, oldest first. */
  laterAdditions(applicationId: string, lineId: string, manager?: EntityManager): Promise<InvoiceLine[]> {
    return this.db.repository(InvoiceLine, manager).find({
      where: { application_id: applicationId, earlier_line_id: lineId, type: 'metered_earlier' },
      order: { created_at: 'ASC', id: 'ASC' },
    });
  }

  linesQuery(applicationId: string, invoiceId: string): SelectQueryBuilder<InvoiceLine> {
    return this.db
      .repository(InvoiceLine)
      .createQueryBuilder('l')
      .where('l.application_id = :applicationId AND l.invoice_id = :invoiceId', { applicationId, invoiceId });
  }

  /** The invoice `invoiceId` of any application (an operator's command names the invoice only). */
  scheduleOfInvoice(invoiceId: string): Promise<Array<{ application_id: string; invoice_id: string }>> {
    if (!isUuid(invoiceId)) return Promise.resolve([]);
    return this.db
      .repository(SubscriptionInvoice)
      .find({ where: { invoice_id: invoiceId }, select: { application_id: true, invoice_id: true } });
  }

  /** Lines of the invoices made in [from, to) (billing:verify over a period). */
  invoiceIdsBetween(from: Date, to: Date): Promise<Array<{ application_id: string; invoice_id: string }>> {
    return this.db
      .repository(SubscriptionInvoice)
      .createQueryBuilder('si')
      .select(['si.application_id AS application_id', 'si.invoice_id AS invoice_id'])
      .where('si.period_start >= :from AND si.period_start < :to', { from, to })
      .orderBy('si.invoice_id')
      .getRawMany();
  }
}
