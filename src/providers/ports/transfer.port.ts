/** The service's own bank account types (the `type` of POST /bank_accounts). */
export const BANK_ACCOUNT_TYPES = ['bookbank', 'promptpay_phone', 'promptpay_primary_identify_id'] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

/** What is sent to a transfer provider to create a recipient for the application's own account. */
export interface RecipientRequest {
  applicationId: string;
  bankAccountId: string;
  country: string;
  /** The provider's own type literal, derived on the server from the country and the service type. */
  providerType: string;
  currency: string;
  accountHolderName: string;
  bankCode?: string;
  accountNumber?: string;
  branchCode?: string;
  accountType?: string;
  phoneNumber?: string;
  nationalId?: string;
  /**
   * The connected account's own account at this provider (Stripe Connect `acct_…`) when the bank
   * account belongs to a connected account; absent for the application's own account.
   */
  connectedAccount?: string;
  /** `extra_fields` keys the service does not know (e.g. `legalType`), forwarded verbatim. */
  passthrough: Record<string, unknown>;
}

export interface Recipient {
  reference: string;
  routingNumber: string;
}

/** A payout: money sent from the application's balance at the provider to a recipient made by createRecipient. */
export interface TransferRequest {
  applicationId: string;
  /** The service's payout id: also the idempotency key at the provider, so a retry never pays twice. */
  payoutId: string;
  /** The recipient's reference at this provider (what createRecipient answered). */
  recipientReference: string;
  /** Minor units. */
  amount: number;
  currency: string;
  scalingFactor: number;
  livemode: boolean;
}

/** The provider's view of a transfer. `pending`: accepted, not yet sent; `in_transit`: sent to the bank. */
export interface ProviderTransfer {
  status: 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled';
  /** The provider's own reference of the transfer. */
  reference: string;
  /** Why it failed, Stripe payout style: `account_closed`, `no_account`, `invalid_account_number`, … */
  failure?: { code: string; message: string };
}

/** The transfer provider port: recipients (payout destinations) at a provider. */
export interface TransferProvider {
  readonly name: string;
  /**
   * How the provider pays a connected account's bank account: `provider_account` (Stripe: a
   * recipient on the connected account's own provider account, which RecipientRequest names),
   * `recipient` (Opn: a recipient like the own account's, paid from the platform balance). Absent:
   * it cannot (the sandbox), and such bank accounts have no recipient (E6303).
   */
  readonly connectedAccounts?: 'provider_account' | 'recipient';
  /** The provider's type literal for a service type in a country; null when it has none there. */
  providerType(country: string, type: BankAccountType): string | null;
  createRecipient(request: RecipientRequest): Promise<Recipient>;
  /** Starts a transfer. Throws TransferProviderError when the provider cannot be reached. */
  createTransfer(request: TransferRequest): Promise<ProviderTransfer>;
  /** A transfer's state now, by the provider's reference (the payouts job polls and reconciles with it). */
  transferStatus(reference: string): Promise<ProviderTransfer>;
  /** Cancels a transfer not yet sent; answers its state after the attempt (`canceled`, or what it already is). */
  cancelTransfer(reference: string): Promise<ProviderTransfer>;
}

/** A provider refused or did not answer; the caller keeps its local record and reports it. */
export class TransferProviderError extends Error {}
