import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { CouponsService } from '../catalog/coupons/coupons.service.js';
import { PromotionCodesService } from '../catalog/promotion-codes/promotion-codes.service.js';
import { TaxRatesService } from '../catalog/tax-rates/tax-rates.service.js';
import { subscriptionInvoiceLines, type FirstInvoiceLine } from './subscription-invoice-lines.js';
import type { ComputedInvoice } from '../pricing/index.js';
export type { FirstInvoiceLine } from './subscription-invoice-lines.js';
import type { CreateSubscriptionDto } from './dto/subscription.dto.js';
import { SubscriptionPrices } from './subscription-prices.js';
import { nextEventAt } from './subscription-schedule.js';
import { subscriptionTransition } from './subscription.transitions.js';
import { SubscriptionErrors } from './subscriptions.errors.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import type { SubscriptionResponse } from './subscriptions.responses.js';
import { SubscriptionsService } from './subscriptions.service.js';

/** A subscription opened by a checkout, and its first invoice's lines and totals. */
export interface OpenedSubscription {
  subscription: SubscriptionResponse;
  /** Nothing to charge now (a trial): the checkout saves the card only. */
  trialing: boolean;
  currency: string;
  lines: FirstInvoiceLine[];
  totals: Pick<ComputedInvoice, 'subtotal' | 'total_discount' | 'total_tax' | 'total'>;
}

/**
 * The subscription side of a checkout in mode `subscription` (docs/BILLING.md, "Subscription
 * checkout"): the subscription is created in the checkout's transaction with its first invoice's
 * amounts from the pricing functions, and activated in the payment's transaction.
 */
