import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import type { EventType } from '../../../common/events/event-types.js';
import { newId } from '../../../common/ids.js';
import {
  FilterPatterns,
  runList,
  type ListEnvelope,
  type ListQuery,
  type ListSpec,
} from '../../../common/list/index.js';
import { AccountsService, type Account } from '../../accounts/index.js';
import {
  BalancesService,
  connectedAccountName,
  PostingService,
  scalingFactorOf,
  type PostingEntry,
} from '../../ledger/index.js';
import type { CreatePayoutDto } from '../dto/payout.dto.js';
import type { BankAccount } from '../entities/bank-account.entity.js';
import { Payout } from '../entities/payout.entity.js';
import { PayoutErrors } from '../payouts.errors.js';
import { SandboxTransferProvider } from '../providers/sandbox-transfer.provider.js';
import { TransferProviders } from '../providers/transfer-providers.js';
import { TransferProviderError, type ProviderTransfer } from '../providers/transfer.types.js';
import { PayoutLifecycleRepository } from './payout-lifecycle.repository.js';
import {
  canPayout,
  NEW_PAYOUT_STATUS,
  payoutTransition,
  type PayoutEvent,
  type PayoutStatus,
} from './payout.transitions.js';
import { toPayoutResponse, type PayoutResponse } from './payouts.responses.js';

export const PAYOUT_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    status: { type: 'text', values: ['pending', 'in_transit', 'paid', 'failed', 'canceled'] },
    destination: { type: 'uuid' },
    account: { type: 'uuid', column: 'p.account_id' },
    currency: { type: 'text', pattern: FilterPatterns.currency },
    amount: { type: 'integer' },
    automatic: { type: 'boolean' },
    created: { type: 'timestamp', column: 'p.created_at' },
    created_at: { type: 'timestamp' },
    updated_at: { type: 'timestamp' },
  },
  sortable: ['created_at', 'updated_at', 'amount'],
  search: ['id', 'description', 'provider_reference'],
};

/** The ledger account of an account's balance: the own account's is `merchant`. */
export const balanceAccountOf = (account: Pick<Account, 'id' | 'type'>) =>
  account.type === 'own' ? 'merchant' : connectedAccountName(account.id);

/** The sandbox "bank" credits a payout in transit one business day later (informational `arrival_date`). */
const ARRIVAL_MS = 24 * 3600 * 1000;

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

@Injectable()
export class PayoutsService {
  private readonly logger = new Logger(PayoutsService.name);

  constructor(
    private readonly payouts: PayoutLifecycleRepository,
    private readonly accounts: AccountsService,
    private readonly balances: BalancesService,
    private readonly posting: PostingService,
    private readonly events: EventRecorder,
    private readonly providers: TransferProviders,
    private readonly sandbox: SandboxTransferProvider,
    private readonly clock: Clock,
  ) {}

