import { Injectable } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import type { Mode } from '../../common/context/principal.js';
import { newId } from '../../common/ids.js';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import type { Event } from './entities/event.entity.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { EventsRepository } from './events.repository.js';
import { toEventResponse } from './events.responses.js';
import { nextRetryAt, retryDelayMs } from './retry-schedule.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { DELIVERY_TIMEOUT_MS, postWebhook, type SendResult } from './webhook-sender.js';
import { WebhooksRepository, type ClaimedDelivery } from './webhooks.repository.js';

/** How often each replica looks for due deliveries (an empty look is one index probe per mode). */
export const DELIVERY_POLL_MS = 200;
const BATCH = 500;
/** One endpoint's deliveries are started in event order, at most this many in flight at once. */
const WINDOW = 8;
/**
 * How long a claim holds a delivery: long enough for the attempts queued before it in its batch
 * (one endpoint's deliveries go one after another); after it, a delivery whose process died is
 * due again.
 */
const LEASE_MS = 5 * 60_000;

/**
 * Sends what the event log owes webhook endpoints (docs/EVENTS.md). Each batch claims due
 * deliveries in one statement (FOR UPDATE SKIP LOCKED, lease written, committed), calls the
 * receivers with no transaction open and no row locked, then records each outcome in a short
 * transaction fenced by the attempt number, so a delivery is attempted once per claim across
 * replicas. One endpoint's deliveries are started in event order, WINDOW in flight at most; endpoints are
 * served side by side.
 */
@Injectable()
export class WebhookDeliveryJob extends PeriodicJob {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly events: EventsRepository,
    private readonly endpoints: WebhookEndpointsService,
    private readonly metrics: WebhookMetrics,
  ) {
    super(DELIVERY_POLL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.deliverDue();
  }

  /**
   * Delivers everything due now in the given modes; returns how many attempts were made. A batch's
   * outcomes are written while the next batch is claimed and sent (its claims are leased, so no
   * other batch takes them meanwhile); one batch's outcomes are written at a time, in order, and all
   * are written before this returns. `scope.applicationIds` limits it to those applications' deliveries
   * (tests sharing one database move their own clock; they must not give up other suites' deliveries).
   */
  async deliverDue(modes: Mode[] = ['test', 'live'], scope: Pick<JobScope, 'applicationIds'> = {}): Promise<number> {
    let attempted = 0;
    for (const mode of modes) {
      attempted += await this.context.runInMode(mode, async () => {
        let recording: Promise<void> = Promise.resolve();
        try {
          return await this.untilDrained(BATCH, async () => {
            const { claimed, outcomes } = await this.sendBatch(mode, scope);
            await recording;
            recording = this.record(outcomes);
            // Awaited with the next batch or in `finally`; this only keeps it from counting as unhandled meanwhile.
            recording.catch(() => undefined);
            return claimed;
          });
        } finally {
          await recording;
        }
      });
    }
    return attempted;
  }

  /** Claims a batch and sends it; the outcomes are for the caller to record. */
  private async sendBatch(
    mode: Mode,
    scope: Pick<JobScope, 'applicationIds'>,
  ): Promise<{ claimed: number; outcomes: Outcome[] }> {
    const now = this.clock.now();
    const claimed = await this.webhooks.claimDue(
      now,
      new Date(now.getTime() + LEASE_MS),
      BATCH,
      scope.applicationIds ?? null,
    );
    if (claimed.length === 0) return { claimed: 0, outcomes: [] };
    const [events, endpoints] = await Promise.all([
      this.events.byIds(claimed.map((c) => c.event_id)),
      this.webhooks.endpointsById(claimed.map((c) => c.endpoint_id)),
    ]);
    const byEndpoint = new Map<string, ClaimedDelivery[]>();
    for (const c of claimed) byEndpoint.set(c.endpoint_id, [...(byEndpoint.get(c.endpoint_id) ?? []), c]);
    const outcomes: Outcome[] = [];
    await Promise.all(
      [...byEndpoint.values()].map(async (queue) => {
        queue.sort((a, b) => (a.event_id < b.event_id ? -1 : 1));
        // A sliding window: up to WINDOW attempts in flight, each started in event order as soon as
        // one before it answers. After a failure nothing more is started for this endpoint.
        let next = 0;
        let failed: Outcome | undefined;
        const lane = async () => {
          while (!failed && next < queue.length) {
            const claim = queue[next++];
            const endpoint = endpoints.get(claim.endpoint_id);
            const event = events.get(claim.event_id);
            if (!endpoint || !event || endpoint.status !== 'enabled') continue;
            const outcome = await this.attempt(claim, event, endpoint, mode);
            outcomes.push(outcome);
            if (!outcome.ok) failed ??= outcome;
          }
        };
        await Promise.all(Array.from({ length: Math.min(WINDOW, queue.length) }, lane));
        if (failed && next < queue.length) {
          // The receiver is failing: the rest of its queue waits with the failed one, in order.
          await this.webhooks.release(
            queue.slice(next),
            failed.retryAt ?? new Date(failed.at.getTime() + retryDelayMs(1)),
          );
        }
      }),
    );
    return { claimed: claimed.length, outcomes };
  }

  /**
   * The batch's attempts and outcomes in one transaction (a crash before it only repeats the
   * batch's sends after the lease: at least once). An outcome is written only if its claim still
   * holds; a delivery given up disables its endpoint.
   */
  private async record(outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const now = this.clock.now();
    await this.webhooks.transaction(async (manager) => {
      await this.webhooks.insertAttempts(
        outcomes.map((o) => attemptRecord(o.claimed, o.event, o.result, o.ok, o.retryAt, o.at)),
        manager,
      );
      const written = await this.webhooks.recordOutcomes(
        outcomes.map((o) => ({
          claimed: o.claimed,
          outcome: o.ok
            ? { status: 'succeeded', next_attempt_at: null, delivered_at: o.at }
            : { status: o.retryAt ? 'pending' : 'failed', next_attempt_at: o.retryAt, delivered_at: null },
        })),
        now,
        manager,
      );
      for (const o of outcomes) {
        if (o.ok || o.retryAt || !written.has(`${o.claimed.endpoint_id}/${o.claimed.event_id}`)) continue;
        const why = o.result.statusCode !== null ? `HTTP ${o.result.statusCode}` : (o.result.error ?? 'no answer');
        await this.endpoints.disableForFailures(
          o.endpoint,
          `Deliveries failed for 3 days (${o.claimed.attempts} attempts of event ${o.event.id}; last: ${why}).`,
          manager,
        );
      }
    });
    for (const o of outcomes) {
      this.metrics.attempted(o.ok ? 'succeeded' : o.retryAt ? 'failed' : 'gave_up', o.claimed.attempts);
    }
  }

  /** One HTTP attempt, with no transaction open and no row locked; its outcome is recorded with the batch's. */
  private async attempt(
    claimed: ClaimedDelivery,
    event: Event,
    endpoint: WebhookEndpoint,
    mode: Mode,
  ): Promise<Outcome> {
    const payload = JSON.stringify(toEventResponse(event));
    const sentAt = this.clock.now();
    const result = await postWebhook(
      endpoint.url,
      payload,
      {
        'user-agent': 'wallet-webhooks/1',
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signatures(endpoint, event.id, sentAt, payload),
      },
      mode,
      DELIVERY_TIMEOUT_MS,
    );
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const at = this.clock.now();
    const retryAt = ok ? null : nextRetryAt(claimed.attempts, claimed.retry_window_from, at);
    return { claimed, event, endpoint, result, ok, retryAt, at };
  }
}

