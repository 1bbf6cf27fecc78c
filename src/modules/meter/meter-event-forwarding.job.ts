import { withLinkedSpan } from '../../common/observability/trace-context.js';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Mode } from '../../common/context/principal.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import { MODES } from '../../common/tenancy/modes.js';
import type { AllConfig } from '../../config/app.config.js';
import { BillingProviders } from './providers/billing-provider.js';
import type { ForwardedMeterEvent, MeterEventOutcome } from '../../providers/ports/billing.port.js';
import { MeterEventsRepository, type ClaimedEvent } from './meter-events.repository.js';
import { MeterErrors } from './meter.errors.js';
import { toMeterEventResponse } from './meter.responses.js';

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 20;
/** How often a caught-up forwarder looks for new rows; one whose last claim came back full claims again at once. */
const INTERVAL_MS = 250;

/** Backoff after the n-th failure: 2 s, 4 s, 8 s … capped at one hour. */
export function backoffMs(attempts: number): number {
  return Math.min(2 ** attempts * 1_000, 60 * 60 * 1_000);
}

/**
 * Delivers stored meter events to their billing provider from the transactional outbox, in
 * batches. Each of `METER_FORWARD_CONCURRENCY` claim loops per mode leases up to
 * `METER_FORWARD_BATCH` due rows (FOR UPDATE SKIP LOCKED, so loops and replicas never share a
 * row), sends them with the provider's batch call, and marks those the provider accepted as
 * delivered in the same statement that claims its next batch; it stops when a claim comes back
 * less than full (it has caught up: the rest waits for the next tick) or empty. An event is
 * marked delivered only after the provider accepted it; a crash before the mark commits costs a
 * repeat when the lease ends, which the provider absorbs (the event's identifier is its
 * idempotency key). A refused event is retried with exponential backoff (on the
 * service Clock) and shown in its `errors`, and abandoned after MAX_ATTEMPTS attempts, or at once
 * when the provider refused it for good (`permanent`).
 */
@Injectable()
export class MeterEventForwardingJob extends PeriodicJob {
  private readonly batch: number;
  private readonly concurrency: number;

  constructor(
    private readonly events: MeterEventsRepository,
    private readonly providers: BillingProviders,
    private readonly recorder: EventRecorder,
    config: ConfigService<AllConfig, true>,
  ) {
    super(INTERVAL_MS);
    this.batch = config.get('app.meterForwardBatch', { infer: true });
    this.concurrency = config.get('app.meterForwardConcurrency', { infer: true });
  }

  protected async runOnce(): Promise<void> {
    // Both modes at once, unlike the jobs that walk them in turn: a busy mode must not hold back the other's events.
    await Promise.all(MODES.map((mode) => this.drainOnce(mode)));
  }

  /**
   * Delivers what is due in one mode until nothing due is left; returns how many events were
   * delivered. Tests on the shared database scope it to their applications.
   */
  drainOnce(mode: Mode, scope: JobScope = {}): Promise<number> {
    return this.context.runInMode(mode, async () => {
      // allSettled: one loop's failure must not end the run while the others still work.
      const loops = await Promise.allSettled(Array.from({ length: this.concurrency }, () => this.claimLoop(scope)));
      const failed = loops.find((l) => l.status === 'rejected');
      if (failed) throw failed.reason;
      return loops.reduce((sum, l) => sum + (l.status === 'fulfilled' ? l.value : 0), 0);
    });
  }

