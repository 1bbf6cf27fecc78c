import { Injectable } from '@nestjs/common';
import { ModeDb } from '../../../common/database/mode-db.js';

export interface SandboxTransferRow {
  reference: string;
  payout_id: string;
  recipient_reference: string;
  amount: string;
  currency: string;
  status: 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled';
  failure_code: string | null;
}

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

  async recipient(reference: string): Promise<SandboxRecipientRow | null> {
    const rows: SandboxRecipientRow[] = await this.db.manager.query(
      `SELECT reference, bank_account_id, type, routing_number, received
         FROM ${this.db.table('transfer_sandbox_recipients')} WHERE reference = $1`,
      [reference],
    );
    return rows[0] ?? null;
  }

  /** Inserts the transfer of a payout once (the payout id is the idempotency key); answers the stored one. */
  async insertTransfer(
    applicationId: string,
    row: Omit<SandboxTransferRow, 'amount'> & { amount: number },
    at: Date,
  ): Promise<SandboxTransferRow> {
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('transfer_sandbox_transfers')}
         (reference, application_id, payout_id, recipient_reference, amount, currency, status, failure_code, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) ON CONFLICT (payout_id) DO NOTHING`,
      [
        row.reference,
        applicationId,
        row.payout_id,
        row.recipient_reference,
        row.amount,
        row.currency,
        row.status,
        row.failure_code,
        at,
      ],
    );
    const rows: SandboxTransferRow[] = await this.db.manager.query(
      `SELECT reference, payout_id, recipient_reference, amount::text AS amount, currency, status, failure_code
         FROM ${this.db.table('transfer_sandbox_transfers')} WHERE payout_id = $1`,
      [row.payout_id],
    );
    return rows[0];
  }

  async transfer(reference: string): Promise<SandboxTransferRow | null> {
    const rows: SandboxTransferRow[] = await this.db.manager.query(
      `SELECT reference, payout_id, recipient_reference, amount::text AS amount, currency, status, failure_code
         FROM ${this.db.table('transfer_sandbox_transfers')} WHERE reference = $1`,
      [reference],
    );
    return rows[0] ?? null;
  }

  /** Moves a transfer from one of `from` to `to`; answers the transfer as it is afterwards. */
  async moveTransfer(
    reference: string,
    from: string[],
    to: SandboxTransferRow['status'],
    failureCode: string | null,
    at: Date,
  ): Promise<SandboxTransferRow | null> {
    await this.db.manager.query(
      `UPDATE ${this.db.table('transfer_sandbox_transfers')}
          SET status = $2, failure_code = $3, updated_at = $4
        WHERE reference = $1 AND status = ANY($5::text[])`,
      [reference, to, failureCode, at, from],
    );
    return this.transfer(reference);
  }
}
