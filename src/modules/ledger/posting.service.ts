/**
 * PostingService: the ONLY writer of journals, balance transactions and balance amounts.
 *
 *   post(posting: Posting, manager?: EntityManager): Promise<PostedJournal>
 *
 *   posting = {
 *     application_id,              // the application whose balances move
 *     description?, event_type, event_id?,
 *     entries: [{
 *       balance_id, amount,        // signed integer in minor units: what moves the balance
 *       currency,                  // must equal the balance's currency
 *       state: 'hold' | 'available',
 *       available_on?,             // hold entries with a date are released to `available` then
 *       type, source,              // e.g. 'charge', 'payment' / 'dispute', 'dispute'
 *       category?, reporting_category?, transfer_id?, description?, fee?, fee_details?,
 *       original_currency?, original_amount?, exchange_rate?, parent_event_type?,
 *       parent_event_id?, forex_quote_id?, plane?
 *     }],
 *     non_negative_available?: [balance_id, …]   // balances this posting may not take below zero available
 *   }
 *
 * Rules: at least two entries, non-zero integer amounts, entries sum to zero per currency; a posting
 * that would take a balance of `non_negative_available` below zero available is refused (E9005)
 * against the balance as it is under the posting's lock, so concurrent postings cannot overdraw it.
 *
 * Without `manager` the posting is group-committed (docs/LEDGER.md, "Hot balances"): it goes to the
 * database with the postings that arrive while earlier batches are in flight, in one transaction
 * that locks their balances once and applies them one after the other in arrival order, each with
 * its own journal, running balances and places in the chains, or its own error; it answers once that
 * transaction has committed. So a hot balance (the platform's fees) takes one lock and one commit
 * per batch, not per journal. A posting that takes held funds always goes alone.
 * In a caller's transaction (with `manager`), one SQL statement per posting: the touched balances are locked with SELECT ... FOR UPDATE in
 * id order (one fixed order, so concurrent postings never deadlock), then the journal, its entries
 * (one multi-row INSERT) and the new `available`/`hold` of each balance are written atomically.
 * Pass `manager` to post inside a caller's transaction (its mode must be the request's). There, legs
 * on a hot balance (LEDGER_HOT_ACCOUNTS; `available` legs the posting does not guard) are not
 * written under the balance's lock but queued in the caller's transaction and applied after its
 * commit (HotLegsRepository, docs/LEDGER.md "Hot balances"): `PostedJournal.pending` lists them. `fee` is informational: the fee is booked by its own entry; an entry's
 * `gross_amount` is `amount + fee` and its `net` is `amount`.
 * Entries are never updated or deleted (a database trigger refuses it); a correction is a new
 * posting, and so is the release of held funds (hold -> available), see HoldReleaseJob.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { AppError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids.js';
import { BalanceTransaction } from './entities/balance-transaction.entity.js';
import { Journal } from './entities/journal.entity.js';
import { HotLegsRepository } from './hot-legs.repository.js';
import { LedgerErrors } from './ledger.errors.js';
import type { PostingEntry } from './posting.sql.js';
import { PostingsRepository } from './postings.repository.js';

export type { EntryState, PostingEntry } from './posting.sql.js';

export interface Posting {
  application_id: string;
  description?: string | null;
  event_type: string;
  event_id?: string | null;
  entries: PostingEntry[];
  /** Balances (among the entries') whose `available` this posting may not take below zero. */
  non_negative_available?: string[];
}

export interface PostedJournal {
  journal: Journal;
  /** The entries written with the journal, in the posting's order, with their running balances. */
  entries: BalanceTransaction[];
  /**
   * Legs on hot balances queued for the applier (in a caller's transaction, docs/LEDGER.md "Hot
   * balances"): they become entries, with these ids, once applied after the caller's commit.
   */
  pending: PendingLeg[];
}

export interface PendingLeg {
  id: string;
  balance_id: string;
  amount: number;
  currency: string;
  type: string;
}

const MAX_ENTRIES = 100;

