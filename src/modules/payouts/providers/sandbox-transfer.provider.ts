import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { SandboxTransferRepository, type SandboxRecipientRow } from './sandbox-transfer.repository.js';
import {
  TransferProviderError,
  type BankAccountType,
  type Recipient,
  type RecipientRequest,
  type ProviderTransfer,
  type TransferProvider,
  type TransferRequest,
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

  // Built by the payouts work (issue 16); until then the sandbox refuses, as a provider that is down would.
  async createTransfer(_request: TransferRequest): Promise<ProviderTransfer> {
    throw new TransferProviderError('sandbox transfers are not built yet');
  }

  async transferStatus(_reference: string): Promise<ProviderTransfer> {
    throw new TransferProviderError('sandbox transfers are not built yet');
  }

  async cancelTransfer(_reference: string): Promise<ProviderTransfer> {
    throw new TransferProviderError('sandbox transfers are not built yet');
  }
}
