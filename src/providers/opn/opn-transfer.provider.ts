import type {
  BankAccountType,
  ProviderTransfer,
  Recipient,
  RecipientRequest,
  TransferProvider,
  TransferRequest,
} from '../ports/transfer.port.js';
import { opnBankBrand } from './opn-banks.js';
import { OpnApiError, type OpnClient, type OpnObject } from './opn-client.js';
import { failureFacts, OpnTransferError, transferFailureCode } from './opn-errors.js';

interface OpnRecipient extends OpnObject {
  id: string;
  bank_account?: { brand?: string; bank_code?: string; last_digits?: string } | null;
}

interface OpnTransfer extends OpnObject {
  id: string;
  sent?: boolean;
  paid?: boolean;
  deleted?: boolean;
  failure_code?: string | null;
  failure_message?: string | null;
}

/** The provider type literal the service stores for an Opn bank-account recipient. */
export const OPN_BANK_ACCOUNT = 'opn_bank_account';

/**
 * The Opn Payments transfer provider (Thailand): recipients are bank accounts (Opn has no
 * PromptPay recipients), transfers pay them from the Opn balance.
 */
export class OpnTransferProvider implements TransferProvider {
  readonly name = 'opn';
  /** Opn recipients are bank accounts paid from the platform's Opn balance, whoever owns them. */
  readonly connectedAccounts = 'recipient' as const;

  constructor(private readonly client: OpnClient) {}

  providerType(country: string, type: BankAccountType): string | null {
    return country === 'TH' && type === 'bookbank' ? OPN_BANK_ACCOUNT : null;
  }

  /** POST /recipients with `bank_account[brand|number|name]`; the bank code becomes Opn's brand. */
  async createRecipient(request: RecipientRequest): Promise<Recipient> {
    const brand = request.bankCode ? opnBankBrand(request.bankCode) : undefined;
    if (request.providerType !== OPN_BANK_ACCOUNT || !brand || !request.accountNumber) {
      throw new OpnTransferError(
        `Opn cannot pay to this destination (bank ${request.bankCode ?? 'none'})`,
        'unsupported_destination',
        false,
        false,
      );
    }
    const recipientType = request.passthrough.recipient_type === 'corporation' ? 'corporation' : 'individual';
    try {
      const recipient = await this.client.post<OpnRecipient>(
        '/recipients',
        {
          name: request.accountHolderName,
          type: recipientType,
          tax_id: request.nationalId,
          bank_account: { brand, number: request.accountNumber, name: request.accountHolderName },
          metadata: { bank_account_id: request.bankAccountId, application_id: request.applicationId },
        },
        `recipient:${request.bankAccountId}`,
      );
      return { reference: recipient.id, routingNumber: `${request.bankCode}${request.branchCode ?? ''}` };
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /** POST /transfers with `recipient`; the payout id is the idempotency key, so a retry never pays twice. */
  async createTransfer(request: TransferRequest): Promise<ProviderTransfer> {
    try {
      return this.toTransfer(
        await this.client.post<OpnTransfer>(
          '/transfers',
          {
            amount: request.amount,
            recipient: request.recipientReference,
            metadata: { payout_id: request.payoutId, application_id: request.applicationId },
          },
          `transfer:${request.payoutId}`,
        ),
      );
    } catch (err) {
      throw this.providerError(err);
    }
  }

  async transferStatus(reference: string): Promise<ProviderTransfer> {
    try {
      return this.toTransfer(await this.client.get<OpnTransfer>(`/transfers/${encodeURIComponent(reference)}`));
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /** DELETE /transfers/{id}; Opn refuses once sent, and then the transfer's state is read and answered. */
  async cancelTransfer(reference: string): Promise<ProviderTransfer> {
    try {
      const deleted = await this.client.delete<OpnTransfer>(`/transfers/${encodeURIComponent(reference)}`);
      if (deleted.deleted) return { status: 'canceled', reference };
      return this.toTransfer(deleted);
    } catch (err) {
      if (err instanceof OpnApiError && err.httpStatus < 500 && err.code !== 'authentication_failure') {
        return this.transferStatus(reference);
      }
      throw this.providerError(err);
    }
  }

  toTransfer(transfer: OpnTransfer): ProviderTransfer {
    const reference = transfer.id;
    if (transfer.deleted) return { status: 'canceled', reference };
    if (transfer.failure_code) {
      return {
        status: 'failed',
        reference,
        failure: {
          code: transferFailureCode(transfer.failure_code),
          message: transfer.failure_message ?? 'The bank refused the transfer.',
        },
      };
    }
    if (transfer.paid) return { status: 'paid', reference };
    if (transfer.sent) return { status: 'in_transit', reference };
    return { status: 'pending', reference };
  }

  private providerError(err: unknown): Error {
    const facts = failureFacts(err);
    if (!facts) return err as Error;
    const code = err instanceof OpnApiError ? transferFailureCode(err.code) : facts.opnCode;
    return new OpnTransferError(facts.message, code, facts.retryable, facts.outcomeUnknown);
  }
}
