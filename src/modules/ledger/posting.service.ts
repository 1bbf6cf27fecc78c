/**
 * PostingService: the ONLY writer of journals, balance transactions and balance amounts.
 *
 *   post(posting: Posting, manager?: EntityManager): Promise<PostedJournal>
 *
 *   posting = {
 *     application_id?,             // defaults to the request's application (jobs pass it)
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
 *     }]
 *   }
 *
 * Rules: at least two entries, non-zero integer amounts, entries sum to zero per currency.
 * One SQL statement per posting: the touched balances are locked with SELECT ... FOR UPDATE in
 * id order (one fixed order, so concurrent postings never deadlock), then the journal, its entries
 * (one multi-row INSERT) and the new `available`/`hold` of each balance are written atomically.
 * Pass `manager` to post inside a caller's transaction (its mode must be the request's). `fee` is informational: the fee is booked by its own entry; an entry's
 * `gross_amount` is `amount + fee` and its `net` is `amount`.
 * Entries are never updated or deleted (a database trigger refuses it); a correction is a new
 * posting, and so is the release of held funds (hold -> available), see HoldReleaseService.
 */
import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager, QueryRunner } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { RequestContext } from '../../common/context/request-context.js';
import { DatabaseEndpoint } from '../../common/database/database-endpoint.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { AppError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids.js';
import { BalanceTransaction, type FeeDetail } from './entities/balance-transaction.entity.js';
import { Journal } from './entities/journal.entity.js';
import { LedgerErrors } from './ledger.errors.js';

export type EntryState = 'hold' | 'available';

/** The part of a `pg` client or pool that runs a named (prepared) statement. */
interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

export interface PostingEntry {
  balance_id: string;
  amount: number;
  currency: string;
  state: EntryState;
  available_on?: Date | null;
  type: string;
  source: string;
  category?: string | null;
  reporting_category?: string | null;
  transfer_id?: string | null;
  description?: string | null;
  fee?: number;
  fee_details?: FeeDetail[];
  original_currency?: string | null;
  original_amount?: number | null;
  exchange_rate?: number | null;
  parent_event_type?: string | null;
  parent_event_id?: string | null;
  forex_quote_id?: string | null;
  plane?: string | null;
}

export interface Posting {
  application_id?: string;
  description?: string | null;
  event_type: string;
  event_id?: string | null;
  entries: PostingEntry[];
}

export interface PostedJournal {
  journal: Journal;
  entries: BalanceTransaction[];
}

const ENTRY_COLUMNS = [
  'id',
  'application_id',
  'journal_id',
  'balance_id',
  'customer_id',
  'account',
  'currency',
  'amount',
  'running_balance',
  'state',
  'description',
  'original_currency',
  'original_amount',
  'exchange_rate',
  'event_type',
  'event_id',
  'parent_event_type',
  'parent_event_id',
  'transfer_id',
  'category',
  'forex_quote_id',
  'type',
  'source',
  'reporting_category',
  'plane',
  'scaling_factor',
  'fee',
  'net',
  'gross_amount',
  'fee_details',
  'record_only',
  'available_on',
  'created_at',
  'updated_at',
] as const;

const MAX_ENTRIES = 100;

@Injectable()
export class PostingService {
  constructor(
    private readonly db: ModeDb,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly endpoint: DatabaseEndpoint,
  ) {}

  private oneSession?: Promise<boolean>;

  /** Asked on the caller's connection: the embedded server holds other connections while a transaction is open. */
  private oneSessionServer(manager: EntityManager): Promise<boolean> {
    this.oneSession ??= this.endpoint.isEmbedded
      ? Promise.resolve(true)
      : manager.query('SELECT version() AS v').then((rows: Array<{ v: string }>) => rows[0].v.includes('PGlite'));
    return this.oneSession;
  }

  post(posting: Posting, manager?: EntityManager): Promise<PostedJournal> {
    validate(posting);
    const applicationId = posting.application_id ?? this.context.application.id;
    return this.apply(applicationId, posting, manager ?? this.db.manager);
  }

