import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import type { Subscription } from './entities/subscription.entity.js';
import { SubscriptionChangesService } from './subscription-changes.service.js';
import { nextEventAt } from './subscription-schedule.js';
import { subscriptionTransition, type SubscriptionEvent } from './subscription.transitions.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { SubscriptionsService } from './subscriptions.service.js';

/**
 * How a subscription's invoices move it (docs/BILLING.md, "Collection and retries"), each in the
 * caller's transaction with `customer.subscription.updated` (or `.deleted`): paid -> active
 * (`first_invoice_paid` from incomplete, `payment_succeeded` from past_due or unpaid), a failed
 * attempt -> past_due, the last retry failed -> canceled or unpaid per `retries_exhausted_action`.
 */
@Injectable()
export class SubscriptionPaymentsService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly reads: SubscriptionsService,
    private readonly changes: SubscriptionChangesService,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  /** The subscription (locked with `lock`), for collection's decisions: its method, payment method, clock. */
  find(applicationId: string, id: string, manager?: EntityManager, lock = false): Promise<Subscription | null> {
    return this.subscriptions.find(applicationId, id, manager, lock);
  }

  /** `invoiceId` is the subscription's latest invoice (no event: the invoice's own events say it). */
  async linkLatestInvoice(applicationId: string, id: string, invoiceId: string, manager: EntityManager): Promise<void> {
    await this.subscriptions.update(applicationId, id, { latest_invoice: invoiceId }, manager);
  }

  /** An invoice of the subscription was paid. */
  async invoicePaid(applicationId: string, id: string, manager: EntityManager): Promise<void> {
    const sub = await this.subscriptions.find(applicationId, id, manager, true);
    if (!sub) return;
    if (sub.status === 'incomplete') await this.move(sub, 'first_invoice_paid', manager);
    else if (sub.status === 'past_due' || sub.status === 'unpaid') await this.move(sub, 'payment_succeeded', manager);
  }

  /** An attempt on one of its invoices failed: an active subscription is past_due (an incomplete one stays). */
  async paymentFailed(applicationId: string, id: string, manager: EntityManager): Promise<void> {
    const sub = await this.subscriptions.find(applicationId, id, manager, true);
    if (sub?.status === 'active') await this.move(sub, 'payment_failed', manager);
  }

  /** The last retry failed at `at` (the customer's clock): canceled, or unpaid with `mark_unpaid`. */
  async retriesExhausted(applicationId: string, id: string, at: Date, manager: EntityManager): Promise<void> {
    const sub = await this.subscriptions.find(applicationId, id, manager, true);
    if (sub?.status !== 'past_due') return;
    if (sub.retries_exhausted_action === 'mark_unpaid') {
      await this.move(sub, 'retries_exhausted', manager);
      return;
    }
    const status = subscriptionTransition(sub.status, 'cancel', sub.id);
    await this.changes.cancelLocked(sub, status, at, { reason: 'payment_failed' }, manager);
  }

  private async move(sub: Subscription, event: SubscriptionEvent, manager: EntityManager): Promise<void> {
    const status = subscriptionTransition(sub.status, event, sub.id);
    const changes = { updated_at: this.clock.now(), next_event_at: nextEventAt({ ...sub, status }) };
    await this.subscriptions.writeStatus(sub.application_id, sub.id, status, changes, manager);
    await this.events.record(manager, {
      applicationId: sub.application_id,
      type: 'customer.subscription.updated',
      object: await this.reads.load(sub.application_id, sub.id, manager),
      previous_attributes: { status: sub.status },
    });
  }
}
