import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** One event of a credit-enforced meter, about to be stored in `manager`'s transaction. */
export interface CreditedEvent {
  applicationId: string;
  customerId: string;
  meterId: string;
  aggregation: 'sum' | 'count' | 'last' | 'max';
  /** The metric value, a decimal string. */
  value: string;
  occurredAt: Date;
}

/** What the credit owner answers for one event: taken (the cost is reserved in the transaction) or why not. */
export type CreditDecision =
  | { ok: true; cost: number; currency: string }
  | { ok: false; reason: 'insufficient_credit'; cost: number; currency: string; available: number }
  | { ok: false; reason: 'no_price' };

/**
 * Decides `events` (all of one application, customer and meter, in arrival order) in `manager`'s
 * transaction, one decision per event: each is rated and checked against the credit left by the
 * ones admitted before it, and the admitted ones' costs are reserved before the transaction commits.
 */
export type CreditReserver = (events: CreditedEvent[], manager: EntityManager) => Promise<CreditDecision[]>;

/**
 * The port through which ingestion asks whether events of a meter with `enforce_credit` still fit
 * the customer's prepaid credit. Metering imports no billing code: the billing module's credit part
 * supplies the reserver in its `onModuleInit` (it rates the events with the customer's subscription
 * price on the meter and raises the customer's unbilled usage in the caller's transaction). Without
 * a supplier every enforced event is refused, never let through unrated.
 */
@Injectable()
export class CreditGate {
  private reserver?: CreditReserver;

  supply(reserver: CreditReserver): void {
    this.reserver = reserver;
  }

  reserve(events: CreditedEvent[], manager: EntityManager): Promise<CreditDecision[]> {
    if (!this.reserver) return Promise.resolve(events.map(() => ({ ok: false, reason: 'no_price' }) as const));
    return this.reserver(events, manager);
  }
}
