import type Stripe from 'stripe';
import {
  ConnectProviderError,
  type ConnectAccountRequest,
  type ConnectProvider,
  type ProviderKyb,
} from '../ports/connect.port.js';
import { failureFacts } from './stripe-errors.js';

/**
 * Stripe Connect accounts, one per connected account of an application (docs/PROVIDERS.md,
 * "Stripe Connect accounts"). Decision: `type: custom`. The service is the platform that collects
 * the business's details and KYB (its own accounts API and hosted pages), owns the payout
 * schedule (POST /payouts on the connected account, `Stripe-Account` header) and adds the payout
 * bank accounts itself (POST /v1/accounts/{acct}/external_accounts); Express accounts keep
 * onboarding and external accounts on Stripe's dashboard, which the service cannot drive.
 * https://docs.stripe.com/api/accounts/create
 */
export class StripeConnectProvider implements ConnectProvider {
  readonly name = 'stripe';

  constructor(private readonly stripe: Stripe) {}

  /** POST /v1/accounts, keyed `account:{accountId}`: card payments and transfers capabilities requested. */
  async createAccount(request: ConnectAccountRequest): Promise<string> {
    try {
      const account = await this.stripe.accounts.create(
        {
          type: 'custom',
          country: request.country,
          ...(request.email ? { email: request.email } : {}),
          ...(request.defaultCurrency ? { default_currency: request.defaultCurrency.toLowerCase() } : {}),
          business_profile: { name: request.businessName ?? request.name ?? undefined },
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          // The service pays out itself (POST /v1/payouts on the account), never on Stripe's schedule.
          settings: { payouts: { schedule: { interval: 'manual' } } },
          metadata: { account_id: request.accountId, application_id: request.applicationId },
        },
        { idempotencyKey: `account:${request.accountId}` },
      );
      return account.id;
    } catch (err) {
      const facts = failureFacts(err);
      if (!facts) throw err;
      throw new ConnectProviderError(`Stripe did not open the account: ${facts.message}`, facts.retryable);
    }
  }
}

/**
 * KYB from a Stripe account (an `account.updated` notice): rejected when Stripe disabled it as
 * `rejected.*`; verified once Stripe lets it take charges and receive payouts; pending otherwise
 * (details due, under review). https://docs.stripe.com/api/accounts/object
 */
export function stripeKyb(
  account: Pick<Stripe.Account, 'charges_enabled' | 'payouts_enabled' | 'requirements'>,
): ProviderKyb {
  const disabled = account.requirements?.disabled_reason ?? null;
  if (disabled?.startsWith('rejected.')) return { status: 'rejected', reason: disabled };
  if (account.charges_enabled && account.payouts_enabled) return { status: 'verified', reason: null };
  return { status: 'pending', reason: null };
}
