import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import type { TestClockDeleting } from '../test-clocks/test-clock-hooks.js';
import { TestClocksService } from '../test-clocks/test-clocks.service.js';
import type { Subscription } from './entities/subscription.entity.js';
import { SubscriptionChangesService } from './subscription-changes.service.js';
import { SubscriptionHooks, type PeriodRolled } from './subscription-hooks.js';
import { firstPeriod, periodAfter, type Recurrence } from './subscription-periods.js';
import { nextEventAt, nextStep, type DueStep } from './subscription-schedule.js';
import { subscriptionTransition } from './subscription.transitions.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { SubscriptionsService } from './subscriptions.service.js';

/**
 * The time-driven life of subscriptions (subscription-schedule.ts): each step happens at its due
 * time by the customer's clock, in the transaction that holds the subscription's row lock, with its
 * event. Subscriptions on the service clock are claimed when due (FOR UPDATE SKIP LOCKED); those of
 * a test clock are moved only while that clock advances, one step at a time in due order across all
 * its customers, the clock row locked by the one replica that claimed it.
 */
@Injectable()
export class SubscriptionStepsService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly reads: SubscriptionsService,
    private readonly changes: SubscriptionChangesService,
    private readonly testClocks: TestClocksService,
    private readonly hooks: SubscriptionHooks,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  /** One batch of service-clock subscriptions due at `now`: every step due is taken; answers how many were claimed. */
  dueBatch(now: Date, limit: number, scope: JobScope): Promise<number> {
    return this.subscriptions.transaction(async (manager) => {
      const claimed = await this.subscriptions.claimDue(manager, now, limit, scope);
      const rolls: PeriodRolled[] = [];
      for (let sub of claimed) {
        for (let step = nextStep(sub); step && step.at <= now; step = nextStep(sub)) {
          sub = await this.apply(sub, step, rolls, manager);
        }
      }
      await this.closePeriods(rolls, manager);
      return claimed.length;
    });
  }

  /**
   * Up to `steps` steps of one advancing test clock; when nothing is due up to its target any more,
   * the clock is marked ready. Answers false when no clock was waiting.
   */
  clockBatch(steps: number, scope: JobScope): Promise<boolean> {
    return this.subscriptions.transaction(async (manager) => {
      const testClock = await this.testClocks.claimAdvancing(manager, scope);
      if (!testClock) return false;
      const target = testClock.target_frozen_time!;
      const rolls: PeriodRolled[] = [];
      for (let n = 0; n < steps; n += 1) {
        const sub = await this.subscriptions.nextDueOnClock(manager, testClock.application_id, testClock.id, target);
        const step = sub && nextStep(sub);
        if (!sub || !step || step.at > target) {
          await this.closePeriods(rolls, manager);
          await this.testClocks.finishAdvance(testClock, manager);
          return true;
        }
        await this.apply(sub, step, rolls, manager);
      }
      await this.closePeriods(rolls, manager);
      return true;
    });
  }

  /** A deleted test clock's subscriptions are canceled as of its frozen_time (TestClockHooks.deleting). */
  async cancelOnDeletedClock({ clock, manager }: TestClockDeleting): Promise<void> {
    const open = await this.subscriptions.openOnClock(manager, clock.application_id, clock.id);
    for (const sub of open) {
      const status = subscriptionTransition(sub.status, 'cancel', sub.id);
      await this.changes.cancelLocked(sub, status, clock.frozen_time, { reason: 'test_clock_deleted' }, manager);
    }
  }

  /** The batch's rolled periods go to billing's period close together, before the transaction ends. */
  private async closePeriods(rolls: PeriodRolled[], manager: EntityManager): Promise<void> {
    if (rolls.length > 0) await this.hooks.periodsRolled.emit({ rolls, manager });
  }

  /**
   * Takes one step of a locked subscription; answers the subscription as stored after it. A period
   * roll is added to `rolls` (closed with the rest of the batch).
   */
  private async apply(
    sub: Subscription,
    { step, at }: DueStep,
    rolls: PeriodRolled[],
    manager: EntityManager,
  ): Promise<Subscription> {
    const applicationId = sub.application_id;
    const recurrence: Recurrence = { interval: sub.interval, interval_count: sub.interval_count };
    const updatedAt = this.clock.now();
    const before = {
      status: sub.status,
      current_period_start: iso(sub.current_period_start),
      current_period_end: iso(sub.current_period_end),
    };
    switch (step) {
      case 'cancel': {
        const status = subscriptionTransition(sub.status, 'cancel', sub.id);
        await this.changes.cancelLocked(sub, status, at, { reason: 'cancel_at_period_end' }, manager);
        return (await this.subscriptions.find(applicationId, sub.id, manager))!;
      }
      case 'trial_will_end': {
        const next = { ...sub, trial_will_end_sent: true };
        await this.subscriptions.update(
          applicationId,
          sub.id,
          { trial_will_end_sent: true, next_event_at: nextEventAt(next), updated_at: updatedAt },
          manager,
        );
        await this.record(sub, 'customer.subscription.trial_will_end', undefined, manager);
        break;
      }
      case 'expire': {
        const status = subscriptionTransition(sub.status, 'expire', sub.id);
        await this.subscriptions.writeStatus(
          applicationId,
          sub.id,
          status,
          { ended_at: at, next_event_at: null, updated_at: updatedAt },
          manager,
        );
        await this.record(sub, 'customer.subscription.updated', { status: before.status }, manager);
        break;
      }
      case 'end_trial':
      case 'renew': {
        const status = step === 'end_trial' ? subscriptionTransition(sub.status, 'trial_end', sub.id) : sub.status;
        const ended = { start: sub.current_period_start, end: sub.current_period_end };
        const started =
          step === 'end_trial'
            ? firstPeriod(sub.trial_end!, sub.billing_cycle_anchor, recurrence)
            : periodAfter(sub.current_period_end, sub.billing_cycle_anchor, recurrence);
        const next = { ...sub, status, current_period_start: started.start, current_period_end: started.end };
        await this.subscriptions.writeStatus(
          applicationId,
          sub.id,
          status,
          {
            current_period_start: started.start,
            current_period_end: started.end,
            next_event_at: nextEventAt(next),
            updated_at: updatedAt,
          },
          manager,
        );
        const stored = (await this.subscriptions.find(applicationId, sub.id, manager))!;
        rolls.push({
          subscription: stored,
          reason: step === 'end_trial' ? 'trial_end' : 'subscription_cycle',
          ended,
          started,
          at,
        });
        const previous =
          step === 'end_trial'
            ? before
            : { current_period_start: before.current_period_start, current_period_end: before.current_period_end };
        await this.record(sub, 'customer.subscription.updated', previous, manager);
        break;
      }
    }
    return (await this.subscriptions.find(applicationId, sub.id, manager))!;
  }

  private async record(
    sub: Subscription,
    type: 'customer.subscription.updated' | 'customer.subscription.trial_will_end',
    previous: Record<string, unknown> | undefined,
    manager: EntityManager,
  ): Promise<void> {
    const object = await this.reads.load(sub.application_id, sub.id, manager);
    await this.events.record(manager, {
      applicationId: sub.application_id,
      type,
      object,
      ...(previous ? { previous_attributes: previous } : {}),
      request: null,
    });
  }
}

const iso = (d: Date) => d.toISOString();
