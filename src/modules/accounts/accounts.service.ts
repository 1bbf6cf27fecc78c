import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import type { ApplicationRef } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { FilterPatterns, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import { AccountErrors } from './accounts.errors.js';
import { AccountsRepository } from './accounts.repository.js';
import type { CreateAccountDto } from './dto/create-account.dto.js';
import type { AccountRecord, AccountType, KybStatus } from './entities/account.entity.js';

export const ACCOUNT_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    type: { type: 'text', values: ['own', 'connected'] },
    kyb_status: { type: 'text', values: ['pending', 'verified', 'rejected'] },
    name: { type: 'text' },
    business_name: { type: 'text' },
    email: { type: 'text' },
    country: { type: 'text', pattern: FilterPatterns.country },
    created_at: { type: 'timestamp' },
    updated_at: { type: 'timestamp' },
    labels: { type: 'labels' },
  },
  sortable: ['created_at', 'updated_at'],
  search: ['id', 'name', 'business_name', 'email'],
};

/** The account as every response (and every other module) sees it. */
export interface Account {
  id: string;
  object: 'account';
  livemode: boolean;
  type: AccountType;
  name: string | null;
  business_name: string | null;
  email: string | null;
  country: string | null;
  default_currency: string | null;
  /** The own account is always `verified`; a connected account starts `pending`. */
  kyb_status: KybStatus;
  kyb_rejection_reason: string | null;
  kyb_decided_at: string | null;
  metadata: Record<string, unknown>;
  labels: string[];
  created_at: string;
  updated_at: string;
}

export function toAccountResponse(a: AccountRecord): Account {
  return {
    id: a.id,
    object: 'account',
    livemode: a.livemode,
    type: a.type,
    name: a.name,
    business_name: a.business_name,
    email: a.email,
    country: a.country,
    default_currency: a.default_currency,
    kyb_status: a.kyb_status,
    kyb_rejection_reason: a.kyb_rejection_reason,
    kyb_decided_at: a.kyb_decided_at ? a.kyb_decided_at.toISOString() : null,
    metadata: a.metadata,
    labels: a.labels,
    created_at: a.created_at.toISOString(),
    updated_at: a.updated_at.toISOString(),
  };
}

@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
  ) {}

  private get applicationId(): string {
    return this.context.application.id;
  }

  async create(dto: CreateAccountDto): Promise<Account> {
    const now = this.clock.now();
    const account = await this.accounts.insert({
      id: newId(),
      application_id: this.applicationId,
      type: 'connected',
      name: dto.name ?? null,
      business_name: dto.business_name ?? null,
      email: dto.email ?? null,
      country: dto.country ?? this.context.country,
      default_currency: dto.default_currency ?? null,
      kyb_status: 'pending',
      kyb_rejection_reason: null,
      kyb_decided_at: null,
      metadata: dto.metadata ?? {},
      labels: dto.labels ?? [],
      created_at: now,
      updated_at: now,
    });
    return toAccountResponse(account);
  }

  async retrieve(id: string): Promise<Account> {
    const account = await this.findById(id);
    if (!account) throw new AppError(Errors.E4004, `No account with id "${id}".`);
    return account;
  }

  /** An account of the request's application and mode, or null. */
  async findById(id: string, manager?: EntityManager): Promise<Account | null> {
    const account = await this.accounts.findById(this.applicationId, id, manager);
    return account && toAccountResponse(account);
  }

  /**
   * The application's own account in the request's mode. It is made with the application; this
   * also makes it for applications created before accounts existed.
   */
  async ownAccount(manager?: EntityManager): Promise<Account> {
    return toAccountResponse(await this.ensureOwn(this.context.application, manager));
  }

  /** Called for each mode (bound in the context) when an application is created. */
  async createOwnAccount(application: ApplicationRef): Promise<void> {
    await this.ensureOwn(application);
  }

  list(query: ListQuery): Promise<ListEnvelope<Account>> {
    return runList(this.accounts.query(this.applicationId), ACCOUNT_LIST, query, toAccountResponse);
  }

  /** Test helper: the KYB review passes, as a KYB provider would report. */
  verifyForTest(id: string): Promise<Account> {
    return this.decideKyb(id, 'verified', null);
  }

  /** Test helper: the KYB review fails. A rejected account can be verified later (re-review). */
  rejectForTest(id: string, reason: string | undefined): Promise<Account> {
    return this.decideKyb(id, 'rejected', reason ?? 'rejected_by_review');
  }

  private async decideKyb(id: string, status: KybStatus, reason: string | null): Promise<Account> {
    const account = await this.accounts.findById(this.applicationId, id);
    if (!account) throw new AppError(Errors.E4004, `No account with id "${id}".`);
    if (account.type === 'own') {
      if (status === 'verified') return toAccountResponse(account);
      throw new AppError(AccountErrors.E6001, `Account "${id}" is the application's own account.`);
    }
    const now = this.clock.now();
    const changes = { kyb_status: status, kyb_rejection_reason: reason, kyb_decided_at: now, updated_at: now };
    const before = { kyb_status: account.kyb_status, kyb_rejection_reason: account.kyb_rejection_reason };
    const decided = toAccountResponse(Object.assign(account, changes));
    // account.updated in the decision's transaction (events: transactional outbox).
    await this.accounts.transaction(async (manager) => {
      await this.accounts.update(this.applicationId, id, changes, manager);
      const event = { type: 'account.updated' as const, object: decided, previous_attributes: before };
      await this.events.record(manager, { applicationId: this.applicationId, ...event });
    });
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
