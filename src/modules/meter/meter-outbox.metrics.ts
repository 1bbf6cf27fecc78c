import { Injectable, Logger } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { Clock } from '../../common/clock.js';
import type { Mode } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { Metrics } from '../../common/observability/metrics.js';
import { forEachMode } from '../../common/tenancy/modes.js';
import { MeterEventsRepository } from './meter-events.repository.js';

/** The backlog gauge counts at most this many rows, so a scrape never scans an unbounded outbox. */
export const BACKLOG_CAP = 100_000;

type OutboxState = Array<{ mode: Mode; backlog: number; ageSeconds: number }>;

/**
 * The meter outbox in `/metrics`, read on each scrape with one bounded query per mode:
 * `wallet_meter_outbox_backlog` (rows not yet delivered or abandoned, retries included; at most
 * BACKLOG_CAP) and `wallet_meter_outbox_oldest_age_seconds` (how long the oldest of them has
 * waited, on the service Clock; 0 when none waits).
 */
@Injectable()
export class MeterOutboxMetrics {
  /** The read in flight, shared by both gauges of one scrape (prom-client collects them concurrently). */
  private reading: Promise<OutboxState> | undefined;
  private readonly logger = new Logger(MeterOutboxMetrics.name);

  constructor(
    metrics: Metrics,
    private readonly events: MeterEventsRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {
    const read = () => this.read();
    new Gauge({
      name: 'wallet_meter_outbox_backlog',
      help: `Meter events waiting in the outbox for their billing provider, by mode (counted up to ${BACKLOG_CAP}).`,
      labelNames: ['mode'] as const,
      registers: [metrics.registry],
      async collect() {
        for (const { mode, backlog } of await read()) this.set({ mode }, backlog);
      },
    });
    new Gauge({
      name: 'wallet_meter_outbox_oldest_age_seconds',
      help: 'Age in seconds of the oldest meter event waiting in the outbox, by mode (0 when none waits).',
      labelNames: ['mode'] as const,
      registers: [metrics.registry],
      async collect() {
        for (const { mode, ageSeconds } of await read()) this.set({ mode }, ageSeconds);
      },
    });
  }

  /** An unreachable database leaves the gauges as they were (logged), so /metrics still answers. */
  private read(): Promise<OutboxState> {
    this.reading ??= this.query()
      .catch((err: unknown) => {
        this.logger.warn({ err }, 'meter outbox gauges not refreshed');
        return [];
      })
      .finally(() => (this.reading = undefined));
    return this.reading;
  }

  private query(): Promise<OutboxState> {
    return forEachMode(async (mode) => {
      const { backlog, oldest } = await this.context.runInMode(mode, () => this.events.outboxBacklog(BACKLOG_CAP));
      const ageSeconds = oldest ? Math.max(0, (this.clock.nowMs() - new Date(oldest).getTime()) / 1000) : 0;
      return { mode, backlog, ageSeconds };
    });
  }
}