  async create(principal: Principal, dto: CreatePayoutDto): Promise<PayoutResponse> {
    const applicationId = principal.application.id;
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
      throw new AppError(
        PayoutErrors.E6303,
        `Bank account "${id}" has no recipient at the transfer provider (provider_status "${bank.provider_status}").`,
      );
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
      const inTransit = await this.inTransitBalance(applicationId, currency, manager);
      await this.post(
        payout,
        'payout.created',
        [
          { balance_id: balance.id, amount: -amount, type: 'payout', category: 'payout' },
          { balance_id: inTransit, amount, type: 'payout', category: 'payout' },
        ],
        manager,
      );
      // The posting locked the balance: read again under that lock, so concurrent payouts cannot overdraw it.
      const after = await this.balances.getOrCreate(
        { application_id: applicationId, account: balanceAccountOf(account), currency },
        manager,
      );
      if (Number(after.available) < 0) throw insufficient(Number(after.available) + amount);
      await this.record(manager, 'payout.created', payout);
      return payout;
    });
    if (!created) return null;
    return this.send(created);
  }

  /** Starts the transfer at the provider (outside any transaction) and applies its answer. */
  async send(payout: Payout): Promise<Payout> {
    const provider = payout.provider ? this.providers.named(payout.provider) : undefined;
    const bank = await this.payouts.bankAccount(payout.application_id, payout.destination);
    if (!provider || !bank?.recipient_reference) return payout;
    let transfer: ProviderTransfer;
    try {
      transfer = await provider.createTransfer({
        applicationId: payout.application_id,
        payoutId: payout.id,
        recipientReference: bank.recipient_reference,
        amount: Number(payout.amount),
        currency: payout.currency,
        scalingFactor: payout.scaling_factor,
        livemode: payout.livemode,
      });
    } catch (error) {
      if (!(error instanceof TransferProviderError)) throw error;
      // The payout stays pending (cancelable); the payouts job sends it again (the payout id is the provider's idempotency key).
      this.logger.warn(`payout ${payout.id}: the transfer provider did not answer: ${error.message}`);
      return payout;
    }
    return this.apply(payout.application_id, payout.id, transfer);
  }

  /**
   * Brings a payout to the provider's state, one transition at a time (pending -> in_transit ->
   * paid), each with its ledger posting and event, in one transaction under the payout's row lock.
   */
  async apply(
    applicationId: string,
    id: string,
    transfer: ProviderTransfer,
    before?: (manager: EntityManager, payout: Payout) => Promise<boolean>,
  ): Promise<Payout> {
    return this.payouts.transaction(async (manager) => {
      let payout = (await this.payouts.lock(applicationId, id, manager))!;
      if (before && !(await before(manager, payout))) return payout;
      if (!payout.provider_reference) {
        await this.payouts.update(applicationId, id, { provider_reference: transfer.reference }, manager);
        payout.provider_reference = transfer.reference;
      }
      const steps: PayoutEvent[] =
        transfer.status === 'in_transit'
          ? ['send']
          : transfer.status === 'paid'
            ? ['send', 'pay']
            : transfer.status === 'failed'
              ? ['fail']
              : transfer.status === 'canceled'
                ? ['cancel']
                : [];
      for (const step of steps) {
        if (!canPayout(payout.status, step)) continue;
        payout = await this.step(payout, step, manager, transfer.failure);
      }
      return payout;
    });
  }

  /**
   * A provider's notice about the transfer it knows by `transfer.reference` (its webhook, verified
   * by the provider-events module), applied like the job's reconciliation. `claim` records the
   * notice in the same transaction; false (seen before) changes nothing.
   */
  async applyProviderOutcome(
    provider: string,
    transfer: ProviderTransfer,
    claim?: (manager: EntityManager) => Promise<boolean>,
  ): Promise<'applied' | 'unchanged' | 'duplicate' | 'unknown'> {
    const found = await this.payouts.byProviderReference(provider, transfer.reference);
    if (!found) return 'unknown';
    let result = 'unchanged' as 'applied' | 'unchanged' | 'duplicate';
    let before: string | undefined;
    const after = await this.apply(found.application_id, found.id, transfer, async (manager, payout) => {
      before = payout.status;
      if (claim && !(await claim(manager))) {
        result = 'duplicate';
        return false;
      }
      return true;
    });
    if (result !== 'duplicate' && after.status !== before) result = 'applied';
    return result;
  }

  async retrieve(principal: Principal, id: string): Promise<PayoutResponse> {
    return toPayoutResponse(await this.found(principal.application.id, id));
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<PayoutResponse>> {
    return runList(this.payouts.query(principal.application.id), PAYOUT_LIST, query, toPayoutResponse);
  }

  /** Cancels a payout still pending: the provider first (outside the transaction), then the books. */
  async cancel(principal: Principal, id: string): Promise<PayoutResponse> {
    const applicationId = principal.application.id;
    const payout = await this.found(applicationId, id);
    payoutTransition(payout.status, 'cancel', id);
    if (payout.provider_reference && payout.provider) {
      const provider = this.providers.named(payout.provider);
      const transfer = await provider?.cancelTransfer(payout.provider_reference);
      if (transfer && transfer.status !== 'canceled') {
        const applied = await this.apply(applicationId, id, transfer);
        payoutTransition(applied.status, 'cancel', id);
      }
    }
    const canceled = await this.payouts.transaction(async (manager) => {
      const locked = (await this.payouts.lock(applicationId, id, manager))!;
      payoutTransition(locked.status, 'cancel', id);
      return this.step(locked, 'cancel', manager);
    });
    return toPayoutResponse(canceled);
  }

  /** Test mode: the sandbox bank settles a payout in transit (paid, or failed `could_not_process`). */
  async settleForTest(principal: Principal, id: string, outcome: 'paid' | 'failed'): Promise<PayoutResponse> {
    const applicationId = principal.application.id;
    const payout = await this.found(applicationId, id);
    payoutTransition(payout.status, outcome === 'paid' ? 'pay' : 'fail', id);
    if (payout.provider !== this.sandbox.name || !payout.provider_reference) {
      throw new AppError(PayoutErrors.E6305, `Payout "${id}" is not at the sandbox transfer provider.`);
    }
    const transfer = await this.sandbox.settle(payout.provider_reference, outcome);
    return toPayoutResponse(await this.apply(applicationId, id, transfer));
  }

  /** The job: sends pending payouts again and reconciles those in transit with the provider. */
  async reconcile(payout: Pick<Payout, 'id' | 'application_id'>): Promise<void> {
    const current = await this.payouts.find(payout.application_id, payout.id);
    if (!current || (current.status !== 'pending' && current.status !== 'in_transit')) return;
    if (!current.provider_reference) {
      await this.send(current);
      return;
    }
    const provider = current.provider ? this.providers.named(current.provider) : undefined;
    if (!provider) return;
    try {
      await this.apply(current.application_id, current.id, await provider.transferStatus(current.provider_reference));
    } catch (error) {
      if (!(error instanceof TransferProviderError)) throw error;
      this.logger.warn(`payout ${current.id}: no transfer status: ${error.message}`);
    }
  }

  /** Payouts by id as the API answers them (the ledger embeds them as a balance transaction's `transfer`). */
  async responsesById(applicationId: string, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
    const payouts = await this.payouts.byIds(applicationId, ids);
    return new Map(payouts.map((p) => [p.id, toPayoutResponse(p)]));
  }

  private async found(applicationId: string, id: string): Promise<Payout> {
    const payout = await this.payouts.find(applicationId, id);
    if (!payout) throw new AppError(Errors.E4004, `No payout with id "${id}".`);
    return payout;
  }

  /** One transition: the status, its facts, its ledger posting and its event, in the caller's transaction. */
  private async step(
    payout: Payout,
    event: PayoutEvent,
    manager: EntityManager,
    failure?: { code: string; message: string },
  ): Promise<Payout> {
    const previous = payout.status;
    const status = payoutTransition(previous, event, payout.id);
    const now = this.clock.now();
    const facts: Partial<Payout> = { updated_at: now };
    if (status === 'in_transit') facts.arrival_date = new Date(now.getTime() + ARRIVAL_MS);
    if (status === 'paid') facts.paid_at = now;
    if (status === 'failed') {
      facts.failed_at = now;
      facts.failure_code = failure?.code ?? 'could_not_process';
      facts.failure_message = failure?.message ?? 'The bank could not process the payout.';
    }
    if (status === 'canceled') facts.canceled_at = now;
    const { status: _ignored, ...rest } = facts as Partial<Payout> & { status?: PayoutStatus };
    await this.payouts.writeStatus(payout.application_id, payout.id, status, rest as never, manager);
    const next = Object.assign(new Payout(), payout, rest, { status });
    const amount = Number(payout.amount);
    const inTransit = () => this.inTransitBalance(payout.application_id, payout.currency, manager);
    if (status === 'paid') {
      const clearing = await this.balances.getOrCreate(
        { application_id: payout.application_id, account: 'provider_clearing', currency: payout.currency },
        manager,
      );
      await this.post(
        next,
        'payout.paid',
        [
          { balance_id: await inTransit(), amount: -amount, type: 'payout', category: 'payout' },
          { balance_id: clearing.id, amount, type: 'payout', category: 'payout_clearing' },
        ],
        manager,
      );
    }
    if (status === 'failed' || status === 'canceled') {
      const type = status === 'failed' ? 'payout_failure' : 'payout_cancel';
      await this.post(
        next,
        `payout.${status}`,
        [
          { balance_id: await inTransit(), amount: -amount, type, category: 'payout_reversal' },
          { balance_id: payout.balance_id, amount, type, category: 'payout_reversal' },
        ],
        manager,
      );
    }
    const type: EventType =
      status === 'paid'
        ? 'payout.paid'
        : status === 'failed'
          ? 'payout.failed'
          : status === 'canceled'
            ? 'payout.canceled'
            : 'payout.updated';
    await this.record(manager, type, next, { status: previous });
    return next;
  }

  private async inTransitBalance(applicationId: string, currency: string, manager: EntityManager): Promise<string> {
    const balance = await this.balances.getOrCreate(
      { application_id: applicationId, account: 'payouts_in_transit', currency },
      manager,
    );
    return balance.id;
  }

  /** A payout journal: every entry available, carrying the payout as its `transfer`. */
  private async post(
    payout: Payout,
    eventType: string,
    entries: Array<Pick<PostingEntry, 'balance_id' | 'amount' | 'type' | 'category'>>,
    manager: EntityManager,
  ): Promise<void> {
    await this.posting.post(
      {
        application_id: payout.application_id,
        description: `Payout ${payout.id}`,
        event_type: eventType,
        event_id: payout.id,
        entries: entries.map((e) => ({
          ...e,
          currency: payout.currency,
          state: 'available' as const,
          source: 'payout',
          reporting_category: e.category === 'payout_reversal' ? 'payout_reversal' : 'payout',
          transfer_id: payout.id,
          parent_event_type: 'payout',
          parent_event_id: payout.id,
        })),
      },
      manager,
    );
  }

  private record(
    manager: EntityManager,
    type: EventType,
    payout: Payout,
    previous_attributes?: Record<string, unknown>,
  ): Promise<void> {
    return this.events.record(manager, {
      applicationId: payout.application_id,
      type,
      object: toPayoutResponse(payout),
      ...(previous_attributes ? { previous_attributes } : {}),
    });
  }
}
