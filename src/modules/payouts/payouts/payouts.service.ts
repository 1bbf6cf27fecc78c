import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { IdempotencyScope } from '../../../common/idempotency/idempotency-scope.js';
import { newId } from '../../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../../common/list/index.js';
import { AccountsService, type Account } from '../../accounts/index.js';
import { BalancesService, connectedAccountName, scalingFactorOf } from '../../ledger/index.js';
import type { CreatePayoutDto } from '../dto/payout.dto.js';
import type { BankAccount } from '../entities/bank-account.entity.js';
import type { Payout } from '../entities/payout.entity.js';
import { PayoutErrors } from '../payouts.errors.js';
import { TransferProviders } from '../providers/transfer-providers.js';
import type { ProviderTransfer } from '../../../providers/ports/transfer.port.js';
import { PayoutLifecycleRepository } from './payout-lifecycle.repository.js';
import { PayoutLifecycleService } from './payout-lifecycle.service.js';
import { PayoutJournals } from './payout.journals.js';
import { NEW_PAYOUT_STATUS } from './payout.transitions.js';
import { payoutEvent, toPayoutResponse, type PayoutResponse } from './payouts.responses.js';

export const PAYOUT_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    status: ListFilters.oneOf(['pending', 'in_transit', 'paid', 'failed', 'canceled']),
    destination: ListFilters.uuid,
    account: { type: 'uuid', column: 'p.account_id' },
    currency: ListFilters.currency,
    amount: ListFilters.money,
    automatic: ListFilters.boolean,
    created: ListFilters.createdOf('p'),
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'updated_at', 'amount'],
  search: ['id', 'description', 'provider_reference'],
};

/** The ledger account of an account's balance: the own account's is `merchant`. */
export const balanceAccountOf = (account: Pick<Account, 'id' | 'type'>) =>
  account.type === 'own' ? 'merchant' : connectedAccountName(account.id);

export interface OpenPayout {
  applicationId: string;
  livemode: boolean;
  account: Account;
  destination: BankAccount;
  amount: number;
  currency: string;
  description: string | null;
  metadata: Record<string, unknown>;
  /** Automatic payouts: the schedule period (`daily:2026-11-25`); one payout per account and period. */
  period: string | null;
}

/**
 * Creating payouts (the API's and the schedule job's) and reading them; what happens to a payout
 * afterwards is PayoutLifecycleService's.
 */
@Injectable()
export class PayoutsService {
  constructor(
    private readonly payouts: PayoutLifecycleRepository,
    private readonly accounts: AccountsService,
    private readonly balances: BalancesService,
    private readonly journals: PayoutJournals,
    private readonly events: EventRecorder,
    private readonly lifecycle: PayoutLifecycleService,
    private readonly providers: TransferProviders,
    private readonly idempotency: IdempotencyScope,
    private readonly clock: Clock,
  ) {}

  /**
   * A resend of a keyed request whose earlier attempt committed the payout resumes it
   * (docs/IDEMPOTENCY.md): a payout the provider has not answered for is sent again by its id.
   */
  async create(principal: Principal, dto: CreatePayoutDto): Promise<PayoutResponse> {
    const applicationId = principal.application.id;
    const resumed = this.idempotency.resumes('payout');
    if (resumed) {
      const payout = await this.lifecycle.found(applicationId, resumed);
      const unanswered = payout.status === 'pending' && !payout.provider_reference;
      return toPayoutResponse(unanswered ? await this.lifecycle.send(payout) : payout);
    }
    const account = dto.account
      ? await this.payableAccount(applicationId, dto.account)
      : await this.accounts.ownAccount(principal.application);
    const destination = await this.destination(applicationId, account, dto.destination);
    const currency = dto.currency.toUpperCase();
    if (currency !== destination.currency) {
      throw new AppError(PayoutErrors.E6304, `Bank account "${destination.id}" is in ${destination.currency}.`);
    }
    const payout = await this.open({
      applicationId,
      livemode: principal.livemode,
      account,
      destination,
      amount: dto.amount,
      currency,
      description: dto.description ?? null,
      metadata: dto.metadata ?? {},
      period: null,
    });
    return toPayoutResponse(payout!);
  }

  /** The account to pay out from: of this application, and KYB verified when connected (E1304). */
  async payableAccount(applicationId: string, id: string): Promise<Account> {
    const account = await this.accounts.findById(applicationId, id);
    if (!account) throw new AppError(PayoutErrors.E6101, `Invalid parameter "account": no account with id "${id}".`);
    if (account.type === 'connected' && account.kyb_status !== 'verified') {
      throw new AppError(
        Errors.E1304,
        `Account "${id}" has KYB status "${account.kyb_status}"; it can be paid out once verified.`,
      );
    }
    return account;
  }

