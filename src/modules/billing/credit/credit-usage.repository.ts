import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ModeDb } from '../../../common/database/mode-db.js';
import type { RatablePrice } from '../pricing/rate-price.js';

/** The subscription item that rates a customer's events of one meter, with the customer's time. */
export interface MeteredItem extends RatablePrice {
  subscription_id: string;
  item_id: string;
  price_id: string;
  currency: string;
  period_start: Date;
  /** The customer's now: its test clock's frozen time, else the service clock. */
  now: Date;
}

/**
 * The reservation side of prepaid credit (docs/BILLING.md, "Prepaid credit"): per customer and
 * currency the rated usage of credit-enforced meters that no invoice has billed yet
 * (`credit_usage.unbilled`), and per subscription item and period the quantity it was rated from
 * (`credit_usage_buckets`). Every statement runs in the ingesting (or invoicing) transaction; an
 * ingesting transaction takes the item's bucket, then the usage row, and holds both to its commit.
 */
@Injectable()
export class CreditUsageRepository {
  constructor(private readonly db: ModeDb) {}

  /** The customer's usage row in `currency` exists from its first grant on (ingestion only updates it). */
  async ensure(applicationId: string, customerId: string, currency: string, now: Date, manager: EntityManager) {
    await manager.query(
      `INSERT INTO ${this.db.table('credit_usage')} (application_id, customer_id, currency, unbilled, updated_at)
       VALUES ($1, $2, $3, 0, $4) ON CONFLICT DO NOTHING`,
      [applicationId, customerId, currency, now],
    );
  }

  /**
   * The item of the customer's oldest live subscription (active, trialing or past_due) whose price is
   * metered on `meterId`, with the item's bucket for its current period: created empty on first use
   * and locked until the transaction ends, so concurrent events of one item are rated one after
   * another, each on the quantity before it. One statement; null when no subscription rates the meter.
   */
  async lockItemBucket(
    applicationId: string,
    customerId: string,
    meterId: string,
    serviceNow: Date,
    manager: EntityManager,
  ): Promise<{ item: MeteredItem; bucket: { quantity: string; amount: number } } | null> {
    const rows: Array<MeteredItem & { bucket_quantity: string; bucket_amount: string }> = await manager.query(
      `WITH item AS (
         SELECT s.id AS subscription_id, si.id AS item_id, p.id AS price_id, p.currency,
                s.current_period_start AS period_start, coalesce(tc.frozen_time, $4) AS now,
                p.billing_scheme, p.unit_amount::float8 AS unit_amount, p.tiers, p.tiers_mode, p.transform_quantity
           FROM ${this.db.table('subscriptions')} s
           JOIN ${this.db.table('subscription_items')} si ON si.subscription_id = s.id
           JOIN ${this.db.table('prices')} p ON p.id = si.price_id
           LEFT JOIN ${this.db.table('test_clocks')} tc ON tc.id = s.test_clock_id
          WHERE s.application_id = $1 AND s.customer_id = $2 AND p.meter_id = $3
            AND s.status IN ('active', 'trialing', 'past_due')
          ORDER BY s.created_at, s.id LIMIT 1
       ), bucket AS (
         INSERT INTO ${this.db.table('credit_usage_buckets')} AS b
           (application_id, customer_id, subscription_id, subscription_item_id, period_start, currency, quantity, amount)
         SELECT $1, $2, subscription_id, item_id, period_start, currency, 0, 0 FROM item
         ON CONFLICT (subscription_item_id, period_start) DO UPDATE SET quantity = b.quantity
         RETURNING b.subscription_item_id, b.quantity::text AS quantity, b.amount::text AS amount
       )
       SELECT item.*, bucket.quantity AS bucket_quantity, bucket.amount AS bucket_amount
         FROM item JOIN bucket ON bucket.subscription_item_id = item.item_id`,
      [applicationId, customerId, meterId, serviceNow],
    );
    if (rows.length === 0) return null;
    const { bucket_quantity, bucket_amount, ...item } = rows[0];
    return { item, bucket: { quantity: bucket_quantity, amount: Number(bucket_amount) } };
  }

