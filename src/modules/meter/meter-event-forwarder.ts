import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../common/clock.js';
import type { Mode } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import type { AllConfig } from '../../config/app.config.js';
import { BillingProviders } from './providers/billing-provider.js';
import { MeterEventsRepository, type ClaimedEvent } from './meter-events.repository.js';
import { MeterErrors } from './meter.errors.js';
import { toMeterEventResponse } from './meter-events.responses.js';

const BATCH = 200;
const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 20;
const INTERVAL_MS = 1_000;

/** Backoff after the n-th failure: 2 s, 4 s, 8 s … capped at one hour. */
export function backoffMs(attempts: number): number {
  return Math.min(2 ** attempts * 1_000, 60 * 60 * 1_000);
}

/**
 * Delivers stored meter events to their billing provider from the transactional outbox. Rows are
 * claimed with FOR UPDATE SKIP LOCKED and a lease, so several replicas never deliver the same row
 * at once; a failure is retried with exponential backoff (on the service Clock) and shown in the
 * event's `errors` until it succeeds. Providers are idempotent on the identifier, so a crash after
 * delivery and before the bookkeeping costs a repeat, never a lost or doubled event.
 */
@Injectable()
export class MeterEventForwarder extends PeriodicJob {
  constructor(
    private readonly events: MeterEventsRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly providers: BillingProviders,
    config: ConfigService<AllConfig, true>,
    private readonly recorder: EventRecorder,
  ) {
    super(config, INTERVAL_MS);
  }

  protected async runOnce(): Promise<void> {
    for (const mode of ['live', 'test'] as const) await this.drainOnce(mode);
  }

  /** Delivers what is due in one mode; returns how many events were delivered. */
  drainOnce(mode: Mode): Promise<number> {
    return this.context.runInMode(mode, async () => {
      let delivered = 0;
      await this.untilDrained(BATCH, async () => {
        const claimed = await this.claim();
        for (const row of claimed) if (await this.deliver(row)) delivered += 1;
        return claimed.length;
      });
      return delivered;
    });
  }

  private claim(): Promise<ClaimedEvent[]> {
    const now = this.clock.now();
    return this.events.claimDue(now, new Date(now.getTime() + LEASE_MS), BATCH);
  }

  private async deliver(row: ClaimedEvent): Promise<boolean> {
    try {
      await this.providers.named(row.provider).sendMeterEvent({
        applicationId: row.application_id,
        identifier: row.identifier,
        eventName: row.event_name,
        payload: row.payload,
        occurredAt: new Date(row.occurred_at),
      });
    } catch (err) {
      const attempts = row.attempts + 1;
      const abandoned = attempts >= MAX_ATTEMPTS;
      const definition = abandoned ? MeterErrors.E8021 : MeterErrors.E8020;
      const errors = [
        { code: definition.code, message: `${definition.message} (attempt ${attempts}: ${(err as Error).message})` },
      ];
      const retryAt = abandoned ? null : new Date(this.clock.nowMs() + backoffMs(attempts));
      // Events (issue 14): meter_event.delivery_failed, in the abandonment's transaction.
      await this.events.markAttemptFailed(row.event_id, errors, attempts, retryAt, (event, manager) =>
        this.recorder.record(manager, {
          applicationId: row.application_id,
          type: 'meter_event.delivery_failed',
          object: toMeterEventResponse(event, this.context.livemode),
        }),
      );
      return false;
    }
    await this.events.markDelivered(row.event_id, this.clock.now());
    return true;
  }
}
