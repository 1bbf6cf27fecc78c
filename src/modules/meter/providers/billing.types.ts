export interface ForwardedMeterEvent {
  applicationId: string;
  identifier: string;
  eventName: string;
  /** The metric value (a numeric string) under the meter's payload key, and `customer` = provider reference. */
  payload: Record<string, string>;
  occurredAt: Date;
}

/** What a billing provider does for the wallet: customer references and meter event intake. */
export interface BillingProvider {
  readonly name: string;
  createCustomer(applicationId: string, customerId: string): Promise<string>;
  /** Must be idempotent on (application, identifier): the outbox may deliver an event again after a crash. */
  sendMeterEvent(event: ForwardedMeterEvent): Promise<void>;
}

export class BillingProviderError extends Error {}
