import { Injectable } from '@nestjs/common';
import { ModeDb } from '../../../common/database/mode-db.js';
import type { ForwardedMeterEvent } from '../../../providers/ports/billing.port.js';

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

  /**
   * Records a batch in one statement, except the events of applications told to fail, whose
   * positions in `events` come back. Idempotent on (application, identifier), the events'
   * idempotency key: a repeat counts as received again (received_count), never as a second event.
   * Committed without waiting for the WAL flush ({@link ModeDb.asyncCommit}): the sandbox stands for
   * a provider outside this database, and the forwarder marks the batch delivered only in a later
   * commit, which a crash loses first, so a lost record is sent again.
   */
  async recordEvents(events: ForwardedMeterEvent[], at: Date): Promise<Set<number>> {
    const settings = this.db.table('billing_sandbox_settings');
    const table = this.db.table('billing_sandbox_events');
    const input = events.map((e, i) => ({
      i,
      identifier: e.identifier,
      application_id: e.applicationId,
      event_name: e.eventName,
      payload: e.payload,
      occurred_at: e.occurredAt.toISOString(),
    }));
    const refused: Array<{ i: number }> = await this.db.asyncCommit((manager) =>
      manager.query(
        `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb)
           AS x(i int, identifier text, application_id uuid, event_name text, payload jsonb, occurred_at timestamptz)
       ), failing AS (
         SELECT application_id FROM ${settings}
         WHERE failing AND application_id IN (SELECT application_id FROM input)
       ), accepted AS (
         SELECT DISTINCT ON (application_id, identifier) * FROM input
         WHERE application_id NOT IN (SELECT application_id FROM failing)
         ORDER BY application_id, identifier, i
       ), recorded AS (
         INSERT INTO ${table} (identifier, application_id, event_name, payload, occurred_at, received_at)
         SELECT identifier, application_id, event_name, payload, occurred_at, $2 FROM accepted
         ON CONFLICT (application_id, identifier) DO UPDATE SET received_count = ${table}.received_count + 1
       )
       SELECT i FROM input WHERE application_id IN (SELECT application_id FROM failing)`,
        [JSON.stringify(input), at],
      ),
    );
    return new Set(refused.map((r) => r.i));
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
