import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import type { BillingProvider, ForwardedMeterEvent } from './billing.types.js';
import { BillingProviderError } from './billing.types.js';

/**
 * The built-in, deterministic billing provider. It keeps what it was sent in its own tables
 * (per mode), so tests and operators can see exactly what a provider received, and it can be
 * told to fail for an application to exercise retries.
 */
@Injectable()
export class SandboxBillingProvider implements BillingProvider {
  readonly name = 'sandbox';

  constructor(
    private readonly db: ModeDb,
    private readonly clock: Clock,
  ) {}

  async createCustomer(applicationId: string, customerId: string): Promise<string> {
    await this.assertUp(applicationId);
    const reference = `cus_sbx_${randomBytes(12).toString('base64url')}`;
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('billing_sandbox_customers')} (reference, application_id, customer_id, created_at) VALUES ($1, $2, $3, $4)`,
      [reference, applicationId, customerId, this.clock.now()],
    );
    return reference;
  }

  async sendMeterEvent(event: ForwardedMeterEvent): Promise<void> {
    await this.assertUp(event.applicationId);
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('billing_sandbox_events')} (identifier, application_id, event_name, payload, occurred_at, received_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (application_id, identifier) DO UPDATE SET received_count = billing_sandbox_events.received_count + 1`,
      [
        event.identifier,
        event.applicationId,
        event.eventName,
        JSON.stringify(event.payload),
        event.occurredAt,
        this.clock.now(),
      ],
    );
  }

  /** Test control: make the sandbox refuse everything for this application (true) or recover (false). */
  async setFailing(applicationId: string, failing: boolean): Promise<void> {
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('billing_sandbox_settings')} (application_id, failing) VALUES ($1, $2)
       ON CONFLICT (application_id) DO UPDATE SET failing = EXCLUDED.failing`,
      [applicationId, failing],
    );
  }

  /** What the sandbox received for an application, oldest first. */
  received(
    applicationId: string,
  ): Promise<
    Array<{ identifier: string; event_name: string; payload: Record<string, string>; received_count: number }>
  > {
    return this.db.manager.query(
      `SELECT identifier, event_name, payload, received_count FROM ${this.db.table('billing_sandbox_events')}
       WHERE application_id = $1 ORDER BY received_at, identifier`,
      [applicationId],
    );
  }

  private async assertUp(applicationId: string): Promise<void> {
    const rows: Array<{ failing: boolean }> = await this.db.manager.query(
      `SELECT failing FROM ${this.db.table('billing_sandbox_settings')} WHERE application_id = $1`,
      [applicationId],
    );
    if (rows[0]?.failing)
      throw new BillingProviderError('sandbox billing provider is failing on purpose for this application');
  }
}