  /** A bank account of `account` that the country's transfer provider can pay to. */
  async destination(applicationId: string, account: Pick<Account, 'id'>, id: string): Promise<BankAccount> {
    const bank = await this.payouts.bankAccount(applicationId, id);
    if (!bank || bank.account_id !== account.id) {
      throw new AppError(
        PayoutErrors.E6302,
        `Invalid parameter "destination": no bank account "${id}" of account "${account.id}".`,
      );
    }
    if (!this.providers.forCountry(bank.country, bank.livemode)) {
      throw new AppError(PayoutErrors.E6306, `No transfer provider serves ${bank.country}.`);
    }
    if (!bank.recipient_reference) {
      const why =
        bank.provider_status === 'not_applicable'
          ? `Bank account "${id}" of connected account "${account.id}" has no recipient: the transfer provider of ${bank.country} cannot pay connected accounts (docs/PAYOUTS.md).`
          : `Bank account "${id}" has no recipient at the transfer provider (provider_status "${bank.provider_status}").`;
      throw new AppError(PayoutErrors.E6303, why);
    }
    return bank;
  }

  /**
   * Books the payout (available -> payouts_in_transit) in one transaction with its row and its
   * `payout.created` event, then asks the provider to send it, outside any transaction. Answers
   * null when an automatic payout of the same account and period exists already.
   */
  async open(input: OpenPayout): Promise<Payout | null> {
    const { applicationId, account, destination, amount, currency } = input;
    const created = await this.payouts.transaction(async (manager) => {
      const balance = await this.balances.getOrCreate(
        { application_id: applicationId, account: balanceAccountOf(account), currency },
        manager,
      );
      const insufficient = (available: number) =>
        new AppError(
          PayoutErrors.E6301,
          `The available ${currency} balance of account "${account.id}" is ${available}, less than ${amount}.`,
        );
      if (Number(balance.available) < amount) throw insufficient(Number(balance.available));
      const now = this.clock.now();
      const payout = await this.payouts.insert(
        {
          id: newId(),
          application_id: applicationId,
          account_id: account.id,
          destination: destination.id,
          country: destination.country,
          status: NEW_PAYOUT_STATUS,
          amount,
          currency,
          scaling_factor: scalingFactorOf(currency),
          balance_id: balance.id,
          description: input.description,
          method: 'standard',
          automatic: input.period !== null,
          schedule_period: input.period,
          provider: this.providers.forCountry(destination.country, destination.livemode)?.name ?? null,
          provider_reference: null,
          failure_code: null,
          failure_message: null,
          metadata: input.metadata,
          arrival_date: null,
          paid_at: null,
          failed_at: null,
          canceled_at: null,
          created_at: now,
          updated_at: now,
        },
        manager,
      );
      if (!payout) return null;
      await this.journals.created(payout, manager);
      // The posting locked the balance: read again under that lock, so concurrent payouts cannot overdraw it.
      const after = await this.balances.getOrCreate(
        { application_id: applicationId, account: balanceAccountOf(account), currency },
        manager,
      );
      if (Number(after.available) < 0) throw insufficient(Number(after.available) + amount);
      await this.events.record(manager, payoutEvent('payout.created', payout));
      await this.idempotency.checkpoint(manager, 'payout', payout.id);
      return payout;
    });
    if (!created) return null;
    return this.lifecycle.send(created);
  }

  /** A provider's verified notice about a transfer (the provider-events module): see PayoutLifecycleService. */
  applyProviderOutcome(
    provider: string,
    transfer: ProviderTransfer,
    claim?: (manager: EntityManager) => Promise<boolean>,
  ): Promise<'applied' | 'unchanged' | 'duplicate' | 'unknown'> {
    return this.lifecycle.applyProviderOutcome(provider, transfer, claim);
  }

  async retrieve(principal: Principal, id: string): Promise<PayoutResponse> {
    return toPayoutResponse(await this.lifecycle.found(principal.application.id, id));
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<PayoutResponse>> {
    return runList(this.payouts.query(principal.application.id), PAYOUT_LIST, query, toPayoutResponse);
  }

  /** Payouts by id as the API answers them (the ledger embeds them as a balance transaction's `transfer`). */
  async responsesById(applicationId: string, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
    const payouts = await this.payouts.byIds(applicationId, ids);
    return new Map(payouts.map((p) => [p.id, toPayoutResponse(p)]));
  }
}
