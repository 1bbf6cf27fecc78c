import type { EntityManager } from 'typeorm';
import type { EventType } from './event-types.js';

export interface EventRequest {
  id: string;
  idempotency_key: string | null;
}

export interface RecordEvent {
  applicationId: string;
  type: EventType;
  /** The resource exactly as the API returns it (its *.responses.ts mapper). */
  object: object;
  previous_attributes?: Record<string, unknown>;
  /** The request that caused it; by default the current request (null in a job). */
  request?: EventRequest | null;
}

/**
 * The port every module records events through: the events module implements it (a global
 * provider), so the ledger and the other features record events without importing that module.
 * `record` writes the event in the caller's transaction (`manager`): no change without its event.
 */
export abstract class EventRecorder {
  abstract record(manager: EntityManager, event: RecordEvent): Promise<void>;
}
