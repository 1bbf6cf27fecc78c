import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { newId } from '../../../common/ids.js';
import { CustomerHooks } from '../../customers/index.js';
import type { Price } from '../catalog/prices/entities/price.entity.js';
import { BillingClock } from '../test-clocks/billing-clock.js';
import type {
  CancelSubscriptionDto,
  SubscriptionItemUpdateDto,
  UpdateSubscriptionDto,
} from './dto/subscription.dto.js';
import type { PendingItem } from './entities/pending-item.entity.js';
import type { SubscriptionItem } from './entities/subscription-item.entity.js';
import type { Subscription } from './entities/subscription.entity.js';
import type { ProrationLine } from './proration.js';
import { SubscriptionHooks } from './subscription-hooks.js';
import { SubscriptionPrices } from './subscription-prices.js';
import { assertNoDuplicatePrices, checkItemSet, itemQuantity } from './subscription-rules.js';
import { nextEventAt } from './subscription-schedule.js';
import { assertUpdatable, subscriptionTransition } from './subscription.transitions.js';
import { SubscriptionErrors } from './subscriptions.errors.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import type { SubscriptionResponse } from './subscriptions.responses.js';
import { SubscriptionsService } from './subscriptions.service.js';
import { changedAttributes, mergeMetadata } from './subscription-diff.js';

/** Statuses whose current period is paid for (or owed): a change in it is prorated. */
const BILLED_STATUSES = new Set(['active', 'past_due', 'unpaid']);

/** An item's prorations, computed only when they are stored (proration_behavior none never prices them). */
interface Proration {
  item: SubscriptionItem | null;
  lines: () => Array<ProrationLine & { price: Price }>;
}

