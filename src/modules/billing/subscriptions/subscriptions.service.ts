import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal, Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { IdempotencyScope } from '../../../common/idempotency/idempotency-scope.js';
import { newId } from '../../../common/ids.js';
import { ListFilters, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../../common/list/index.js';
import { CustomerHooks, CustomersService } from '../../customers/index.js';
import { CouponsService } from '../catalog/coupons/coupons.service.js';
import { PromotionCodesService } from '../catalog/promotion-codes/promotion-codes.service.js';
import { TaxRatesService } from '../catalog/tax-rates/tax-rates.service.js';
import { BillingClock } from '../test-clocks/billing-clock.js';
import { TestClockErrors } from '../test-clocks/test-clocks.errors.js';
import { TestClocksService } from '../test-clocks/test-clocks.service.js';
import type { CreateSubscriptionDto } from './dto/subscription.dto.js';
import type { SubscriptionItem } from './entities/subscription-item.entity.js';
import type { Subscription } from './entities/subscription.entity.js';
import type { Coupon } from '../catalog/coupons/entities/coupon.entity.js';
import { anchorFits, firstPeriod, trialEndAfterDays } from './subscription-periods.js';
import type { CreatedSubscription } from './created-subscription.js';
import { SubscriptionHooks } from './subscription-hooks.js';

export type { CreatedSubscription } from './created-subscription.js';
import { SubscriptionPrices } from './subscription-prices.js';
import { assertNoDuplicatePrices, checkItemSet, itemQuantity } from './subscription-rules.js';
import { nextEventAt } from './subscription-schedule.js';
import { SUBSCRIPTION_STATUSES, initialStatus } from './subscription.transitions.js';
import { SubscriptionErrors } from './subscriptions.errors.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import {
  toPendingItemResponse,
  toSubscriptionResponse,
  type PendingItemResponse,
  type SubscriptionResponse,
} from './subscriptions.responses.js';

export const SUBSCRIPTION_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    customer_id: ListFilters.uuid,
    status: ListFilters.oneOf(SUBSCRIPTION_STATUSES),
    collection_method: ListFilters.oneOf(['charge_automatically', 'send_invoice']),
    current_period_end: ListFilters.timestamp,
    created_at: ListFilters.timestamp,
  },
  params: {
    customer: { type: 'uuid' },
    status: ListFilters.oneOf(SUBSCRIPTION_STATUSES),
    price: { type: 'uuid' },
  },
  sortable: ['created_at', 'current_period_end'],
  search: ['id'],
};

export const PENDING_ITEM_LIST: ListSpec = {
  filters: { id: ListFilters.uuid, created_at: ListFilters.timestamp },
  sortable: ['created_at'],
  search: ['id'],
};

