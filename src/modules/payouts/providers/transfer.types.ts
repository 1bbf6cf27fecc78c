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
  /** `extra_fields` keys the service does not know (e.g. `legalType`), forwarded verbatim. */
  passthrough: Record<string, unknown>;
}

export interface Recipient {
  reference: string;
  routingNumber: string;
}

/** The transfer provider port: recipients (payout destinations) at a provider. */
export interface TransferProvider {
  readonly name: string;
  /** The provider's type literal for a service type in a country; null when it has none there. */
  providerType(country: string, type: BankAccountType): string | null;
  createRecipient(request: RecipientRequest): Promise<Recipient>;
}

/** A provider refused or did not answer; the caller keeps its local record and reports it. */
export class TransferProviderError extends Error {}