@Injectable()
export class PostingService {
  constructor(
    private readonly postings: PostingsRepository,
    private readonly hot: HotLegsRepository,
    private readonly clock: Clock,
  ) {}

  post(posting: Posting, manager?: EntityManager): Promise<PostedJournal> {
    validate(posting);
    return this.apply(posting.application_id, posting, manager);
  }

  /**
   * One statement (atomic on its own, or part of the caller's transaction): lock the balances in
   * id order, check that each entry's balance exists in this application with the entry's
   * currency, and only then insert the journal, the entries (with running balances) and the hold
   * releases and add the entries to the balances. The UPDATE needs the aggregated entries, which
   * need every lock, so no balance is written before all of them are locked in order.
   */
  private async apply(applicationId: string, posting: Posting, manager?: EntityManager): Promise<PostedJournal> {
    const now = this.clock.now();
    const livemode = this.postings.livemode;
    const journal = Object.assign(new Journal(), {
      id: newId(),
      application_id: applicationId,
      description: posting.description ?? null,
      event_type: posting.event_type,
      event_id: posting.event_id ?? null,
      created_at: now,
      livemode,
    });
    const entryIds = posting.entries.map(() => newId());
    const journalInput = {
      id: journal.id,
      applicationId,
      description: journal.description,
      eventType: journal.event_type,
      eventId: journal.event_id,
      now,
    };
    const inputs = posting.entries.map((e, i) => ({ ...e, id: entryIds[i] }));
    const guarded = posting.non_negative_available ?? [];
    const takesHeldFunds = posting.entries.some((e) => e.state === 'hold' && e.amount < 0);
    const queued =
      manager && !takesHeldFunds ? await this.queuedBalances(posting, guarded, manager) : new Set<string>();
    // Written now (all of them unless legs go to hot balances' queues), by their index in the posting.
    const written = posting.entries.map((_, i) => i).filter((i) => !queued.has(posting.entries[i].balance_id));
    const result = !written.length
      ? { ok: true, locked: [], rows: [] }
      : manager || takesHeldFunds
        ? await this.postings.post(
            journalInput,
            written.map((i) => inputs[i]),
            guarded,
            manager,
          )
        : await this.postings.postGrouped({ journal: journalInput, entries: inputs, nonNegativeAvailable: guarded });
    if (!result.ok) {
      const found = new Map(result.locked.map((b) => [b.id, b.currency]));
      for (const e of posting.entries) {
        const currency = found.get(e.balance_id);
        if (!currency) throw new AppError(LedgerErrors.E9003, `No balance with id "${e.balance_id}".`);
        if (currency !== e.currency) {
          throw new AppError(
            LedgerErrors.E9004,
            `Balance "${e.balance_id}" is in ${currency}, the entry in ${e.currency}.`,
          );
        }
      }
      if (result.short) {
        const { balance_id, available, change } = result.short;
        throw new AppError(
          LedgerErrors.E9005,
          `Balance "${balance_id}" has ${available} available (minor units); the posting takes ${-change}.`,
        );
      }
      throw new Error('posting refused by the database without a reason');
    }
    if (queued.size > 0) {
      const legs = inputs.filter((e) => queued.has(e.balance_id));
      await this.hot.queue(this.postings.livemode ? 'live' : 'test', manager!, journalInput, legs, !written.length);
    }
    const byOrd = new Map(result.rows.map((r) => [written[r.ord], r]));
    const pending = inputs
      .filter((e) => queued.has(e.balance_id))
      .map((e) => ({ id: e.id, balance_id: e.balance_id, amount: e.amount, currency: e.currency, type: e.type }));
    const entries = written.map((i) => {
      const e = posting.entries[i];
      const row = byOrd.get(i)!;
      const fee = e.fee ?? 0;
      return Object.assign(new BalanceTransaction(), {
        id: entryIds[i],
        application_id: applicationId,
        journal_id: journal.id,
        balance_id: e.balance_id,
        customer_id: row.customer_id,
        account: row.account,
        currency: e.currency,
        amount: e.amount,
        running_balance: Number(row.running_balance),
        chain_seq: Number(row.chain_seq),
        entry_hash: row.entry_hash,
        state: e.state,
        description: e.description ?? posting.description ?? null,
        original_currency: e.original_currency ?? null,
        original_amount: e.original_amount ?? null,
        exchange_rate: e.exchange_rate ?? null,
        event_type: posting.event_type,
        event_id: posting.event_id ?? null,
        parent_event_type: e.parent_event_type ?? null,
        parent_event_id: e.parent_event_id ?? null,
        transfer_id: e.transfer_id ?? null,
        category: e.category ?? null,
        forex_quote_id: e.forex_quote_id ?? null,
        type: e.type,
        source: e.source,
        reporting_category: e.reporting_category ?? null,
        plane: e.plane ?? null,
        scaling_factor: row.scaling_factor,
        fee,
        net: e.amount,
        gross_amount: e.amount + fee,
        fee_details: e.fee_details ?? [],
        record_only: false,
        available_on: e.state === 'hold' ? (e.available_on ?? null) : null,
        created_at: now,
        updated_at: now,
        livemode,
      });
    });
    return { journal, entries, pending };
  }

