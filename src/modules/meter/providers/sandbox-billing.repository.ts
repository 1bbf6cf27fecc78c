import { Injectable } from '@nestjs/common';
import { ModeDb } from '../../../common/database/mode-db.js';
import type { ForwardedMeterEvent } from './billing.types.js';

export interface SandboxReceivedEvent {
  identifier: string;
  event_name: string;
  payload: Record<string, string>;
  received_count: number;
}

/** The sandbox billing provider's own tables (what it was sent, and whether it fails on purpose), per mode. */
@Injectable()
export class SandboxBillingRepository {
  constructor(private readonly db: ModeDb) {}

  async insertCustomer(reference: string, applicationId: string, customerId: string, at: Date): Promise<void> {
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('billing_sandbox_customers')} (reference, application_id, customer_id, created_at) VALUES ($1, $2, $3, $4)`,
      [reference, applicationId, customerId, at],
    );
  }

  /** Idempotent on the event identifier: a repeat counts as received again, never as a second event. */
  async recordEvent(event: ForwardedMeterEvent, at: Date): Promise<void> {
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('billing_sandbox_events')} (identifier, application_id, event_name, payload, occurred_at, received_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (application_id, identifier) DO UPDATE SET received_count = billing_sandbox_events.received_count + 1`,
      [event.identifier, event.applicationId, event.eventName, JSON.stringify(event.payload), event.occurredAt, at],
    );
  }

  async setFailing(applicationId: string, failing: boolean): Promise<void> {
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('billing_sandbox_settings')} (application_id, failing) VALUES ($1, $2)
       ON CONFLICT (application_id) DO UPDATE SET failing = EXCLUDED.failing`,
      [applicationId, failing],
    );
  }

  async isFailing(applicationId: string): Promise<boolean> {
    const rows: Array<{ failing: boolean }> = await this.db.manager.query(
      `SELECT failing FROM ${this.db.table('billing_sandbox_settings')} WHERE application_id = $1`,
      [applicationId],
    );
    return rows[0]?.failing ?? false;
  }

  received(applicationId: string): Promise<SandboxReceivedEvent[]> {
    return this.db.manager.query(
      `SELECT identifier, event_name, payload, received_count FROM ${this.db.table('billing_sandbox_events')}
       WHERE application_id = $1 ORDER BY received_at, identifier`,
      [applicationId],
    );
  }
}