  /**
   * Claims, sends, and marks the accepted events delivered with the next claim. A full batch means
   * more is probably due, so the loop claims again at once; a partial one means it has caught up,
   * so it marks its batch delivered and ends until the next tick instead of claiming again for the
   * few rows that arrived meanwhile. Under a steady input below capacity that is one claim per loop
   * and tick (INTERVAL_MS) rather than a claim every few milliseconds, each costing a statement, a
   * provider call and PostgreSQL's CPU beside the ingestion it shares the machine with (issue 18).
   */
  private async claimLoop(scope: JobScope): Promise<number> {
    let delivered = 0;
    let accepted: string[] = [];
    let since = this.clock.now();
    for (;;) {
      const now = this.clock.now();
      if (this.stopping) {
        await this.events.markDelivered({ ids: accepted, at: now, since });
        return delivered + accepted.length;
      }
      const claimed = await this.events.claimDue(
        now,
        new Date(now.getTime() + LEASE_MS),
        this.batch,
        { ids: accepted, at: now, since },
        scope,
      );
      delivered += accepted.length;
      if (claimed.length === 0) return delivered;
      since = new Date(Math.min(...claimed.map((c) => new Date(c.created_at).getTime())));
      accepted = await this.deliver(claimed);
      if (claimed.length < this.batch) {
        await this.events.markDelivered({ ids: accepted, at: this.clock.now(), since });
        return delivered + accepted.length;
      }
    }
  }

  /** Sends a claimed batch, one provider call per provider; records the refusals and returns the accepted event ids. */
  private async deliver(claimed: ClaimedEvent[]): Promise<string[]> {
    const byProvider = new Map<string, ClaimedEvent[]>();
    for (const row of claimed) {
      const rows = byProvider.get(row.provider);
      if (rows) rows.push(row);
      else byProvider.set(row.provider, [row]);
    }
    const accepted: string[] = [];
    const refused: Array<{ row: ClaimedEvent; error: string; permanent: boolean }> = [];
    await Promise.all(
      [...byProvider].map(async ([name, rows]) => {
        // Tracing on: the batch's provider call is a span linked to the requests that stored its events.
        const outcomes = await withLinkedSpan(
          'meter_events.forward',
          rows.map((row) => row.traceparent),
          { 'wallet.provider.name': name, 'wallet.meter_events.count': rows.length },
          () => this.send(name, rows.map(toForwarded)),
        );
        rows.forEach((row, i) => {
          const outcome = outcomes[i] ?? { ok: false, error: 'the provider gave no outcome for this event' };
          if (outcome.ok) accepted.push(row.event_id);
          else refused.push({ row, error: outcome.error, permanent: outcome.permanent === true });
        });
      }),
    );
    const applicationOf = new Map(refused.map(({ row }) => [row.event_id, row.application_id]));
    await this.events.markAttemptsFailed(
      refused.map(({ row, error, permanent }) => {
        const attempts = row.attempts + 1;
        const abandoned = permanent || attempts >= MAX_ATTEMPTS;
        const definition = abandoned ? MeterErrors.E8021 : MeterErrors.E8020;
        return {
          eventId: row.event_id,
          createdAt: row.created_at,
          errors: [{ code: definition.code, message: `${definition.message} (attempt ${attempts}: ${error})` }],
          attempts,
          retryAt: abandoned ? null : new Date(this.clock.nowMs() + backoffMs(attempts)),
        };
      }),
      // Events (issue 14): meter_event.delivery_failed, in the abandonment's transaction.
      async (abandoned, manager) => {
        for (const event of abandoned) {
          await this.recorder.record(manager, {
            applicationId: applicationOf.get(event.id)!,
            type: 'meter_event.delivery_failed',
            object: toMeterEventResponse(event, this.context.livemode),
          });
        }
      },
    );
    return accepted;
  }

  /** The provider's outcomes; a provider that throws (or is unknown) refuses the whole batch with its message. */
  private async send(name: string, events: ForwardedMeterEvent[]): Promise<MeterEventOutcome[]> {
    try {
      return await this.providers.named(name).sendMeterEvents(events);
    } catch (err) {
      return events.map(() => ({ ok: false, error: (err as Error).message }));
    }
  }
}

function toForwarded(row: ClaimedEvent): ForwardedMeterEvent {
  return {
    applicationId: row.application_id,
    identifier: row.identifier,
    eventName: row.event_name,
    payload: row.payload,
    occurredAt: new Date(row.occurred_at),
  };
}
