import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import {
  TransferProviderError,
  type BankAccountType,
  type Recipient,
  type RecipientRequest,
  type TransferProvider,
} from './transfer.types.js';

const TYPES: Record<string, Record<BankAccountType, string>> = {
  TH: {
    bookbank: 'th_bank_account',
    promptpay_phone: 'th_promptpay_mobile',
    promptpay_primary_identify_id: 'th_promptpay_national_id',
  },
};

/** PromptPay proxy types as in the EMVCo PromptPay payload: 01 mobile number, 02 national ID. */
const PROMPTPAY_PROXY: Record<string, string> = {
  th_promptpay_mobile: 'PROMPTPAY-01',
  th_promptpay_national_id: 'PROMPTPAY-02',
};

const last4 = (value: string | undefined) => (value === undefined ? undefined : `****${value.slice(-4)}`);

/**
 * The built-in, deterministic transfer provider. It keeps the recipients it was sent in its own
 * per-mode table, so tests and operators see exactly what a provider received (account numbers,
 * phone numbers and national IDs only as their last 4), and it can be told to fail for an application.
 */
@Injectable()
export class SandboxTransferProvider implements TransferProvider {
  readonly name = 'sandbox';

  constructor(
    private readonly db: ModeDb,
    private readonly clock: Clock,
  ) {}

  providerType(country: string, type: BankAccountType): string | null {
    return TYPES[country]?.[type] ?? null;
  }

  async createRecipient(request: RecipientRequest): Promise<Recipient> {
    const rows: Array<{ failing: boolean }> = await this.db.manager.query(
      `SELECT failing FROM ${this.db.table('transfer_sandbox_settings')} WHERE application_id = $1`,
      [request.applicationId],
    );
    if (rows[0]?.failing) throw new TransferProviderError('sandbox transfer provider is failing on purpose');
    const reference = `rcp_sbx_${randomBytes(12).toString('base64url')}`;
    const routingNumber =
      PROMPTPAY_PROXY[request.providerType] ?? `${request.bankCode ?? ''}${request.branchCode ?? ''}`;
    const received = {
      type: request.providerType,
      currency: request.currency,
      name: request.accountHolderName,
      bank_code: request.bankCode,
      branch_code: request.branchCode,
      account_type: request.accountType,
      // What it received, as far as a test needs to see it: never the whole number.
      account_number: last4(request.accountNumber),
      account_number_length: request.accountNumber?.length,
      phone_number: last4(request.phoneNumber),
      phone_number_length: request.phoneNumber?.length,
      national_id: last4(request.nationalId),
      national_id_length: request.nationalId?.length,
      ...request.passthrough,
    };
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('transfer_sandbox_recipients')}
         (reference, application_id, bank_account_id, type, routing_number, received, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        reference,
        request.applicationId,
        request.bankAccountId,
        request.providerType,
        routingNumber,
        JSON.stringify(received),
        this.clock.now(),
      ],
    );
    return { reference, routingNumber };
  }

  /** Test control: make the sandbox refuse recipients for this application (true) or recover (false). */
  async setFailing(applicationId: string, failing: boolean): Promise<void> {
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('transfer_sandbox_settings')} (application_id, failing) VALUES ($1, $2)
       ON CONFLICT (application_id) DO UPDATE SET failing = EXCLUDED.failing`,
      [applicationId, failing],
    );
  }

  /** The recipients the sandbox received for an application, oldest first. */
  received(applicationId: string): Promise<
    Array<{
      reference: string;
      bank_account_id: string;
      type: string;
      routing_number: string;
      received: Record<string, unknown>;
    }>
  > {
    return this.db.manager.query(
      `SELECT reference, bank_account_id, type, routing_number, received
         FROM ${this.db.table('transfer_sandbox_recipients')} WHERE application_id = $1 ORDER BY created_at, reference`,
      [applicationId],
    );
  }
}
