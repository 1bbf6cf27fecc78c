import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import {
  SandboxTransferRepository,
  type SandboxRecipientRow,
  type SandboxTransferRow,
} from './sandbox-transfer.repository.js';
import {
  TransferProviderError,
  type BankAccountType,
  type Recipient,
  type RecipientRequest,
  type ProviderTransfer,
  type TransferProvider,
  type TransferRequest,
} from '../../../providers/ports/transfer.port.js';

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
  /** Serves test mode only: a live map naming it fails at boot. */
  readonly testOnly = true;

  constructor(
    private readonly sandbox: SandboxTransferRepository,
    private readonly clock: Clock,
  ) {}

  providerType(country: string, type: BankAccountType): string | null {
    return TYPES[country]?.[type] ?? null;
  }

  async createRecipient(request: RecipientRequest): Promise<Recipient> {
    if (await this.sandbox.isFailing(request.applicationId))
      throw new TransferProviderError('sandbox transfer provider is failing on purpose');
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
    await this.sandbox.insertRecipient(
      request.applicationId,
      {
        reference,
        bank_account_id: request.bankAccountId,
        type: request.providerType,
        routing_number: routingNumber,
        received,
      },
      this.clock.now(),
    );
    return { reference, routingNumber };
  }

  /** Test control: make the sandbox refuse recipients for this application (true) or recover (false). */
  setFailing(applicationId: string, failing: boolean): Promise<void> {
    return this.sandbox.setFailing(applicationId, failing);
  }

  /** The recipients the sandbox received for an application, oldest first. */
  received(applicationId: string): Promise<SandboxRecipientRow[]> {
    return this.sandbox.recipients(applicationId);
  }

  /**
   * Starts a transfer. Destinations whose account number (or PromptPay proxy) ends in one of
   * FAILING_LAST4 are refused by the "bank" at once (`failed` with that code); one ending in
   * HELD_LAST4 is accepted but held (`pending`, so its payout stays cancelable) until it is canceled;
   * any other transfer is accepted and sent (`in_transit`) and stays so until `settle()` (a test
   * helper or an operator) decides it. The payout id is the idempotency key: a retry answers the
   * same transfer.
   */
  async createTransfer(request: TransferRequest): Promise<ProviderTransfer> {
    if (await this.sandbox.isFailing(request.applicationId))
      throw new TransferProviderError('sandbox transfer provider is failing on purpose');
    const recipient = await this.sandbox.recipient(request.recipientReference);
    if (!recipient) throw new TransferProviderError(`sandbox has no recipient "${request.recipientReference}"`);
    const received = recipient.received;
    const masked = String(received.account_number ?? received.phone_number ?? received.national_id ?? '');
    const failure = FAILING_LAST4[masked.slice(-4)];
    const held = masked.slice(-4) === HELD_LAST4;
    const row = await this.sandbox.insertTransfer(
      request.applicationId,
      {
        reference: `trf_sbx_${randomBytes(12).toString('base64url')}`,
        payout_id: request.payoutId,
        recipient_reference: request.recipientReference,
        amount: request.amount,
        currency: request.currency,
        status: failure ? 'failed' : held ? 'pending' : 'in_transit',
        failure_code: failure ? failure.code : null,
      },
      this.clock.now(),
    );
    return toTransfer(row);
  }

  async transferStatus(reference: string): Promise<ProviderTransfer> {
    const row = await this.sandbox.transfer(reference);
    if (!row) throw new TransferProviderError(`sandbox has no transfer "${reference}"`);
    return toTransfer(row);
  }

  /**
   * Only a transfer not yet sent (`pending`: a HELD_LAST4 destination's) can be canceled; any other
   * is answered in its state (the sandbox sent it at once).
   */
  async cancelTransfer(reference: string): Promise<ProviderTransfer> {
    const row = await this.sandbox.moveTransfer(reference, ['pending'], 'canceled', null, this.clock.now());
    if (!row) throw new TransferProviderError(`sandbox has no transfer "${reference}"`);
    return toTransfer(row);
  }

  /** Test control: the bank settles a transfer in transit, paid or failed (`could_not_process`). */
  async settle(reference: string, outcome: 'paid' | 'failed'): Promise<ProviderTransfer> {
    const row = await this.sandbox.moveTransfer(
      reference,
      ['in_transit'],
      outcome,
      outcome === 'failed' ? 'could_not_process' : null,
      this.clock.now(),
    );
    if (!row) throw new TransferProviderError(`sandbox has no transfer "${reference}"`);
    return toTransfer(row);
  }
}

/**
 * Sandbox destinations that fail (by the last 4 digits of the account number, phone number or
 * national ID), Stripe test bank account style. docs/PAYOUTS.md lists them.
 */
export const FAILING_LAST4: Record<string, { code: string; message: string }> = {
  '0002': { code: 'account_closed', message: 'The bank account has been closed.' },
  '0003': { code: 'no_account', message: 'The bank account details do not match an account.' },
  '0004': { code: 'invalid_account_number', message: 'The bank refused the account number.' },
  '0005': { code: 'account_frozen', message: 'The bank account is frozen.' },
};

/**
 * The sandbox destination whose transfers the bank holds, not yet sent (`pending`): their payouts
 * stay `pending`, so `POST /payouts/{id}/cancel` cancels them (`payout.canceled`). docs/PAYOUTS.md.
 */
export const HELD_LAST4 = '0006';

function toTransfer(row: SandboxTransferRow): ProviderTransfer {
  const failure = row.failure_code
    ? {
        code: row.failure_code,
        message:
          Object.values(FAILING_LAST4).find((f) => f.code === row.failure_code)?.message ??
          'The bank could not process the transfer.',
      }
    : undefined;
  return { status: row.status, reference: row.reference, ...(failure ? { failure } : {}) };
}