/** Creating, reading and listing subscriptions; changes are in SubscriptionChangesService. */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly customers: CustomersService,
    private readonly testClocks: TestClocksService,
    private readonly billingClock: BillingClock,
    private readonly prices: SubscriptionPrices,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
    private readonly idempotency: IdempotencyScope,
    private readonly coupons: CouponsService,
    private readonly promotionCodes: PromotionCodesService,
    private readonly taxRates: TaxRatesService,
    private readonly customerHooks: CustomerHooks,
    private readonly hooks: SubscriptionHooks,
  ) {}

  /**
   * The subscription is committed with the request's idempotency recovery point: a resend of a
   * keyed request that lost its answer gets this subscription, never a second one.
   */
  async create(principal: Principal, dto: CreateSubscriptionDto): Promise<SubscriptionResponse> {
    const resumed = this.idempotency.resumes('subscription');
    if (resumed) return this.retrieve(principal, resumed);
    if (dto.trial_period_days !== undefined && dto.trial_end !== undefined)
      throw new AppError(SubscriptionErrors.E7719, 'Send trial_period_days or trial_end, not both.');
    if (dto.coupon !== undefined && dto.promotion_code !== undefined)
      throw new AppError(SubscriptionErrors.E7720, 'Send coupon or promotion_code, not both.');
    const collectionMethod = dto.collection_method ?? 'charge_automatically';
    if (dto.days_until_due !== undefined && collectionMethod !== 'send_invoice')
      throw new AppError(SubscriptionErrors.E7718, 'days_until_due is for collection_method send_invoice only.');
    assertNoDuplicatePrices(dto.items.map((i) => i.price_id));
    // Read before the transaction opens (the embedded database serves one connection at a time).
    const promotionCode =
      dto.promotion_code === undefined ? null : await this.promotionCode(principal, dto.promotion_code);
    return this.subscriptions.transaction(async (manager) => {
      const created = await this.createIn(principal, dto, promotionCode, manager);
      // Billing's collection makes the first invoice here (none for a trial).
      await this.hooks.created.emit({ scope: principal, created, manager });
      await this.idempotency.checkpoint(manager, 'subscription', created.subscription.id);
      return created.subscription.latest_invoice
        ? this.load(principal.application.id, created.subscription.id, manager)
        : created.stored;
    });
  }

  /**
   * A new subscription in `manager`'s transaction (POST /subscriptions, and the subscription
   * checkout's): `promotionCode` is the code (not its id) to redeem, counted in this transaction.
   * Answers what the first invoice is priced from: the prices, licensed quantities, the redeemed
   * coupon and the default tax rates.
   */
  async createIn(
    principal: Scope,
    dto: CreateSubscriptionDto,
    promotionCode: string | null,
    manager: EntityManager,
  ): Promise<CreatedSubscription> {
    const applicationId = principal.application.id;
    const collectionMethod = dto.collection_method ?? 'charge_automatically';
    const customer = (await this.customers.byIds(applicationId, [dto.customer_id], manager)).get(dto.customer_id);
    if (!customer) throw new AppError(SubscriptionErrors.E7723, `No customer with id "${dto.customer_id}".`);
    if (customer.test_clock_id) await this.assertClockReady(applicationId, customer.test_clock_id, manager, true);
    if (dto.default_payment_method !== undefined) {
      // The module owning payment methods refuses one not attached to this customer, or expired, and
      // holds it (FOR SHARE) until this transaction ends, so a detach cannot slip in between.
      await this.customerHooks.defaultPaymentMethod.emit({
        applicationId,
        customerId: customer.id,
        paymentMethodId: dto.default_payment_method,
        manager,
      });
    }
    const now = await this.billingClock.nowFor(customer, manager);
    const prices = await this.prices.load(
      principal,
      dto.items.map((i) => i.price_id),
      manager,
    );
    const requested = dto.items.map((i) => ({ price: prices.get(i.price_id)!, quantity: i.quantity }));
    const { currency, recurrence } = checkItemSet(
      requested.map((r) => r.price),
      customer.currency,
    );
    const quantities = requested.map((r) => itemQuantity(r.price, r.quantity));
    const taxRates = dto.default_tax_rates ?? [];
    const usableRates = taxRates.length > 0 ? await this.taxRates.findUsable(principal, taxRates, manager) : [];
    // The discount is redeemed now, counted in this transaction (never past max_redemptions).
    const redemption = {
      customerId: customer.id,
      amount: this.prices.periodAmount(requested.map((r, n) => ({ price: r.price, quantity: quantities[n] }))),
      currency,
    };
    let coupon: Coupon | null = null;
    if (dto.coupon !== undefined) coupon = await this.coupons.redeem(manager, principal, dto.coupon, redemption);
    let promotionCodeId = dto.promotion_code ?? null;
    if (promotionCode) {
      const redeemed = await this.promotionCodes.redeem(manager, principal, promotionCode, redemption);
      coupon = redeemed.coupon;
      promotionCodeId = redeemed.promotionCode.id;
    }
    const couponId = coupon?.id ?? null;

    const trialEnd =
      dto.trial_end !== undefined
        ? new Date(dto.trial_end)
        : dto.trial_period_days !== undefined
          ? trialEndAfterDays(now, dto.trial_period_days)
          : null;
    if (trialEnd && trialEnd <= now)
      throw new AppError(SubscriptionErrors.E7717, `trial_end must be after ${now.toISOString()}.`);
    const billingStart = trialEnd ?? now;
    const anchor = dto.billing_cycle_anchor !== undefined ? new Date(dto.billing_cycle_anchor) : billingStart;
    if (!anchorFits(billingStart, anchor, recurrence))
      throw new AppError(
        SubscriptionErrors.E7721,
        `billing_cycle_anchor must lie between ${billingStart.toISOString()} and one ${recurrence.interval} later.`,
      );
    const period = trialEnd ? { start: now, end: trialEnd } : firstPeriod(billingStart, anchor, recurrence);
    const stamp = this.clock.now();
    const subscription = {
      id: newId(),
      application_id: applicationId,
      customer_id: customer.id,
      test_clock_id: customer.test_clock_id,
      status: initialStatus(trialEnd !== null, collectionMethod),
      currency,
      interval: recurrence.interval,
      interval_count: recurrence.interval_count,
      collection_method: collectionMethod,
      days_until_due: collectionMethod === 'send_invoice' ? (dto.days_until_due ?? 30) : null,
      default_payment_method: dto.default_payment_method ?? null,
      retries_exhausted_action: dto.retries_exhausted_action ?? 'cancel',
      billing_cycle_anchor: anchor,
      current_period_start: period.start,
      current_period_end: period.end,
      trial_start: trialEnd ? now : null,
      trial_end: trialEnd,
      trial_will_end_sent: false,
      cancel_at_period_end: dto.cancel_at_period_end ?? false,
      canceled_at: dto.cancel_at_period_end ? now : null,
      ended_at: null,
      cancellation_details: null,
      coupon: couponId,
      promotion_code: promotionCodeId,
      default_tax_rates: taxRates,
      latest_invoice: null,
      next_event_at: null,
      metadata: dto.metadata ?? {},
      created: now,
      created_at: stamp,
      updated_at: stamp,
    } as Subscription;
    subscription.next_event_at = nextEventAt(subscription);
    const items = dto.items.map(
      (i, n) =>
        ({
          id: newId(),
          application_id: applicationId,
          subscription_id: subscription.id,
          price_id: i.price_id,
          quantity: quantities[n],
          metadata: i.metadata ?? {},
          created_at: stamp,
        }) as SubscriptionItem,
    );
    await this.subscriptions.insert(subscription, items, manager);
    const stored = await this.load(applicationId, subscription.id, manager);
    await this.events.record(manager, { applicationId, type: 'customer.subscription.created', object: stored });
    const lines = requested.map((r, n) => ({ price: r.price, quantity: quantities[n] }));
    return { stored, subscription, lines, coupon, taxRates: usableRates };
  }

  async retrieve(principal: Principal, id: string): Promise<SubscriptionResponse> {
    const found = await this.subscriptions.find(principal.application.id, id);
    if (!found) throw new AppError(Errors.E4004, `No subscription with id "${id}".`);
    return this.respond(found);
  }

  async list(principal: Principal, query: ListQuery): Promise<ListEnvelope<SubscriptionResponse>> {
    const qb = this.subscriptions.query(principal.application.id);
    const { customer, status, price } = query.params;
    if (customer !== undefined) qb.andWhere('s.customer_id = :pCustomer', { pCustomer: customer });
    if (status !== undefined) qb.andWhere('s.status = :pStatus', { pStatus: status });
    if (price !== undefined) this.subscriptions.withPrice(qb, String(price));
    const page = await runList(qb, SUBSCRIPTION_LIST, query, (s) => s);
    const items = await this.subscriptions.itemsOf(
      principal.application.id,
      page.data.map((s) => s.id),
    );
    return { ...page, data: page.data.map((s) => toSubscriptionResponse(s, items.get(s.id) ?? [])) };
  }

  async pendingItems(principal: Principal, id: string, query: ListQuery): Promise<ListEnvelope<PendingItemResponse>> {
    const found = await this.subscriptions.find(principal.application.id, id);
    if (!found) throw new AppError(Errors.E4004, `No subscription with id "${id}".`);
    return runList(
      this.subscriptions.pendingQuery(principal.application.id, id),
      PENDING_ITEM_LIST,
      query,
      toPendingItemResponse,
    );
  }

  /** The subscription as the API answers it, read in `manager`'s transaction. */
  async load(applicationId: string, id: string, manager?: EntityManager): Promise<SubscriptionResponse> {
    const found = await this.subscriptions.find(applicationId, id, manager);
    return this.respond(found!, manager);
  }

  private async respond(s: Subscription, manager?: EntityManager): Promise<SubscriptionResponse> {
    const items = await this.subscriptions.itemsOf(s.application_id, [s.id], manager);
    return toSubscriptionResponse(s, items.get(s.id) ?? []);
  }

  /** The code of the promotion code `id` names (subscriptions take its id, as Stripe's); E7729 when unknown. */
  private async promotionCode(principal: Principal, id: string): Promise<string> {
    try {
      return (await this.promotionCodes.retrieve(principal, id)).code;
    } catch (err) {
      if (err instanceof AppError && err.definition.code === 'E4004')
        throw new AppError(SubscriptionErrors.E7729, `No promotion code with id "${id}".`);
      throw err;
    }
  }

  /**
   * A customer on an advancing test clock waits: the job is moving its subscriptions (E7702).
   * `lock` (a new subscription) holds the clock until the transaction ends, so an advance starts
   * only after the subscription exists and moves it too.
   */
  async assertClockReady(applicationId: string, clockId: string, manager: EntityManager, lock = false) {
    const testClock = await this.testClocks.find(applicationId, clockId, manager, lock);
    if (testClock?.status === 'advancing')
      throw new AppError(TestClockErrors.E7702, `Test clock "${clockId}" is advancing; wait until it is ready.`);
  }
}