  /**
   * Runs `sql` as a named prepared statement, so each connection plans a posting of a given shape
   * once (planning this statement costs about as much as running it). Inside a caller's
   * transaction it runs on that transaction's connection. The embedded database (PGlite) serves
   * every connection from one session, where the names of prepared statements would collide:
   * there the statement runs unnamed.
   */
  private async prepared<T>(manager: EntityManager, sql: string, values: unknown[]): Promise<T[]> {
    if (await this.oneSessionServer(manager)) return manager.query(sql, values);
    const name = `ledger_post_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    const runner = manager.queryRunner as (QueryRunner & { connect(): Promise<PgQueryable> }) | undefined;
    const target: PgQueryable =
      runner && !runner.isReleased
        ? await runner.connect()
        : (this.db.dataSource.driver as unknown as { master: PgQueryable }).master;
    const result = await target.query({ name, text: sql, values });
    return result.rows as T[];
  }

  /**
   * One statement (atomic on its own, or part of the caller's transaction): lock the balances in
   * id order, check that each entry's balance exists in this application with the entry's
   * currency, and only then insert the journal, the entries (with running balances) and the hold
   * releases and add the entries to the balances. The UPDATE needs the aggregated entries, which
   * need every lock, so no balance is written before all of them are locked in order.
   */
  private async apply(applicationId: string, posting: Posting, manager: EntityManager): Promise<PostedJournal> {
    const ids = [...new Set(posting.entries.map((e) => e.balance_id))].sort();
    const now = this.clock.now();
    const livemode = this.context.livemode;
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
    const params: unknown[] = [
      journal.id,
      applicationId,
      journal.description,
      journal.event_type,
      journal.event_id,
      now,
      ids,
    ];
    const p = (value: unknown, type: string) => {
      params.push(value);
      return `$${params.length}::${type}`;
    };
    const inputRows = posting.entries
      .map((e, i) =>
        [
          p(i, 'int'),
          p(entryIds[i], 'uuid'),
          p(e.balance_id, 'uuid'),
          p(e.amount, 'bigint'),
          p(e.state, 'text'),
          p(e.currency, 'text'),
          p(e.description ?? null, 'text'),
          p(e.original_currency ?? null, 'text'),
          p(e.original_amount ?? null, 'bigint'),
          p(e.exchange_rate ?? null, 'numeric'),
          p(e.parent_event_type ?? null, 'text'),
          p(e.parent_event_id ?? null, 'text'),
          p(e.transfer_id ?? null, 'text'),
          p(e.category ?? null, 'text'),
          p(e.forex_quote_id ?? null, 'text'),
          p(e.type, 'text'),
          p(e.source, 'text'),
          p(e.reporting_category ?? null, 'text'),
          p(e.plane ?? null, 'text'),
          p(e.fee ?? 0, 'bigint'),
          p(JSON.stringify(e.fee_details ?? []), 'jsonb'),
          p(e.state === 'hold' ? (e.available_on ?? null) : null, 'timestamptz'),
        ].join(', '),
      )
      .map((row) => `(${row})`)
      .join(', ');
    const balances = this.db.table('balances');
    const [result]: Array<{
      ok: boolean;
      locked: Array<{ id: string; currency: string }>;
      rows: Array<{
        ord: number;
        running_balance: number;
        customer_id: string | null;
        account: string;
        scaling_factor: number;
      }>;
    }> = await this.prepared(
      manager,
      `WITH locked AS MATERIALIZED (
          SELECT id, customer_id, account, currency, available, hold, scaling_factor FROM ${balances}
           WHERE application_id = $2 AND id = ANY($7::uuid[]) ORDER BY id FOR UPDATE
        ), input (ord, id, balance_id, amount, state, currency, description, original_currency, original_amount,
                  exchange_rate, parent_event_type, parent_event_id, transfer_id, category, forex_quote_id, type, source,
                  reporting_category, plane, fee, fee_details, available_on) AS (VALUES ${inputRows}),
        checked AS MATERIALIZED (
          SELECT count(*) = ${posting.entries.length} AS ok
            FROM input i JOIN locked l ON l.id = i.balance_id AND l.currency = i.currency
        ), rows AS MATERIALIZED (
          SELECT i.*, l.customer_id, l.account, l.scaling_factor,
                 l.available + l.hold + sum(i.amount) OVER (PARTITION BY i.balance_id ORDER BY i.ord) AS running_balance
            FROM input i JOIN locked l ON l.id = i.balance_id
           WHERE (SELECT ok FROM checked)
        ), j AS (
          INSERT INTO ${this.db.table('journals')} (id, application_id, description, event_type, event_id, created_at)
          SELECT $1, $2, $3, $4, $5, $6 WHERE (SELECT ok FROM checked)
        ), b AS (
          UPDATE ${balances} AS bal
             SET available = bal.available + d.available, hold = bal.hold + d.hold, updated_at = $6
            FROM (SELECT balance_id,
                         coalesce(sum(amount) FILTER (WHERE state = 'available'), 0) AS available,
                         coalesce(sum(amount) FILTER (WHERE state = 'hold'), 0) AS hold
                    FROM rows GROUP BY balance_id) d
           WHERE bal.id = d.balance_id
        ), e AS (
          INSERT INTO ${this.db.table('balance_transactions')} (${ENTRY_COLUMNS.join(', ')})
          SELECT id, $2, $1, balance_id, customer_id, account, currency, amount, running_balance, state,
                 coalesce(description, $3), original_currency, original_amount, exchange_rate, $4, $5,
                 parent_event_type, parent_event_id, transfer_id, category, forex_quote_id, type, source,
                 reporting_category, plane, scaling_factor, fee, amount, amount + fee, fee_details, false,
                 available_on, $6, $6
            FROM rows
        ), r AS (
          INSERT INTO ${this.db.table('hold_releases')} (entry_id, application_id, available_on)
          SELECT id, $2, available_on FROM rows WHERE state = 'hold' AND amount > 0 AND available_on IS NOT NULL
        )
        SELECT (SELECT ok FROM checked) AS ok,
               (SELECT coalesce(json_agg(json_build_object('id', id, 'currency', currency)), '[]') FROM locked) AS locked,
               (SELECT coalesce(json_agg(json_build_object('ord', ord, 'running_balance', running_balance,
                         'customer_id', customer_id, 'account', account, 'scaling_factor', scaling_factor)), '[]')
                  FROM rows) AS rows`,
      params,
    );
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
      throw new Error('posting refused by the database without a reason');
    }
    const byOrd = new Map(result.rows.map((r) => [r.ord, r]));
    const entries = posting.entries.map((e, i) => {
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
    return { journal, entries };
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
  for (const [currency, sum] of sums) {
    if (sum !== 0) throw new AppError(LedgerErrors.E9001, `The entries in ${currency} sum to ${sum}, not zero.`);
  }
}
