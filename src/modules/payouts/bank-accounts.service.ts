import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { countryOf, type Principal } from '../../common/context/principal.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../common/list/index.js';
import { AccountsService, type Account } from '../accounts/index.js';
import { SessionsService } from '../auth/index.js';
import { CreateBankAccountDto } from './dto/create-bank-account.dto.js';
import type { BankAccount } from './entities/bank-account.entity.js';
import { PayoutErrors } from './payouts.errors.js';
import { PayoutsRepository } from './payouts.repository.js';
import {
  normaliseAccountNumber,
  normaliseThaiMobile,
  normaliseThaiNationalId,
  THAI_ACCOUNT_TYPES,
  THAI_BRANCH_CODE,
  thaiBank,
} from './thai-banks.js';
import { TransferProviders } from './providers/transfer-providers.js';
import { TransferProviderError, type BankAccountType, type TransferProvider } from './providers/transfer.types.js';
import { validateBody } from '../../common/http/validation.js';

export const BANK_ACCOUNT_INTENT_PURPOSE = 'bank_account_intent';

/** Countries whose bank rules the service knows, and the currency their accounts are held in. */
const CURRENCY_OF_COUNTRY: Record<string, string> = { TH: 'THB' };

/** Which top-level fields each type needs, and which it may carry. */
const TYPE_FIELDS: Record<BankAccountType, { required: string[]; allowed: string[] }> = {
  bookbank: { required: ['account_holder_name', 'target', 'extra_fields'], allowed: [] },
  promptpay_phone: { required: ['phone_number', 'account_holder_name'], allowed: ['target'] },
  promptpay_primary_identify_id: { required: ['primary_identify_id', 'account_holder_name'], allowed: ['target'] },
};
const TYPED_FIELDS = ['account_holder_name', 'phone_number', 'primary_identify_id', 'extra_fields', 'target'];
const BOOKBANK_KEYS = new Set(['bankCode', 'accountNumber', 'branchCode', 'accountType']);
const PASSTHROUGH_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const MAX_PASSTHROUGH_KEYS = 20;

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

/** The only form in which an account number, phone number or national ID is stored or returned. */
const mask = (value: string | null) => (value === null ? null : `******${value.slice(-4)}`);

export function toBankAccountResponse(b: BankAccount) {
  return {
    id: b.id,
    object: 'bank_account' as const,
    livemode: b.livemode,
    account: b.account_id,
    account_kind: b.account_kind,
    type: b.type,
    country: b.country,
    currency: b.currency,
    account_holder_name: b.account_holder_name,
    bank_code: b.bank_code,
    bank_name: b.bank_code ? (thaiBank(b.bank_code)?.name ?? null) : null,
    branch_code: b.branch_code,
    account_type: b.account_type,
    account_number: mask(b.account_number),
    phone_number: mask(b.phone_number),
    primary_identify_id: mask(b.primary_identify_id),
    last4: b.last4,
    provider: b.provider,
    provider_type: b.provider_type,
    provider_status: b.provider_status,
    recipient_reference: b.recipient_reference,
    routing_number: b.routing_number,
    intent: b.intent_id,
    metadata: b.metadata,
    labels: b.labels,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
  };
}

export type BankAccountResponse = ReturnType<typeof toBankAccountResponse>;

export interface BankAccountCreation {
  id: string;
  object: 'bank_account';
  resource: string;
  created_at: string;
  errors: Array<{ code: string; message: string }>;
  next_action: never[];
}

/**
 * The columns derived from the submitted fields (the number columns hold only the masked form),
 * plus what goes only to a provider and is never stored: the whole number and unknown extra_fields.
 */
interface Destination {
  columns: Pick<
    BankAccount,
    | 'type'
    | 'currency'
    | 'account_holder_name'
    | 'bank_code'
    | 'branch_code'
    | 'account_type'
    | 'account_number'
    | 'phone_number'
    | 'primary_identify_id'
    | 'last4'
  >;
  passthrough: Record<string, unknown>;
  secret: { accountNumber?: string; phoneNumber?: string; nationalId?: string };
}

const invalid = (field: string, why: string) => new AppError(Errors.E2000, `Invalid parameter "${field}": ${why}.`);

@Injectable()
export class BankAccountsService {
  private readonly logger = new Logger('BankAccounts');

  constructor(
    private readonly repository: PayoutsRepository,
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
      throw new AppError(Errors.E6422, 'customer_id cannot be sent: bank accounts belong to an account (account).');
    }
    const dto = await validateBody(CreateBankAccountDto, body);
    const country = countryOf(principal);
    const currency = CURRENCY_OF_COUNTRY[country];
    if (!currency) throw new AppError(PayoutErrors.E6102, `Bank accounts cannot be created for ${country} yet.`);
    const destination = this.destination(dto, currency);

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

