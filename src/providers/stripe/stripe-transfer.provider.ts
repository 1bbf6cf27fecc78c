import Stripe from 'stripe';
import type {
  BankAccountType,
  ProviderTransfer,
  Recipient,
  RecipientRequest,
  TransferProvider,
  TransferRequest,
} from '../ports/transfer.port.js';
import { failureFacts, payoutFailureCode, StripeTransferError } from './stripe-errors.js';

/** The provider type literal the service stores for a Stripe Connect external bank account. */
export const STRIPE_EXTERNAL_ACCOUNT = 'stripe_external_account';

export interface StripeTransferOptions {
  /**
   * The application's Stripe Connect account (`acct_…`, custom or express) whose external accounts
   * and payouts these are. Null: the application has no connected account and Stripe cannot pay it.
   */
  connectedAccount: (applicationId: string) => string | null | undefined;
}

/** References carry the connected account: a payout is read at /v1/payouts/{id} with Stripe-Account. */
const join = (account: string, id: string) => `${account}/${id}`;
function split(reference: string): { account: string; id: string } | null {
  const [account, id, extra] = reference.split('/');
  return account?.startsWith('acct_') && id && !extra ? { account, id } : null;
}

/**
 * The Stripe transfer provider. Mapping: a service bank account (bookbank) is an external bank
 * account of the application's Connect account (POST /v1/accounts/{acct}/external_accounts); a
 * payout is POST /v1/payouts on that account (Stripe-Account header) to that external account.
 * References are `acct_…/ba_…` and `acct_…/po_…`.
 */
export class StripeTransferProvider implements TransferProvider {
  readonly name = 'stripe';
  readonly connectedAccounts = 'provider_account' as const;

  constructor(
    private readonly stripe: Stripe,
    private readonly options: StripeTransferOptions,
  ) {}

  /** Stripe pays bank accounts; PromptPay proxies (phone / national id) are not payout destinations. */
  providerType(_country: string, type: BankAccountType): string | null {
    return type === 'bookbank' ? STRIPE_EXTERNAL_ACCOUNT : null;
  }

  async createRecipient(request: RecipientRequest): Promise<Recipient> {
    const account = request.connectedAccount ?? this.options.connectedAccount(request.applicationId);
    if (request.providerType !== STRIPE_EXTERNAL_ACCOUNT || !request.accountNumber || !account) {
      throw new StripeTransferError(
        account
          ? 'Stripe pays bank accounts only (an account number is required)'
          : 'the application has no Stripe connected account',
        'unsupported_destination',
        false,
        false,
      );
    }
    // Stripe's routing number for Thai banks is the 3-digit bank code (branch optional, appended).
    const routingNumber = `${request.bankCode ?? ''}${request.branchCode ?? ''}`;
    try {
      const external = await this.stripe.accounts.createExternalAccount(
        account,
        {
          external_account: {
            object: 'bank_account',
            country: request.country,
            currency: request.currency.toLowerCase(),
            account_number: request.accountNumber,
            routing_number: routingNumber || undefined,
            account_holder_name: request.accountHolderName,
            account_holder_type: request.passthrough.account_holder_type === 'company' ? 'company' : 'individual',
          },
          metadata: { bank_account_id: request.bankAccountId, application_id: request.applicationId },
        },
        { idempotencyKey: `recipient:${request.bankAccountId}` },
      );
      return { reference: join(account, external.id), routingNumber };
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /** POST /v1/payouts {amount, currency, destination} on the connected account, keyed `payout:{payoutId}`. */
  async createTransfer(request: TransferRequest): Promise<ProviderTransfer> {
    const ref = split(request.recipientReference);
    if (!ref) {
      throw new StripeTransferError(
        'not a Stripe recipient reference (acct_…/ba_…)',
        'unsupported_destination',
        false,
        false,
      );
    }
    try {
      const payout = await this.stripe.payouts.create(
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          destination: ref.id,
          metadata: { payout_id: request.payoutId, application_id: request.applicationId },
        },
        { idempotencyKey: `payout:${request.payoutId}`, stripeAccount: ref.account },
      );
      return this.toTransfer(payout, ref.account);
    } catch (err) {
      throw this.providerError(err);
    }
  }

  async transferStatus(reference: string): Promise<ProviderTransfer> {
    const ref = this.ref(reference);
    try {
      return this.toTransfer(
        await this.stripe.payouts.retrieve(ref.id, {}, { stripeAccount: ref.account }),
        ref.account,
      );
    } catch (err) {
      throw this.providerError(err);
    }
  }

  /** POST /v1/payouts/{id}/cancel; Stripe refuses once in transit, and the payout's state is answered. */
  async cancelTransfer(reference: string): Promise<ProviderTransfer> {
    const ref = this.ref(reference);
    try {
      return this.toTransfer(await this.stripe.payouts.cancel(ref.id, {}, { stripeAccount: ref.account }), ref.account);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && (err.statusCode ?? 0) < 500) {
        return this.transferStatus(reference);
      }
      throw this.providerError(err);
    }
  }

  toTransfer(payout: Stripe.Payout, account: string): ProviderTransfer {
    const reference = join(account, payout.id);
    switch (payout.status) {
      case 'paid':
        return { status: 'paid', reference };
      case 'in_transit':
        return { status: 'in_transit', reference };
      case 'canceled':
        return { status: 'canceled', reference };
      case 'failed':
        return {
          status: 'failed',
          reference,
          failure: {
            code: payoutFailureCode(payout.failure_code ?? 'could_not_process'),
            message: payout.failure_message ?? 'The bank refused the payout.',
          },
        };
      default:
        return { status: 'pending', reference };
    }
  }

  private ref(reference: string): { account: string; id: string } {
    const ref = split(reference);
    if (!ref)
      throw new StripeTransferError('not a Stripe payout reference (acct_…/po_…)', 'invalid_reference', false, false);
    return ref;
  }

  private providerError(err: unknown): Error {
    if (err instanceof StripeTransferError) return err;
    const facts = failureFacts(err);
    if (!facts) return err as Error;
    return new StripeTransferError(
      facts.message,
      payoutFailureCode(facts.stripeCode),
      facts.retryable,
      facts.outcomeUnknown,
    );
  }
}
