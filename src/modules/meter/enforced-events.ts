import { Injectable } from '@nestjs/common';
import { Histogram } from 'prom-client';
import type { EntityManager } from 'typeorm';
import type { Mode } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { KeyedGroupCommit } from '../../common/database/keyed-group-commit.js';
import { AppError } from '../../common/errors/app-error.js';
import { Metrics } from '../../common/observability/metrics.js';
import { CreditGate, type CreditDecision } from './credit-gate.js';
import type { Meter } from './entities/meter.entity.js';
import { MeterEventsRepository, type StoredEventRow } from './meter-events.repository.js';
import { MeterErrors } from './meter.errors.js';
import type { StoreRow } from './store-events.sql.js';

/** An event of a credit-enforced meter, ready to store, with what its admission needs. */
export interface EnforcedRow extends StoreRow {
  mode: Mode;
  aggregation: Meter['aggregation'];
}

/** The most events one transaction of a customer carries (five batch requests of 100). */
const MAX_EVENTS = 500;

/**
 * Ingestion of credit-enforced meter events (docs/METERING.md, "Prepaid credit"). The events of one
 * customer and meter all lock the same rows (the item's usage bucket, the customer's usage row), so
 * they can only commit one after another. Instead of one transaction each, they queue per customer
 * and meter in this process: what arrives while the customer's transaction commits goes together in
 * the next one, where each event is still decided on its own, in arrival order, against the credit
 * left by the ones before it (admitted, or refused with E8030/E8031). Every request is answered only
 * after the transaction carrying its events has committed. The queue only saves commits: the locks
 * taken in the transaction stay the authority, so replicas, each with its own queue, stay exact.
 */
@Injectable()
export class EnforcedEvents {
  private readonly queues: KeyedGroupCommit<EnforcedRow, StoredEventRow | AppError>;
  private readonly perTransaction: Histogram<'mode'>;

  constructor(
    private readonly events: MeterEventsRepository,
    private readonly credit: CreditGate,
    private readonly context: RequestContext,
    metrics: Metrics,
  ) {
    this.perTransaction = new Histogram({
      name: 'wallet_meter_enforced_events_per_transaction',
      help: 'Credit-enforced meter events per transaction (the concurrent events of one customer and meter share one), by mode.',
      labelNames: ['mode'] as const,
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
      registers: [metrics.registry],
    });
    this.queues = new KeyedGroupCommit({
      concurrency: 1,
      maxRows: MAX_EVENTS,
      // The flush serves many requests: it runs in a context of its own, bound to their mode.
      flush: (_key, rows) =>
        this.context.runInMode(rows[0].mode, () => {
          this.perTransaction.labels({ mode: rows[0].mode }).observe(rows.length);
          return this.events.storeAdmitted(rows, (fresh, manager) => this.admit(fresh, manager));
        }),
    });
  }

  /**
   * Stores `rows` (of one application, customer and meter, in this order) once admitted; answers per
   * row the stored event (the original for a repeated identifier) or its refusal. A submission is
   * never split: a batch request's events of one customer commit together.
   */
  store(rows: EnforcedRow[]): Promise<Array<StoredEventRow | AppError>> {
    const [first] = rows;
    return this.queues.submit(`${first.mode}:${first.applicationId}:${first.customerId}:${first.meterId}`, rows);
  }

  private async admit(fresh: EnforcedRow[], manager: EntityManager): Promise<Array<AppError | null>> {
    const decisions = await this.credit.reserve(
      fresh.map((row) => ({
        applicationId: row.applicationId,
        customerId: row.customerId,
        meterId: row.meterId,
        aggregation: row.aggregation,
        value: row.value,
        occurredAt: row.occurredAt,
      })),
      manager,
    );
    return decisions.map((decision, i) => refusal(decision, fresh[i]));
  }
}

function refusal(decision: CreditDecision, row: EnforcedRow): AppError | null {
  if (decision.ok) return null;
  if (decision.reason === 'no_price') {
    return new AppError(
      MeterErrors.E8031,
      `Customer "${row.customerId}" has no active subscription with a price on meter "${row.eventName}", which enforces prepaid credit.`,
    ).on('customer_id');
  }
  return new AppError(
    MeterErrors.E8030,
    `This event costs ${decision.cost} ${decision.currency} (minor units); the customer's remaining credit after unbilled usage is ${decision.available}.`,
  );
}