  /**
   * Locks the customer's usage row in `currency` until the transaction ends and answers its unbilled
   * amount (null: no row, the customer never had credit in the currency). Taken after the item's
   * bucket, in the order invoicing's release takes them, so the two never deadlock; read before the
   * credit (see {@link usableCredit}).
   */
  async lockUnbilled(
    applicationId: string,
    customerId: string,
    currency: string,
    manager: EntityManager,
  ): Promise<number | null> {
    const rows: Array<{ unbilled: string }> = await manager.query(
      `SELECT unbilled::text AS unbilled FROM ${this.db.table('credit_usage')}
        WHERE application_id = $1 AND customer_id = $2 AND currency = $3 FOR UPDATE`,
      [applicationId, customerId, currency],
    );
    return rows.length ? Number(rows[0].unbilled) : null;
  }

  /**
   * The remaining credit of the customer's grants usable for the item's price at `at` (active,
   * effective, not expired, applicability empty or naming the price). A statement of its own after
   * {@link lockUnbilled}: its snapshot is taken once the usage row is held, so an invoice that drew
   * credit and released usage while this transaction waited is seen whole, never half.
   */
  async usableCredit(
    applicationId: string,
    customerId: string,
    item: MeteredItem,
    at: Date,
    manager: EntityManager,
  ): Promise<number> {
    const rows: Array<{ total: string }> = await manager.query(
      `SELECT coalesce(sum(g.remaining), 0)::text AS total FROM ${this.db.table('credit_grants')} g
        WHERE g.application_id = $1 AND g.customer_id = $2 AND g.currency = $3 AND g.status = 'active'
          AND g.effective_at <= $5 AND (g.expires_at IS NULL OR g.expires_at > $5)
          AND (g.price_ids = '[]'::jsonb OR g.price_ids @> jsonb_build_array($4::text))`,
      [applicationId, customerId, item.currency, item.price_id, at],
    );
    return Number(rows[0].total);
  }

  /**
   * Writes what admitted events moved, in one statement: the item's bucket (its period quantity and
   * rating) and, when the customer has a usage row, its unbilled usage. Both rows are locked by this
   * transaction ({@link lockItemBucket}, {@link lockUnbilled}), so the values the caller computed
   * from them are still current.
   */
  async record(
    applicationId: string,
    customerId: string,
    item: MeteredItem,
    bucket: { quantity: string; amount: number },
    unbilled: number | null,
    now: Date,
    manager: EntityManager,
  ): Promise<void> {
    await manager.query(
      `WITH usage AS (
         UPDATE ${this.db.table('credit_usage')} SET unbilled = $4::bigint, updated_at = $5
          WHERE application_id = $1 AND customer_id = $2 AND currency = $3 AND $4::bigint IS NOT NULL)
       UPDATE ${this.db.table('credit_usage_buckets')} SET quantity = $8::numeric, amount = $9
        WHERE subscription_item_id = $6 AND period_start = $7`,
      [
        applicationId,
        customerId,
        item.currency,
        unbilled,
        now,
        item.item_id,
        item.period_start,
        bucket.quantity,
        bucket.amount,
      ],
    );
  }

  /**
   * An invoice bills the usage of `subscriptionId`'s period starting `periodStart`: its buckets go
   * and their rated amounts leave the customer's unbilled usage (never below zero).
   */
  async releasePeriod(
    applicationId: string,
    customerId: string,
    currency: string,
    subscriptionId: string,
    periodStart: Date,
    now: Date,
    manager: EntityManager,
  ): Promise<number> {
    const rows: Array<{ released: string }> = await manager.query(
      `WITH gone AS (
         DELETE FROM ${this.db.table('credit_usage_buckets')}
          WHERE application_id = $1 AND subscription_id = $4 AND period_start = $5 AND currency = $3
         RETURNING amount),
       released AS (SELECT coalesce(sum(amount), 0) AS total FROM gone),
       updated AS (
         UPDATE ${this.db.table('credit_usage')} u SET unbilled = greatest(u.unbilled - (SELECT total FROM released), 0), updated_at = $6
          WHERE u.application_id = $1 AND u.customer_id = $2 AND u.currency = $3
         RETURNING 1)
       SELECT (SELECT total FROM released)::text AS released, (SELECT count(*) FROM updated) AS touched`,
      [applicationId, customerId, currency, subscriptionId, periodStart, now],
    );
    return Number(rows[0].released);
  }
}
