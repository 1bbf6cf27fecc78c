export interface ForwardedMeterEvent {
  applicationId: string;
  /**
   * The event's identifier, unique per application: the provider's idempotency key. A provider
   * counts an event once per (application, identifier) however often it is sent (Stripe's meter
   * events dedupe on `identifier` the same way), so the outbox may redeliver after a crash.
   */
  identifier: string;
  eventName: string;
  /** The metric value (a numeric string) under the meter's payload key, and `customer` = provider reference. */
  payload: Record<string, string>;
  occurredAt: Date;
}

/**
 * What became of one event of a batch: accepted (a repeat of an accepted identifier is accepted too),
 * or refused. A refusal is retried with backoff, unless `permanent`: the provider will never accept
 * this event as sent (Stripe's meter error reports: an unknown customer, an invalid value), so it is
 * abandoned at once instead of after every retry.
 */
export type MeterEventOutcome = { ok: true } | { ok: false; error: string; permanent?: boolean };

/** What a billing provider does for the wallet: customer references and meter event intake. */
export interface BillingProvider {
  readonly name: string;
  createCustomer(applicationId: string, customerId: string): Promise<string>;
  /**
   * Sends a batch of events (their provider's batch endpoint where it has one) and answers one
   * outcome per event, in the order given. Must be idempotent on (application, identifier): the
   * outbox may deliver an event again after a crash. Throwing fails the whole batch.
   */
  sendMeterEvents(events: ForwardedMeterEvent[]): Promise<MeterEventOutcome[]>;
}

export class BillingProviderError extends Error {}