  /** The type's field rules and the Thai bank checks; returns the normalised columns. */
  private destination(dto: CreateBankAccountDto, currency: string): Destination {
    const type = dto.type as BankAccountType;
    const rules = TYPE_FIELDS[type];
    const fields = dto as unknown as Record<string, unknown>;
    for (const field of rules.required) {
      if (fields[field] === undefined) throw invalid(field, `is required for type ${type}`);
    }
    for (const field of TYPED_FIELDS) {
      if (fields[field] !== undefined && !rules.required.includes(field) && !rules.allowed.includes(field)) {
        throw invalid(field, `is not used by type ${type}`);
      }
    }
    const name = dto.account_holder_name!.trim();
    if (name === '' || /[\p{Cc}]/u.test(name)) throw invalid('account_holder_name', 'must be a printable name');
    if (dto.target !== undefined && dto.target !== currency) {
      throw new AppError(PayoutErrors.E6107, `Invalid parameter "target": bank accounts here are held in ${currency}.`);
    }
    const base = {
      type,
      currency,
      account_holder_name: name,
      bank_code: null,
      branch_code: null,
      account_type: null,
      account_number: null,
      phone_number: null,
      primary_identify_id: null,
    };
    if (type === 'promptpay_phone') {
      const phone = normaliseThaiMobile(dto.phone_number!);
      if (!phone) throw new AppError(PayoutErrors.E6105);
      return {
        columns: { ...base, phone_number: mask(phone), last4: phone.slice(-4) },
        passthrough: {},
        secret: { phoneNumber: phone },
      };
    }
    if (type === 'promptpay_primary_identify_id') {
      const id = normaliseThaiNationalId(dto.primary_identify_id!);
      if (!id) throw new AppError(PayoutErrors.E6106);
      return {
        columns: { ...base, primary_identify_id: mask(id), last4: id.slice(-4) },
        passthrough: {},
        secret: { nationalId: id },
      };
    }
    return this.bookbank(dto.extra_fields!, base);
  }

  private bookbank(extra: Record<string, unknown>, base: Omit<Destination['columns'], 'last4'>): Destination {
    const text = (key: string, required: boolean): string | undefined => {
      const value = extra[key];
      if (value === undefined && !required) return undefined;
      if (typeof value !== 'string' || value.trim() === '') {
        throw new AppError(
          PayoutErrors.E6108,
          `Invalid parameter "extra_fields.${key}": ${value === undefined ? 'is required for type bookbank' : 'must be a non-empty string'}.`,
        );
      }
      return value.trim();
    };
    const bankCode = text('bankCode', true)!;
    const bank = thaiBank(bankCode);
    if (!bank)
      throw new AppError(PayoutErrors.E6103, `Invalid parameter "extra_fields.bankCode": not a Thai bank code.`);
    const accountNumber = normaliseAccountNumber(bank, text('accountNumber', true)!);
    if (!accountNumber) {
      throw new AppError(
        PayoutErrors.E6104,
        `Invalid parameter "extra_fields.accountNumber": ${bank.short} account numbers have ${bank.lengths.join(' or ')} digits.`,
      );
    }
    const branchCode = text('branchCode', false);
    if (branchCode !== undefined && !THAI_BRANCH_CODE.test(branchCode)) {
      throw new AppError(PayoutErrors.E6108, 'Invalid parameter "extra_fields.branchCode": must be 4 digits.');
    }
    const accountType = text('accountType', false);
    if (accountType !== undefined && !(THAI_ACCOUNT_TYPES as readonly string[]).includes(accountType)) {
      throw new AppError(
        PayoutErrors.E6108,
        `Invalid parameter "extra_fields.accountType": must be one of ${THAI_ACCOUNT_TYPES.join(', ')}.`,
      );
    }
    const passthrough = Object.fromEntries(Object.entries(extra).filter(([key]) => !BOOKBANK_KEYS.has(key)));
    const keys = Object.keys(passthrough);
    if (keys.length > MAX_PASSTHROUGH_KEYS || keys.some((key) => !PASSTHROUGH_KEY.test(key))) {
      throw new AppError(
        PayoutErrors.E6108,
        `Invalid parameter "extra_fields": at most ${MAX_PASSTHROUGH_KEYS} other keys, each a letter then letters, digits or _.`,
      );
    }
    return {
      columns: {
        ...base,
        bank_code: bank.code,
        branch_code: branchCode ?? null,
        account_type: accountType ?? null,
        account_number: mask(accountNumber),
        last4: accountNumber.slice(-4),
      },
      passthrough,
      secret: { accountNumber },
    };
  }
}
