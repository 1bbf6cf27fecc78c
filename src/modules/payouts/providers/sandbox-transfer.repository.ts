import { Injectable } from '@nestjs/common';
import { ModeDb } from '../../../common/database/mode-db.js';

export interface SandboxRecipientRow {
  reference: string;
  bank_account_id: string;
  type: string;
  routing_number: string;
  received: Record<string, unknown>;
}

/** The sandbox transfer provider's own tables (recipients it received, whether it fails on purpose), per mode. */
@Injectable()
export class SandboxTransferRepository {
  constructor(private readonly db: ModeDb) {}

  async isFailing(applicationId: string): Promise<boolean> {
    const rows: Array<{ failing: boolean }> = await this.db.manager.query(
      `SELECT failing FROM ${this.db.table('transfer_sandbox_settings')} WHERE application_id = $1`,
      [applicationId],
    );
    return rows[0]?.failing ?? false;
  }

  async setFailing(applicationId: string, failing: boolean): Promise<void> {
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('transfer_sandbox_settings')} (application_id, failing) VALUES ($1, $2)
       ON CONFLICT (application_id) DO UPDATE SET failing = EXCLUDED.failing`,
      [applicationId, failing],
    );
  }

  async insertRecipient(applicationId: string, row: SandboxRecipientRow, at: Date): Promise<void> {
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('transfer_sandbox_recipients')}
         (reference, application_id, bank_account_id, type, routing_number, received, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        row.reference,
        applicationId,
        row.bank_account_id,
        row.type,
        row.routing_number,
        JSON.stringify(row.received),
        at,
      ],
    );
  }

  recipients(applicationId: string): Promise<SandboxRecipientRow[]> {
    return this.db.manager.query(
      `SELECT reference, bank_account_id, type, routing_number, received
         FROM ${this.db.table('transfer_sandbox_recipients')} WHERE application_id = $1 ORDER BY created_at, reference`,
      [applicationId],
    );
  }
}