  /**
   * The hot balances (LEDGER_HOT_ACCOUNTS) whose legs this posting, in a caller's transaction, queues
   * instead of locking them: each moved only in `available`, not guarded by the posting. None when a
   * balance is unknown, of another application or currency (the posting statement answers that error).
   */
  private async queuedBalances(posting: Posting, guarded: string[], manager: EntityManager): Promise<Set<string>> {
    // Queued legs wait for the caller's commit: a manager outside a transaction writes them at once, as before.
    if (!this.hot.enabled || !manager.queryRunner?.isTransactionActive) return new Set();
    const ids = [...new Set(posting.entries.map((e) => e.balance_id))];
    const facts = await this.hot.describe(this.postings.livemode ? 'live' : 'test', ids, manager);
    const valid = posting.entries.every((e) => {
      const f = facts.get(e.balance_id);
      return f !== undefined && f.application_id === posting.application_id && f.currency === e.currency;
    });
    if (!valid) return new Set();
    return new Set(
      ids.filter(
        (id) =>
          facts.get(id)!.hot &&
          !guarded.includes(id) &&
          posting.entries.every((e) => e.balance_id !== id || e.state === 'available'),
      ),
    );
  }
}

function validate(posting: Posting): void {
  if (!posting.event_type) throw new AppError(LedgerErrors.E9002, 'A journal needs an event_type.');
  if (!Array.isArray(posting.entries) || posting.entries.length < 2 || posting.entries.length > MAX_ENTRIES) {
    throw new AppError(LedgerErrors.E9002, `A journal has 2 to ${MAX_ENTRIES} entries.`);
  }
  const sums = new Map<string, number>();
  for (const [i, e] of posting.entries.entries()) {
    if (!Number.isSafeInteger(e.amount) || e.amount === 0) {
      throw new AppError(LedgerErrors.E9002, `entries[${i}].amount must be a non-zero integer.`);
    }
    if (e.state !== 'hold' && e.state !== 'available') {
      throw new AppError(LedgerErrors.E9002, `entries[${i}].state must be hold or available.`);
    }
    if (!e.type || !e.source || !e.currency) {
      throw new AppError(LedgerErrors.E9002, `entries[${i}] needs type, source and currency.`);
    }
    if (e.fee !== undefined && !Number.isSafeInteger(e.fee)) {
      throw new AppError(LedgerErrors.E9002, `entries[${i}].fee must be an integer.`);
    }
    sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amount);
  }
  for (const id of posting.non_negative_available ?? []) {
    if (!posting.entries.some((e) => e.balance_id === id)) {
      throw new AppError(LedgerErrors.E9002, `non_negative_available names balance "${id}", which no entry moves.`);
    }
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0) throw new AppError(LedgerErrors.E9001, `The entries in ${currency} sum to ${sum}, not zero.`);
  }
}