@Injectable()
export class SubscriptionCheckoutsService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly reads: SubscriptionsService,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
    private readonly coupons: CouponsService,
    private readonly promotionCodes: PromotionCodesService,
    private readonly prices: SubscriptionPrices,
    private readonly taxRates: TaxRatesService,
  ) {}

  /**
   * Before a subscription checkout is paid (or saves a trial's card): its subscription is still
   * waiting for it (`incomplete`, or `trialing`); one expired meanwhile (its customer's test clock
   * passed 23 hours) or canceled is refused with E7750.
   */
  async assertStartable(applicationId: string, id: string, manager: EntityManager): Promise<void> {
    const sub = await this.subscriptions.find(applicationId, id, manager);
    if (!sub || (sub.status !== 'incomplete' && sub.status !== 'trialing')) {
      throw new AppError(
        SubscriptionErrors.E7750,
        `Subscription "${id}" is ${sub?.status ?? 'gone'}: its checkout can no longer start it.`,
      );
    }
  }

  /** Whether the subscription has a discount (a coupon or promotion code), for the checkout page's code field. */
  async hasDiscount(applicationId: string, id: string): Promise<boolean> {
    return (await this.subscriptions.find(applicationId, id))?.coupon != null;
  }

  /**
   * The subscription checkout expired unpaid (in the expiry's transaction): the subscription, if
   * still `incomplete`, ends `incomplete_expired` with `customer.subscription.updated`, and the
   * coupon or promotion code it redeemed is given back (times_redeemed - 1).
   */
  async checkoutExpired(applicationId: string, id: string, manager: EntityManager): Promise<void> {
    const sub = await this.subscriptions.find(applicationId, id, manager, true);
    if (!sub) return;
    if (sub.promotion_code) await this.promotionCodes.release(manager, applicationId, sub.promotion_code);
    else if (sub.coupon) await this.coupons.release(manager, applicationId, sub.coupon);
    if (sub.status !== 'incomplete') return;
    const status = subscriptionTransition(sub.status, 'expire', id);
    const now = this.clock.now();
    await this.subscriptions.writeStatus(
      applicationId,
      id,
      status,
      { ended_at: now, next_event_at: null, updated_at: now },
      manager,
    );
    await this.events.record(manager, {
      applicationId,
      type: 'customer.subscription.updated',
      object: await this.reads.load(applicationId, id, manager),
      previous_attributes: { status: sub.status },
    });
  }

  /**
   * The subscription (`incomplete`, or `trialing`) with `customer.subscription.created`, the
   * promotion code redeemed, and the first invoice priced: each licensed item at quantity x price,
   * the coupon's discount split over the lines, each default tax rate per line half-up.
   */
  async open(
    principal: Scope,
    dto: CreateSubscriptionDto,
    promotionCode: string | null,
    manager: EntityManager,
  ): Promise<OpenedSubscription> {
    const created = await this.reads.createIn(principal, dto, promotionCode, manager);
    return {
      subscription: created.stored,
      trialing: created.subscription.status === 'trialing',
      ...subscriptionInvoiceLines({
        currency: created.subscription.currency,
        items: created.lines,
        coupon: created.coupon,
        taxRates: created.taxRates,
      }),
    };
  }

  /**
   * The buyer typed a promotion code on a subscription checkout's page (allow_promotion_codes), in
   * the checkout's transaction with the checkout locked: the subscription, locked and still waiting
   * for its checkout (E7750), has no discount yet (else `'discounted'`, for the caller's E7076); the
   * code is redeemed for what the licensed items cost a period (the catalog's refusals, counted so
   * max_redemptions holds), becomes the subscription's discount with `customer.subscription.updated`,
   * and the first invoice is priced again as `open` prices it.
   */
  async applyPromotionCode(
    scope: Scope,
    id: string,
    code: string,
    firstTimeTransaction: boolean,
    manager: EntityManager,
  ): Promise<OpenedSubscription | 'discounted'> {
    const applicationId = scope.application.id;
    const sub = await this.subscriptions.find(applicationId, id, manager, true);
    if (!sub || (sub.status !== 'incomplete' && sub.status !== 'trialing')) {
      throw new AppError(
        SubscriptionErrors.E7750,
        `Subscription "${id}" is ${sub?.status ?? 'gone'}: its checkout can no longer change it.`,
      );
    }
    if (sub.coupon) return 'discounted';
    const items = (await this.subscriptions.itemsOf(applicationId, [id], manager)).get(id) ?? [];
    const prices = await this.prices.load(
      scope,
      items.map((i) => i.price_id),
      manager,
    );
    const lines = items.map((i) => ({ price: prices.get(i.price_id)!, quantity: i.quantity }));
    const { promotionCode, coupon } = await this.promotionCodes.redeem(manager, scope, code, {
      customerId: sub.customer_id,
      amount: this.prices.periodAmount(lines),
      currency: sub.currency,
      firstTimeTransaction,
    });
    await this.subscriptions.update(
      applicationId,
      id,
      { coupon: coupon.id, promotion_code: promotionCode.id, updated_at: this.clock.now() },
      manager,
    );
    const object = await this.reads.load(applicationId, id, manager);
    await this.events.record(manager, {
      applicationId,
      type: 'customer.subscription.updated',
      object,
      previous_attributes: { discount: null },
    });
    const rates =
      sub.default_tax_rates.length > 0 ? await this.taxRates.findUsable(scope, sub.default_tax_rates, manager) : [];
    return {
      subscription: object,
      trialing: sub.status === 'trialing',
      ...subscriptionInvoiceLines({ currency: sub.currency, items: lines, coupon, taxRates: rates }),
    };
  }

  /** The checkout's first invoice is the subscription's latest invoice (no event: the subscription was just created). */
  async linkFirstInvoice(applicationId: string, id: string, invoiceId: string, manager: EntityManager): Promise<void> {
    await this.subscriptions.update(applicationId, id, { latest_invoice: invoiceId }, manager);
  }

  /**
   * In the payment's (or a trial's setup) transaction: the first invoice is paid (or a trial saved
   * its card): `incomplete` -> `active` (a `trialing` subscription stays), `default_payment_method`
   * set when `paymentMethodId` is given (save_default_payment_method `on_subscription`), with
   * `customer.subscription.updated`.
   */
  async checkoutCompleted(
    applicationId: string,
    id: string,
    paymentMethodId: string | null,
    manager: EntityManager,
  ): Promise<void> {
    const sub = await this.subscriptions.find(applicationId, id, manager, true);
    if (!sub) throw new AppError(Errors.E4004, `No subscription with id "${id}".`);
    const previous: Record<string, unknown> = {};
    const changes: { default_payment_method?: string; next_event_at?: Date | null; updated_at: Date } = {
      updated_at: this.clock.now(),
    };
    if (paymentMethodId) {
      previous.default_payment_method = sub.default_payment_method;
      changes.default_payment_method = paymentMethodId;
    }
    let status = sub.status;
    if (sub.status === 'incomplete') {
      status = subscriptionTransition(sub.status, 'first_invoice_paid', id);
      previous.status = sub.status;
    }
    if (Object.keys(previous).length === 0) return;
    changes.next_event_at = nextEventAt({ ...sub, ...changes, status });
    await this.subscriptions.writeStatus(applicationId, id, status, changes, manager);
    const object = await this.reads.load(applicationId, id, manager);
    await this.events.record(manager, {
      applicationId,
      type: 'customer.subscription.updated',
      object,
      previous_attributes: previous,
    });
  }
}
