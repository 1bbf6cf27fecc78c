/** A connected account's KYB state, as the service keeps it and a provider's notice states it. */
export type KybStatus = 'pending' | 'verified' | 'rejected';

/** What a provider is told to open an account for a connected account (Stripe Connect). */
export interface ConnectAccountRequest {
  applicationId: string;
  /** The service's account id: also the provider's idempotency key, so a retry never opens two. */
  accountId: string;
  country: string;
  email: string | null;
  businessName: string | null;
  name: string | null;
  defaultCurrency: string | null;
}

/** A provider's KYB verdict on a connected account, as its notice (Stripe `account.updated`) states it. */
export interface ProviderKyb {
  status: KybStatus;
  /** Why it is rejected (the provider's reason, e.g. `rejected.fraud`), null otherwise. */
  reason: string | null;
}

/**
 * The connect port: a provider that holds an account per connected account (Stripe Connect). The
 * country's collection provider decides (docs/PROVIDERS.md): Opn and the sandbox have none.
 */
export interface ConnectProvider {
  readonly name: string;
  /** Opens the provider account and answers its id (`acct_…`). Throws ConnectProviderError. */
  createAccount(request: ConnectAccountRequest): Promise<string>;
}

/** The provider refused or did not answer; the account stays without a provider account (retried when needed). */
export class ConnectProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ConnectProviderError';
  }
}
