import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { countryOf, type Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { validateBody } from '../../../common/http/validation.js';
import { newId } from '../../../common/ids.js';
import { ListFilters, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../../common/list/index.js';
import { AccountsService, type Account } from '../../accounts/index.js';
import { SessionsService } from '../../auth/index.js';
import { CreateBankAccountDto } from '../dto/create-bank-account.dto.js';
import type { BankAccount } from '../entities/bank-account.entity.js';
import { PayoutErrors } from '../payouts.errors.js';
import { TransferProviders } from '../providers/transfer-providers.js';
import { TransferProviderError, type TransferProvider } from '../../../providers/ports/transfer.port.js';
import { bankAccountDestination, type Destination } from './bank-account-destination.js';
import { BankAccountsRepository } from './bank-accounts.repository.js';
import {
  toBankAccountResponse,
  type BankAccountCreation,
  type BankAccountResponse,
} from './bank-accounts.responses.js';

export const BANK_ACCOUNT_INTENT_PURPOSE = 'bank_account_intent';

/** Countries whose bank rules the service knows, and the currency their accounts are held in. */
const CURRENCY_OF_COUNTRY: Record<string, string> = { TH: 'THB' };

export const BANK_ACCOUNT_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    account: { type: 'uuid', column: 'b.account_id' },
    account_kind: ListFilters.oneOf(['own', 'connected']),
    type: ListFilters.oneOf(['bookbank', 'promptpay_phone', 'promptpay_primary_identify_id']),
    currency: ListFilters.currency,
    bank_code: { type: 'text', pattern: { regex: /^\d{3}$/, description: 'a three-digit bank code' } },
    provider_status: ListFilters.oneOf(['not_applicable', 'disabled', 'created', 'failed']),
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
    labels: ListFilters.labels,
  },
  sortable: ['created_at', 'updated_at'],
  search: ['id', 'account_holder_name', 'last4', 'recipient_reference'],
};

@Injectable()
export class BankAccountsService {
  private readonly logger = new Logger('BankAccounts');

  constructor(
    private readonly repository: BankAccountsRepository,
    private readonly accounts: AccountsService,
    private readonly providers: TransferProviders,
    private readonly sessions: SessionsService,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
  ) {}

  /**
   * POST /bank_accounts, with a key, a token, or the one-time session of a bank account intent
   * (the hosted page). The local record is always made; the provider is asked only for the
   * application's own account, after the record is stored.
   */
  async create(principal: Principal, body: unknown): Promise<BankAccountCreation> {
    if (typeof body === 'object' && body !== null && 'customer_id' in body) {
      throw new AppError(Errors.E6422, 'customer_id cannot be sent: bank accounts belong to an account (account).').on(
        'customer_id',
      );
    }
    const dto = await validateBody(CreateBankAccountDto, body);
    const country = countryOf(principal);
    const currency = CURRENCY_OF_COUNTRY[country];
    if (!currency) throw new AppError(PayoutErrors.E6102, `Bank accounts cannot be created for ${country} yet.`);
    const destination = bankAccountDestination(dto, currency);

    const applicationId = principal.application.id;
    const intentId =
      principal.credential.method === 'session' ? (principal.credential.session?.targetId ?? null) : null;
    const account = await this.account(principal, dto.account);
    const provider =
      account.type === 'own'
        ? this.providers.forCountry(country, principal.livemode)
        : this.connectedProvider(country, principal.livemode);
    if (dto.provider !== undefined) {
      const serving = this.providers.forCountry(country, principal.livemode);
      if (!serving || serving.name !== dto.provider) {
        throw new AppError(
          PayoutErrors.E6109,
          `Invalid parameter "provider": ${serving ? `${country} is served by "${serving.name}"` : `no transfer provider serves ${country}`}.`,
        );
      }
    }

    const now = this.clock.now();
    const stored = await this.repository.transaction(async (manager) => {
      if (intentId) {
        const intent = await this.repository.lockIntent(applicationId, intentId, manager);
        if (!intent || intent.account_id !== account.id || intent.country !== country) {
          throw new AppError(
            Errors.E1300,
            'This one-time session creates a bank account for its own account and country only.',
          );
        }
        if (intent.status !== 'open' || intent.expires_at.getTime() <= now.getTime()) {
          throw new AppError(PayoutErrors.E6202);
        }
      }
      const row = await this.repository.insertBankAccount(
        {
          id: newId(),
          application_id: applicationId,
          account_id: account.id,
          account_kind: account.type,
          country,
          ...destination.columns,
          provider: provider?.name ?? null,
          provider_type: null,
          provider_status: provider ? 'failed' : account.type === 'connected' ? 'not_applicable' : 'disabled',
          recipient_reference: null,
          routing_number: null,
          intent_id: intentId,
          metadata: dto.metadata ?? {},
          labels: dto.labels ?? [],
          created_at: now,
          updated_at: now,
        },
        manager,
      );
      if (intentId) await this.repository.completeIntent(applicationId, intentId, row.id, now, manager);
      const event = { type: 'bank_account.created' as const, object: toBankAccountResponse(row) };
      await this.events.record(manager, { applicationId, ...event });
      return row;
    });
    if (intentId) await this.sessions.complete(principal.credential.subject);

    let connectedAccount: string | undefined;
    if (provider?.connectedAccounts === 'provider_account' && account.type === 'connected') {
      // Stripe: the bank account is an external account of the connected account's Connect account.
      const acct = await this.accounts.providerAccount(applicationId, account.id, provider.name, principal.livemode);
      connectedAccount = acct ?? undefined;
    }
    const errors = provider ? await this.createRecipient(provider, stored, destination, connectedAccount) : [];
    return {
      id: stored.id,
      object: 'bank_account',
      resource: `bank_accounts/${stored.id}`,
      created_at: stored.created_at.toISOString(),
      errors,
      next_action: [],
    };
  }