/** POST /subscriptions/{id} and POST /subscriptions/{id}/cancel. */
@Injectable()
export class SubscriptionChangesService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly reads: SubscriptionsService,
    private readonly billingClock: BillingClock,
    private readonly prices: SubscriptionPrices,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
    private readonly customerHooks: CustomerHooks,
    private readonly hooks: SubscriptionHooks,
  ) {}

  async update(principal: Principal, id: string, dto: UpdateSubscriptionDto): Promise<SubscriptionResponse> {
    const applicationId = principal.application.id;
    return this.subscriptions.transaction(async (manager) => {
      const sub = await this.lockUpdatable(applicationId, id, manager);
      const before = await this.reads.load(applicationId, id, manager);
      const now = await this.billingClock.nowFor(sub, manager);
      const behavior = dto.proration_behavior ?? 'create_prorations';
      const changesItems = dto.items !== undefined && dto.items.length > 0;
      if (changesItems) await this.changeItems(principal, sub, dto.items!, behavior !== 'none', now, manager);
      if (changesItems && behavior === 'always_invoice') {
        await this.hooks.invoiceNow.emit({ subscription: sub, reason: 'subscription_update', at: now, manager });
      }
      const facts: Partial<Subscription> = { updated_at: this.clock.now() };
      if (dto.cancel_at_period_end !== undefined && dto.cancel_at_period_end !== sub.cancel_at_period_end) {
        facts.cancel_at_period_end = dto.cancel_at_period_end;
        facts.canceled_at = dto.cancel_at_period_end ? now : null;
      }
      if (dto.default_payment_method !== undefined) {
        // Checked and held by the module owning payment methods (as a customer's default is).
        await this.customerHooks.defaultPaymentMethod.emit({
          applicationId,
          customerId: sub.customer_id,
          paymentMethodId: dto.default_payment_method,
          manager,
        });
        facts.default_payment_method = dto.default_payment_method;
      }
      if (dto.metadata !== undefined) facts.metadata = mergeMetadata(sub.metadata, dto.metadata);
      facts.next_event_at = nextEventAt({ ...sub, ...facts });
      await this.subscriptions.update(applicationId, id, facts as Omit<Partial<Subscription>, 'status'>, manager);
      const after = await this.reads.load(applicationId, id, manager);
      await this.events.record(manager, {
        applicationId,
        type: 'customer.subscription.updated',
        object: after,
        previous_attributes: changedAttributes(before, after),
      });
      return after;
    });
  }

  /**
   * Cancels now. `prorate` credits the unused time of licensed items as pending items; `invoice_now`
   * bills at once, in this transaction, a final `subscription_cancel` invoice (billing's invoicing,
   * through SubscriptionHooks.invoiceNow): the period's usage up to now and the pending items.
   */
  async cancel(principal: Principal, id: string, dto: CancelSubscriptionDto): Promise<SubscriptionResponse> {
    const applicationId = principal.application.id;
    return this.subscriptions.transaction(async (manager) => {
      const sub = await this.lockUpdatable(applicationId, id, manager);
      const status = subscriptionTransition(sub.status, 'cancel', id);
      const now = await this.billingClock.nowFor(sub, manager);
      if (dto.prorate && BILLED_STATUSES.has(sub.status)) {
        const items = (await this.subscriptions.itemsOf(applicationId, [id], manager)).get(id) ?? [];
        const prices = await this.prices.load(
          principal,
          items.map((i) => i.price_id),
          manager,
        );
        const prorations = items
          .filter((i) => i.quantity !== null)
          .map((item) => {
            const price = prices.get(item.price_id)!;
            return this.proration(item, { price, quantity: item.quantity! }, null, now, sub);
          });
        await this.storeProrations(sub, prorations, manager);
      }
      if (dto.invoice_now) {
        await this.hooks.invoiceNow.emit({ subscription: sub, reason: 'subscription_cancel', at: now, manager });
      }
      return this.cancelLocked(sub, status, now, { reason: 'cancellation_requested' }, manager);
    });
  }

  /** Cancels a locked subscription as of `at` and records customer.subscription.deleted. */
  async cancelLocked(
    sub: Subscription,
    status: Subscription['status'],
    at: Date,
    details: Record<string, unknown>,
    manager: EntityManager,
  ): Promise<SubscriptionResponse> {
    await this.subscriptions.writeStatus(
      sub.application_id,
      sub.id,
      status,
      {
        canceled_at: sub.canceled_at ?? at,
        ended_at: at,
        cancellation_details: details,
        next_event_at: null,
        updated_at: this.clock.now(),
      },
      manager,
    );
    const object = await this.reads.load(sub.application_id, sub.id, manager);
    await this.events.record(manager, {
      applicationId: sub.application_id,
      type: 'customer.subscription.deleted',
      object,
      previous_attributes: { status: sub.status },
    });
    return object;
  }

  private async lockUpdatable(applicationId: string, id: string, manager: EntityManager): Promise<Subscription> {
    const sub = await this.subscriptions.find(applicationId, id, manager, true);
    if (!sub) throw new AppError(Errors.E4004, `No subscription with id "${id}".`);
    assertUpdatable(sub.status, id);
    if (sub.test_clock_id) await this.reads.assertClockReady(applicationId, sub.test_clock_id, manager);
    return sub;
  }

  /** Adds, changes and removes items; the resulting set must hold together (subscription-rules.ts). */
  private async changeItems(
    principal: Principal,
    sub: Subscription,
    changes: SubscriptionItemUpdateDto[],
    prorate: boolean,
    now: Date,
    manager: EntityManager,
  ): Promise<void> {
    const applicationId = sub.application_id;
    const current = (await this.subscriptions.itemsOf(applicationId, [sub.id], manager)).get(sub.id) ?? [];
    const byId = new Map(current.map((i) => [i.id, i]));
    const wanted = [...current.map((i) => i.price_id), ...changes.flatMap((c) => (c.price_id ? [c.price_id] : []))];
    const prices = await this.prices.load(principal, wanted, manager);
    const next = new Map(current.map((i) => [i.id, { ...i }]));
    const added: SubscriptionItem[] = [];
    const removed: string[] = [];
    const prorations: Proration[] = [];
    const stamp = this.clock.now();
    for (const [n, change] of changes.entries()) {
      if (change.id === undefined) {
        if (change.price_id === undefined || change.deleted)
          throw new AppError(Errors.E2000, `items[${n}]: a new item needs price_id (and no deleted).`);
        const price = prices.get(change.price_id)!;
        const item = {
          id: newId(),
          application_id: applicationId,
          subscription_id: sub.id,
          price_id: price.id,
          quantity: itemQuantity(price, change.quantity),
          metadata: change.metadata ?? {},
          created_at: stamp,
        } as SubscriptionItem;
        added.push(item);
        if (item.quantity !== null)
          prorations.push(this.proration(item, null, { price, quantity: item.quantity }, now, sub));
        continue;
      }
      const old = byId.get(change.id);
      const item = next.get(change.id);
      if (!old || !item)
        throw new AppError(SubscriptionErrors.E7725, `No item "${change.id}" on subscription "${sub.id}".`);
      const oldPrice = prices.get(old.price_id)!;
      if (change.deleted) {
        next.delete(change.id);
        removed.push(change.id);
        if (old.quantity !== null)
          prorations.push(this.proration(old, { price: oldPrice, quantity: old.quantity }, null, now, sub));
        continue;
      }
      const price = prices.get(change.price_id ?? old.price_id)!;
      const samePrice = price.id === old.price_id;
      item.price_id = price.id;
      const metered = price.recurring?.usage_type === 'metered';
      item.quantity = itemQuantity(price, change.quantity ?? (metered ? undefined : (old.quantity ?? undefined)));
      if (change.metadata !== undefined) item.metadata = change.metadata;
      if (!samePrice || item.quantity !== old.quantity) {
        const from = old.quantity === null ? null : { price: oldPrice, quantity: old.quantity };
        const to = item.quantity === null ? null : { price, quantity: item.quantity };
        if (from || to) prorations.push(this.proration(item, from, to, now, sub));
      }
    }
    const result = [...next.values(), ...added];
    if (result.length === 0) throw new AppError(SubscriptionErrors.E7724, 'A subscription keeps at least one item.');
    assertNoDuplicatePrices(result.map((i) => i.price_id));
    const set = checkItemSet(
      result.map((i) => prices.get(i.price_id)!),
      null,
    );
    if (set.currency !== sub.currency)
      throw new AppError(
        SubscriptionErrors.E7712,
        `The subscription is in ${sub.currency}; the new prices are in ${set.currency}.`,
      );
    if (set.recurrence.interval !== sub.interval || set.recurrence.interval_count !== sub.interval_count)
      throw new AppError(
        SubscriptionErrors.E7713,
        `The subscription recurs every ${sub.interval_count} ${sub.interval}; the new prices do not.`,
      );
    await this.subscriptions.deleteItems(applicationId, removed, manager);
    for (const item of next.values()) {
      const old = byId.get(item.id)!;
      if (old.price_id !== item.price_id || old.quantity !== item.quantity || old.metadata !== item.metadata)
        await this.subscriptions.updateItem(
          applicationId,
          item.id,
          { price_id: item.price_id, quantity: item.quantity, metadata: item.metadata },
          manager,
        );
    }
    await this.subscriptions.insertItems(added, manager);
    if (prorate && BILLED_STATUSES.has(sub.status)) await this.storeProrations(sub, prorations, manager);
  }

  private proration(
    item: SubscriptionItem,
    from: { price: Price; quantity: number } | null,
    to: { price: Price; quantity: number } | null,
    now: Date,
    sub: Subscription,
  ): Proration {
    return { item, lines: () => this.prices.prorations(from, to, now, periodOf(sub)) };
  }

  private async storeProrations(sub: Subscription, prorations: Proration[], manager: EntityManager): Promise<void> {
    const stamp = this.clock.now();
    const rows: PendingItem[] = [];
    for (const { item, lines } of prorations) {
      for (const { price, ...line } of lines()) {
        rows.push({
          id: newId(),
          application_id: sub.application_id,
          subscription_id: sub.id,
          subscription_item_id: item?.id ?? null,
          price_id: price.id,
          kind: 'proration',
          description: `${line.description} ${price.id}`,
          quantity: line.quantity,
          amount: line.amount.toString(),
          currency: price.currency,
          scaling_factor: price.scaling_factor,
          period_start: sub.current_period_start,
          period_end: sub.current_period_end,
          invoice_id: null,
          created_at: stamp,
        } as PendingItem);
      }
    }
    await this.subscriptions.insertPending(rows, manager);
  }
}

const periodOf = (s: Subscription) => ({ start: s.current_period_start, end: s.current_period_end });
