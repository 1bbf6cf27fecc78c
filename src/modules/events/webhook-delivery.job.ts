import { withLinkedSpan } from '../../common/observability/trace-context.js';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Mode } from '../../common/context/principal.js';
import { GroupCommit } from '../../common/database/group-commit.js';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import { MODES } from '../../common/tenancy/modes.js';
import type { AllConfig } from '../../config/app.config.js';
import { EndpointSlots } from './endpoint-slots.js';
import { attemptDelivery, type Outcome } from './webhook-attempt.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { DELIVERY_TIMEOUT_MS } from './webhook-sender.js';
import { WebhooksRepository, type AttemptOutcome, type ClaimedDelivery } from './webhooks.repository.js';

/** How often each replica looks for due deliveries (an empty look is one index probe per mode). */
export const DELIVERY_POLL_MS = 200;
/**
 * How long a claim holds a delivery: only what starts at once is claimed, so this covers one
 * attempt (cut at DELIVERY_TIMEOUT_MS) and the writing of its outcome. A process killed
 * mid-attempt leaves its deliveries due again this long after they were claimed.
 */
export const DELIVERY_LEASE_MS = DELIVERY_TIMEOUT_MS + 10_000;
/** Outcomes written in one statement at most; those finishing meanwhile wait for the next. */
const RECORD_BATCH = 500;
/** Deliveries one claim statement takes at most; when it takes that many, another follows at once. */
const CLAIM_MAX = 64;

/**
 * Sends what the event log owes webhook endpoints (docs/EVENTS.md "How delivery runs"). A claim
 * takes, per endpoint, as many due deliveries as that endpoint has free slots here
 * (WEBHOOK_ENDPOINT_CONCURRENCY), leases them and writes their attempts as `sending`; each is sent
 * at once, with no transaction open and no row locked, and its outcome is written as soon as it
 * answers (outcomes finishing together share a statement). Freed slots are filled in chunks (a
 * claim once an endpoint has a quarter of its slots free, EndpointSlots.refillAt), so no
 * endpoint waits for another's receivers, and ticks are never held by attempts in flight.
 */
