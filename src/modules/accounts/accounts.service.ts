import { Injectable, Logger } from '@nestjs/common';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { countryOf, type ApplicationRef, type Principal } from '../../common/context/principal.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../common/list/index.js';
import { AccountErrors } from './accounts.errors.js';
import { AccountsRepository, type NewAccount } from './accounts.repository.js';
import { ConnectProviderError, type KybStatus, type ProviderKyb } from '../../providers/ports/connect.port.js';
import { ConnectProviders } from './connect-providers.js';
import type { CreateAccountDto } from './dto/create-account.dto.js';
import type { AccountRecord } from './entities/account.entity.js';
import { toAccountResponse, type Account } from './accounts.responses.js';

export const ACCOUNT_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    type: ListFilters.oneOf(['own', 'connected']),
    kyb_status: ListFilters.oneOf(['pending', 'verified', 'rejected']),
    name: ListFilters.text,
    business_name: ListFilters.text,
    email: ListFilters.text,
    country: ListFilters.country,
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
    labels: ListFilters.labels,
  },
  sortable: ['created_at', 'updated_at'],
  search: ['id', 'name', 'business_name', 'email'],
};

@Injectable()
export class AccountsService {
  private readonly logger = new Logger('Accounts');

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly connect: ConnectProviders,
    private readonly audit: AuditRecorder,
  ) {}

  async create(principal: Principal, dto: CreateAccountDto): Promise<Account> {
    const now = this.clock.now();
    const record: NewAccount = {
      id: newId(),
      application_id: principal.application.id,
      type: 'connected',
      name: dto.name ?? null,
      business_name: dto.business_name ?? null,
      email: dto.email ?? null,
      country: dto.country ?? countryOf(principal),
      default_currency: dto.default_currency ?? null,
      kyb_status: 'pending',
      kyb_rejection_reason: null,
      kyb_decided_at: null,
      provider: null,
      provider_account_id: null,
      metadata: dto.metadata ?? {},
      labels: dto.labels ?? [],
      created_at: now,
      updated_at: now,
    };
    // Where the country's collection provider is Stripe, the Connect account is opened first, with
    // no transaction open (idempotency key `account:{id}`); if Stripe does not open it, nothing is
    // stored (E6002): a live account without one could never be verified by Stripe.
    const provider = this.connect.forCountry(record.country, principal.livemode);
    if (provider) {
      try {
        record.provider_account_id = await provider.createAccount(this.connectRequest(record));
        record.provider = provider.name;
      } catch (err) {
        if (!(err instanceof ConnectProviderError)) throw err;
        this.logger.warn(`no ${provider.name} account for account ${record.id}: ${err.message}`);
        throw new AppError(AccountErrors.E6002);
      }
    }
    const account = await this.accounts.transaction(async (manager) => {
      const inserted = await this.accounts.insert(record, manager);
      await this.audit.record(manager, {
        applicationId: inserted.application_id,
        action: 'account.created',
        target: { type: 'account', id: inserted.id },
        metadata: { country: inserted.country, ...(inserted.provider ? { provider: inserted.provider } : {}) },
      });
      return inserted;
    });
    return toAccountResponse(account);
  }

  /**
   * The connected account's account at `provider` (Stripe Connect `acct_…`), opened now if the
   * country's connect provider is `provider` and it has none yet; null when that provider keeps no
   * account for it (or could not be reached: the caller refuses precisely).
   */
  async providerAccount(
    applicationId: string,
    id: string,
    provider: string,
    livemode: boolean,
  ): Promise<string | null> {
    const account = await this.accounts.findById(applicationId, id);
    if (!account || account.type !== 'connected') return null;
    if (account.provider_account_id) return account.provider === provider ? account.provider_account_id : null;
    if (this.connect.forCountry(account.country, livemode)?.name !== provider) return null;
    return this.openProviderAccount(account, livemode);
  }

  /**
   * A provider's KYB verdict (Stripe `account.updated`, verified by the provider-events module),
   * applied once: `claim` records the notice in the same transaction as the change and its
   * `account.updated` event, so a replay is `duplicate`.
   */
  async applyProviderKyb(
    provider: string,
    providerAccountId: string,
    kyb: ProviderKyb,
    claim?: (manager: EntityManager) => Promise<boolean>,
  ): Promise<'applied' | 'unchanged' | 'duplicate' | 'unknown'> {
    const found = await this.accounts.findByProviderAccount(provider, providerAccountId);
    if (!found) return 'unknown';
    return this.accounts.transaction(async (manager) => {
      const account = await this.accounts.lock(found.application_id, found.id, manager);
      if (!account) return 'unknown';
      if (claim && !(await claim(manager))) return 'duplicate';
      if (account.kyb_status === kyb.status && account.kyb_rejection_reason === kyb.reason) return 'unchanged';
      await this.writeKyb(account, kyb.status, kyb.reason, manager);
      return 'applied';
    });
  }

  /** Opens the Connect account of an account made before its country's provider was Stripe. */
  private async openProviderAccount(account: AccountRecord, livemode: boolean): Promise<string | null> {
    const provider = this.connect.forCountry(account.country, livemode);
    if (account.type !== 'connected' || !provider) return null;
    try {
      const providerAccountId = await provider.createAccount(this.connectRequest(account));
      const changes = { provider: provider.name, provider_account_id: providerAccountId };
      await this.accounts.update(account.application_id, account.id, changes);
      return providerAccountId;
    } catch (err) {
      if (!(err instanceof ConnectProviderError)) throw err;
      this.logger.warn(`no ${provider.name} account for account ${account.id} yet: ${err.message}`);
      return null;
    }
  }

  private connectRequest(account: NewAccount) {
    return {
      applicationId: account.application_id,
      accountId: account.id,
      country: account.country!,
      email: account.email,
      businessName: account.business_name,
      name: account.name,
      defaultCurrency: account.default_currency,
    };
  }

  async retrieve(principal: Principal, id: string): Promise<Account> {
    const account = await this.findById(principal.application.id, id);
    if (!account) throw new AppError(Errors.E4004, `No account with id "${id}".`);
    return account;
  }

  /**
   * For other modules: an account of the application in the bound mode, or null. By application
   * id, since a hosted page (the bank account page) acts for an application without a principal.
   */
  async findById(applicationId: string, id: string, manager?: EntityManager): Promise<Account | null> {
    const account = await this.accounts.findById(applicationId, id, manager);
    return account && toAccountResponse(account);
  }

  /**
   * The application's own account in the bound mode. It is made with the application; this also
   * makes it for applications created before accounts existed.
   */
  async ownAccount(application: ApplicationRef, manager?: EntityManager): Promise<Account> {
    return toAccountResponse(await this.ensureOwn(application, manager));
  }

  /** Called for each mode (bound in the context) when an application is created. */
  async createOwnAccount(application: ApplicationRef): Promise<void> {
    await this.ensureOwn(application);
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<Account>> {
    return runList(this.accounts.query(principal.application.id), ACCOUNT_LIST, query, toAccountResponse);
  }

  /** Test helper: the KYB review passes, as a KYB provider would report. */
  verifyForTest(principal: Principal, id: string): Promise<Account> {
    return this.decideKyb(principal.application.id, id, 'verified', null);
  }

  /** Test helper: the KYB review fails. A rejected account can be verified later (re-review). */
  rejectForTest(principal: Principal, id: string, reason: string | undefined): Promise<Account> {
    return this.decideKyb(principal.application.id, id, 'rejected', reason ?? 'rejected_by_review');
  }

  private async decideKyb(
    applicationId: string,
    id: string,
    status: KybStatus,
    reason: string | null,
  ): Promise<Account> {
    const account = await this.accounts.findById(applicationId, id);
    if (!account) throw new AppError(Errors.E4004, `No account with id "${id}".`);
    if (account.type === 'own') {
      if (status === 'verified') return toAccountResponse(account);
      throw new AppError(AccountErrors.E6001, `Account "${id}" is the application's own account.`);
    }
    return this.accounts.transaction((manager) => this.writeKyb(account, status, reason, manager));
  }

  /** The KYB change and its `account.updated` event, in `manager`'s transaction (events: transactional outbox). */
  private async writeKyb(
    account: AccountRecord,
    status: KybStatus,
    reason: string | null,
    manager: EntityManager,
  ): Promise<Account> {
    const now = this.clock.now();
    const changes = { kyb_status: status, kyb_rejection_reason: reason, kyb_decided_at: now, updated_at: now };
    const before = { kyb_status: account.kyb_status, kyb_rejection_reason: account.kyb_rejection_reason };
    const decided = toAccountResponse(Object.assign(account, changes));
    await this.accounts.update(account.application_id, account.id, changes, manager);
    const event = { type: 'account.updated' as const, object: decided, previous_attributes: before };
    await this.events.record(manager, { applicationId: account.application_id, ...event });
    return decided;
  }

  private async ensureOwn(application: ApplicationRef, manager?: EntityManager): Promise<AccountRecord> {
    const existing = await this.accounts.findOwn(application.id, manager);
    if (existing) return existing;
    const now = this.clock.now();
    await this.accounts.insertOwnIfMissing(
      {
        id: newId(),
        application_id: application.id,
        type: 'own',
        name: application.name,
        business_name: null,
        email: null,
        country: null,
        default_currency: null,
        kyb_status: 'verified',
        kyb_rejection_reason: null,
        kyb_decided_at: now,
        provider: null,
        provider_account_id: null,
        metadata: {},
        labels: [],
        created_at: now,
        updated_at: now,
      },
      manager,
    );
    const own = await this.accounts.findOwn(application.id, manager);
    if (!own) throw new Error(`own account of application ${application.id} was not created`);
    return own;
  }
}
