import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../common/clock.js';
import type { Mode } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import type { AllConfig } from '../../config/app.config.js';
import { BillingProviders } from './billing/billing-provider.js';
import { MeterErrors } from './meter.errors.js';

interface Claimed {
  event_id: string;
  application_id: string;
  attempts: number;
  identifier: string;
  event_name: string;
  payload: Record<string, string>;
  occurred_at: Date;
  provider: string;
}

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
    private readonly db: ModeDb,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly providers: BillingProviders,
    config: ConfigService<AllConfig, true>,
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

  private claim(): Promise<Claimed[]> {
    const now = this.clock.now();
    const outbox = this.db.table('meter_event_outbox');
    return this.db.manager.query(
      `WITH due AS (
         SELECT event_id FROM ${outbox} WHERE next_attempt_at <= $1
         ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
       ), leased AS (
         UPDATE ${outbox} o SET next_attempt_at = $2 FROM due WHERE o.event_id = due.event_id
         RETURNING o.event_id, o.application_id, o.attempts
       )
       SELECT l.event_id, l.application_id, l.attempts, e.identifier, e.event_name, e.payload, e.occurred_at, e.provider
       FROM leased l JOIN ${this.db.table('meter_events')} e ON e.id = l.event_id`,
      [now, new Date(now.getTime() + LEASE_MS)],
    );
  }

  private async deliver(row: Claimed): Promise<boolean> {
    const events = this.db.table('meter_events');
    const outbox = this.db.table('meter_event_outbox');
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
      const error = [
        { code: definition.code, message: `${definition.message} (attempt ${attempts}: ${(err as Error).message})` },
      ];
      await this.db.transaction(async (manager) => {
        await manager.query(`UPDATE ${events} SET errors = $2::jsonb, delivery_status = $3 WHERE id = $1`, [
          row.event_id,
          JSON.stringify(error),
          abandoned ? 'failed' : 'pending',
        ]);
        if (abandoned) await manager.query(`DELETE FROM ${outbox} WHERE event_id = $1`, [row.event_id]);
        else {
          await manager.query(`UPDATE ${outbox} SET attempts = $2, next_attempt_at = $3 WHERE event_id = $1`, [
            row.event_id,
            attempts,
            new Date(this.clock.nowMs() + backoffMs(attempts)),
          ]);
        }
      });
      return false;
    }
    await this.db.transaction(async (manager) => {
      await manager.query(
        `UPDATE ${events} SET delivery_status = 'delivered', delivered_at = $2, errors = '[]' WHERE id = $1`,
        [row.event_id, this.clock.now()],
      );
      await manager.query(`DELETE FROM ${outbox} WHERE event_id = $1`, [row.event_id]);
    });
    return true;
  }
}
