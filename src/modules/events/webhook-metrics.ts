import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { Clock } from '../../common/clock.js';
import { RequestContext } from '../../common/context/request-context.js';
import { Metrics } from '../../common/observability/metrics.js';
import { forEachMode } from '../../common/tenancy/modes.js';
import { EventsRepository } from './events.repository.js';

export type DeliveryOutcome = 'succeeded' | 'failed' | 'gave_up';

/** Webhook delivery in /metrics: attempts by outcome, attempts per delivered event, the oldest owed event. */
@Injectable()
export class WebhookMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly attemptsPerEvent: Histogram;

  constructor(metrics: Metrics, events: EventsRepository, context: RequestContext, clock: Clock) {
    this.attempts = new Counter({
      name: 'wallet_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (succeeded, failed and retried, gave_up after 3 days).',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
    this.attemptsPerEvent = new Histogram({
      name: 'wallet_webhook_attempts_per_event',
      help: 'Attempts a delivery took, counted when it succeeded or was given up.',
      buckets: [1, 2, 3, 5, 8, 12, 16, 20],
      registers: [metrics.registry],
    });
    new Gauge({
      name: 'wallet_webhook_oldest_undelivered_seconds',
      help: 'Age of the oldest event still owed to an enabled webhook endpoint, by mode.',
      labelNames: ['mode'] as const,
      registers: [metrics.registry],
      async collect() {
        await forEachMode(async (mode) => {
          const ms = await context.runInMode(mode, () => events.oldestUndeliveredMs(clock.now()));
          this.set({ mode }, ms / 1000);
        });
      },
    });
  }

  attempted(outcome: DeliveryOutcome, attempt: number): void {
    this.attempts.inc({ outcome });
    if (outcome !== 'failed') this.attemptsPerEvent.observe(attempt);
  }
}