@Injectable()
export class WebhookDeliveryJob extends PeriodicJob {
  private readonly slots: EndpointSlots;
  private readonly recorders = new Map<Mode, GroupCommit<Outcome, boolean>>();
  /** Per mode, the claim running for the job's own ticks and wake-ups, and whether another is asked for. */
  private readonly pumps = new Map<Mode, { running: Promise<void>; again: boolean }>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly endpoints: WebhookEndpointsService,
    private readonly metrics: WebhookMetrics,
    config: ConfigService<AllConfig, true>,
  ) {
    super(DELIVERY_POLL_MS);
    this.slots = new EndpointSlots(config.get('app.webhookEndpointConcurrency', { infer: true }));
  }

  protected async runOnce(): Promise<void> {
    for (const mode of MODES) await this.pump(mode);
  }

  /** Waits, on shutdown, for the attempts in flight and their outcomes (each within DELIVERY_TIMEOUT_MS). */
  override async beforeApplicationShutdown(): Promise<void> {
    await super.beforeApplicationShutdown();
    await Promise.allSettled([...this.pumps.values()].map((p) => p.running));
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Delivers everything due now in the given modes, and returns once every attempt it started is
   * recorded; returns how many attempts were made. `scope.applicationIds` limits it to those
   * applications' deliveries (tests sharing one database move their own clock; they must not take
   * other suites' deliveries).
   */
  async deliverDue(modes: readonly Mode[] = MODES, scope: Pick<JobScope, 'applicationIds'> = {}): Promise<number> {
    let attempted = 0;
    for (const mode of modes) {
      const sending = new Set<Promise<boolean>>();
      const recording = new Set<Promise<void>>();
      for (;;) {
        const started = await this.context.runInMode(mode, () => this.startDue(mode, scope.applicationIds ?? null));
        for (const { freed, recorded } of started) {
          sending.add(freed);
          void freed.then(() => sending.delete(freed));
          recording.add(recorded);
          void recorded.then(() => recording.delete(recorded));
        }
        attempted += started.length;
        if (started.length === CLAIM_MAX) continue;
        // A claim takes more once an endpoint has enough free slots (EndpointSlots.refillAt), or
        // once a failure is recorded (its endpoint held till then).
        if (sending.size > 0) {
          while (sending.size > 0 && !(await Promise.race(sending)));
        } else if (recording.size > 0) await Promise.all(recording);
        else if (started.length === 0) break;
      }
    }
    return attempted;
  }

  /** The job's own claim for `mode`, run again at once if asked for while it ran (a freed slot). */
  private pump(mode: Mode): Promise<void> {
    const pump = this.pumps.get(mode);
    if (pump) {
      pump.again = true;
      return pump.running;
    }
    const state = { running: Promise.resolve(), again: false };
    state.running = (async () => {
      let full: boolean;
      do {
        state.again = false;
        const started = await this.context.runInMode(mode, () => this.startDue(mode, null));
        for (const { freed } of started) {
          void freed.then((refill) => {
            if (refill && !this.stopping) void this.pump(mode);
          });
        }
        full = started.length === CLAIM_MAX;
      } while ((state.again || full) && !this.stopping);
    })()
      .catch((error: unknown) => this.logger.error({ err: error }, 'webhook delivery claim failed'))
      .finally(() => this.pumps.delete(mode));
    this.pumps.set(mode, state);
    return state.running;
  }

  /**
   * Claims what the endpoints' free slots allow and starts each attempt. `freed` settles when the
   * attempt's slot is free again (with whether its endpoint has enough free slots for a claim) (the receiver answered: its lease keeps the delivery from other
   * claims until the outcome is written), `recorded` once its outcome is written. Neither rejects:
   * a failed write is logged, and the lease brings the delivery back.
   */
  private async startDue(mode: Mode, applicationIds: readonly string[] | null): Promise<Started[]> {
    const now = this.clock.now();
    const claimed = await this.webhooks.startDue(
      now,
      new Date(now.getTime() + DELIVERY_LEASE_MS),
      this.slots.limits(),
      CLAIM_MAX,
      applicationIds,
    );
    if (claimed.length === 0) return [];
    claimed.sort((a, b) =>
      a.endpoint_id === b.endpoint_id ? (a.event_id < b.event_id ? -1 : 1) : a.endpoint_id < b.endpoint_id ? -1 : 1,
    );
    return claimed.map(({ event, endpoint, ...claim }) => {
      this.slots.started(claim.endpoint_id);
      let free = () => {};
      const freed = new Promise<boolean>((resolve) => {
        free = () => {
          free = () => {};
          resolve(this.slots.ended(claim.endpoint_id));
        };
      });
      const recorded = this.attempt(mode, claim, event ?? undefined, endpoint ?? undefined, () => free())
        .catch((error: unknown) => this.logger.error({ err: error }, 'webhook attempt not recorded'))
        .finally(() => {
          free();
          this.inFlight.delete(recorded);
        });
      this.inFlight.add(recorded);
      return { freed, recorded };
    });
  }

  /**
   * Sends one claimed delivery and records its outcome. After a failure nothing more starts for the
   * endpoint until the failure is recorded, with the endpoint's waiting deliveries held behind it.
   */
  private async attempt(
    mode: Mode,
    claim: ClaimedDelivery,
    event: Outcome['event'] | undefined,
    endpoint: Outcome['endpoint'] | undefined,
    answered: () => void,
  ): Promise<void> {
    if (!event || !endpoint || endpoint.status !== 'enabled') {
      answered();
      // Disabling an endpoint cancels its deliveries and deleting it deletes them: this claim's
      // outcome would never be written, so its attempt row is only closed, unsent.
      await this.webhooks.recordOutcomes([{ claimed: claim, ...NOT_SENT }], this.clock.now());
      return;
    }
    // With tracing on: a span of its own, linked to the trace of the request that recorded the event.
    const outcome = await withLinkedSpan(
      'webhook.deliver',
      event.traceparent,
      { 'wallet.event.id': event.id, 'wallet.event.type': event.type, 'wallet.webhook_endpoint.id': endpoint.id },
      () => attemptDelivery(claim, event, endpoint, this.endpoints.policy(mode), () => this.clock.now()),
    );
    if (!outcome.ok) this.slots.failed(claim.endpoint_id);
    answered();
    try {
      await this.recorder(mode).submit([outcome]);
    } finally {
      if (!outcome.ok) this.slots.recorded(claim.endpoint_id);
    }
  }

  private recorder(mode: Mode): GroupCommit<Outcome, boolean> {
    let recorder = this.recorders.get(mode);
    if (!recorder) {
      recorder = new GroupCommit<Outcome, boolean>({
        flush: (outcomes) => this.context.runInMode(mode, () => this.record(outcomes)),
        concurrency: 1,
        maxRows: RECORD_BATCH,
      });
      this.recorders.set(mode, recorder);
    }
    return recorder;
  }

  /**
   * Outcomes in one statement (WebhooksRepository.recordOutcomes); with a delivery given up, in a
   * transaction that also disables its endpoint. Answers, per outcome, whether it was written (not
   * if another run claimed the delivery again since).
   */
  private async record(outcomes: Outcome[]): Promise<boolean[]> {
    const now = this.clock.now();
    const rows = outcomes.map(attemptOutcome);
    const givenUp = outcomes.filter((o) => !o.ok && !o.retryAt);
    const written =
      givenUp.length === 0
        ? await this.webhooks.recordOutcomes(rows, now)
        : await this.webhooks.transaction(async (manager) => {
            const done = await this.webhooks.recordOutcomes(rows, now, manager);
            for (const o of givenUp) {
              if (!done.has(key(o.claimed))) continue;
              const why =
                o.result.statusCode !== null ? `HTTP ${o.result.statusCode}` : (o.result.error ?? 'no answer');
              await this.endpoints.disableForFailures(
                o.endpoint,
                `Deliveries failed for 3 days (${o.claimed.attempts} attempts of event ${o.event.id}; last: ${why}).`,
                manager,
              );
            }
            return done;
          });
    for (const o of outcomes) {
      if (!written.has(key(o.claimed))) continue;
      this.metrics.attempted(o.ok ? 'succeeded' : o.retryAt ? 'failed' : 'gave_up', o.claimed.attempts);
    }
    return outcomes.map((o) => written.has(key(o.claimed)));
  }
}

interface Started {
  /** Settles when the slot is free again: true if its endpoint now has enough free slots to refill. */
  freed: Promise<boolean>;
  recorded: Promise<void>;
}

const key = (c: ClaimedDelivery) => `${c.endpoint_id}/${c.event_id}`;

/** A claim whose endpoint was disabled (its deliveries canceled) or deleted since: closed unsent. */
const NOT_SENT: Omit<AttemptOutcome, 'claimed'> = {
  attempt: {
    outcome: 'failed',
    status_code: null,
    duration_ms: 0,
    response_excerpt: null,
    error: 'not sent: the endpoint is no longer enabled',
    next_retry_at: null,
  },
  delivery: { status: 'canceled', delivered_at: null },
};

function attemptOutcome(o: Outcome): AttemptOutcome {
  return {
    claimed: o.claimed,
    attempt: {
      outcome: o.ok ? 'succeeded' : 'failed',
      status_code: o.result.statusCode,
      duration_ms: o.result.durationMs,
      response_excerpt: o.result.excerpt,
      error: o.result.error,
      next_retry_at: o.retryAt,
    },
    delivery: { status: o.ok ? 'succeeded' : o.retryAt ? 'pending' : 'failed', delivered_at: o.ok ? o.at : null },
  };
}