interface Outcome {
  claimed: ClaimedDelivery;
  event: Event;
  endpoint: WebhookEndpoint;
  result: SendResult;
  ok: boolean;
  /** The next attempt; null when it succeeded or the retry window is over. */
  retryAt: Date | null;
  at: Date;
}

/**
 * `v1,<sig>` with the current secret, and during a rotation's overlap also with the previous one,
 * space-separated as Standard Webhooks allows: receivers holding either secret verify.
 */
function signatures(endpoint: WebhookEndpoint, msgId: string, at: Date, payload: string): string {
  const current = new Webhook(endpoint.secret).sign(msgId, at, payload);
  const previous =
    endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > at
      ? new Webhook(endpoint.previous_secret).sign(msgId, at, payload)
      : null;
  return previous ? `${current} ${previous}` : current;
}

function attemptRecord(
  claimed: ClaimedDelivery,
  event: Event,
  result: SendResult,
  ok: boolean,
  retryAt: Date | null,
  at: Date,
): WebhookAttempt {
  return Object.assign(new WebhookAttempt(), {
    id: newId(),
    application_id: claimed.application_id,
    endpoint_id: claimed.endpoint_id,
    event_id: claimed.event_id,
    event_type: event.type,
    attempt: claimed.attempts,
    outcome: ok ? 'succeeded' : 'failed',
    status_code: result.statusCode,
    duration_ms: result.durationMs,
    response_excerpt: result.excerpt,
    error: result.error,
    next_retry_at: retryAt,
    created_at: at,
  });
}