  async retrieve(principal: Principal, id: string): Promise<BankAccountResponse> {
    const row = await this.repository.findBankAccount(principal.application.id, countryOf(principal), id);
    if (!row) throw new AppError(Errors.E4004, `No bank account with id "${id}" in this country.`);
    return toBankAccountResponse(row);
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<BankAccountResponse>> {
    const qb = this.repository.bankAccounts(principal.application.id, countryOf(principal));
    return runList(qb, BANK_ACCOUNT_LIST, query, toBankAccountResponse);
  }

  /** The owning account, of the principal's application; a connected one must have passed KYB (E1304). */
  async account(principal: Principal, id: string): Promise<Account> {
    const account = await this.accounts.findById(principal.application.id, id);
    if (!account) throw new AppError(PayoutErrors.E6101, `Invalid parameter "account": no account with id "${id}".`);
    if (account.type === 'connected' && account.kyb_status !== 'verified') {
      throw new AppError(
        Errors.E1304,
        `Account "${id}" has KYB status "${account.kyb_status}"; it gets payout destinations once verified.`,
      );
    }
    return account;
  }

  /**
   * The transfer provider that pays a connected account's bank accounts in the country, if it can
   * (`connectedAccounts`: Opn, Stripe); null otherwise (the sandbox, a disabled or missing live
   * provider): then the bank account is kept for reference only and payouts to it are E6303.
   */
  private connectedProvider(country: string, livemode: boolean): TransferProvider | null {
    if (livemode && !this.providers.hasLive(country)) return null;
    const provider = this.providers.forCountry(country, livemode);
    return provider?.connectedAccounts ? provider : null;
  }

  /** Sends the bank account to the provider; a failure is kept on the record and reported. */
  private async createRecipient(
    provider: TransferProvider,
    row: BankAccount,
    { passthrough, secret }: Destination,
    connectedAccount?: string,
  ): Promise<Array<{ code: string; message: string }>> {
    const providerType = provider.providerType(row.country, row.type);
    try {
      if (!providerType) throw new TransferProviderError(`${provider.name} has no ${row.type} in ${row.country}`);
      const recipient = await provider.createRecipient({
        applicationId: row.application_id,
        bankAccountId: row.id,
        country: row.country,
        providerType,
        currency: row.currency,
        accountHolderName: row.account_holder_name,
        bankCode: row.bank_code ?? undefined,
        accountNumber: secret.accountNumber,
        branchCode: row.branch_code ?? undefined,
        accountType: row.account_type ?? undefined,
        phoneNumber: secret.phoneNumber,
        nationalId: secret.nationalId,
        ...(connectedAccount ? { connectedAccount } : {}),
        passthrough,
      });
      const changes = {
        provider_type: providerType,
        provider_status: 'created' as const,
        recipient_reference: recipient.reference,
        routing_number: recipient.routingNumber,
        updated_at: this.clock.now(),
      };
      await this.repository.updateBankAccount(row.application_id, row.id, changes);
      return [];
    } catch (err) {
      if (!(err instanceof TransferProviderError)) throw err;
      this.logger.warn(`no ${provider.name} recipient for bank account ${row.id}: ${err.message}`);
      await this.repository.updateBankAccount(row.application_id, row.id, { provider_type: providerType });
      return [{ code: PayoutErrors.E6120.code, message: PayoutErrors.E6120.message }];
    }
  }
}
