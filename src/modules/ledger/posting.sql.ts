import type { FeeDetail } from './entities/balance-transaction.entity.js';

export type EntryState = 'hold' | 'available';

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
  'chain_seq',
  'entry_hash',
] as const;

/** One entry as the statement takes it: the posting's entry with its new id. */
export type EntryInput = PostingEntry & { id: string };

/**
 * What the statement answers: whether the posting was written (every balance found in the entry's
 * currency, no guarded balance taken below zero available), and each entry's row.
 */
export interface PostingResult {
  ok: boolean;
  locked: Array<{ id: string; currency: string }>;
  /** The guarded balance the posting would have taken below zero available (the posting was refused). */
  short?: { balance_id: string; available: number; change: number } | null;
  rows: Array<{
    ord: number;
    running_balance: number;
    customer_id: string | null;
    account: string;
    scaling_factor: number;
    chain_seq: number;
    entry_hash: string;
  }>;
}

/**
 * The one statement of a posting (atomic on its own, or part of the caller's transaction): lock the
 * balances in id order, check that each entry's balance exists in this application with the entry's
 * currency, and only then insert the journal, the entries (with running balances) and the hold
 * releases and add the entries to the balances. The UPDATE needs the aggregated entries, which
 * need every lock, so no balance is written before all of them are locked in order. Plain code
 * with no Nest imports, like the meter's store-events statement.
 *
 * Held funds: a positive hold entry with an `available_on` queues its release (`hold_releases`,
 * with the amount left to release). A negative hold entry (held funds taken, e.g. a refund before
 * the release) shrinks the queued releases of its balance, earliest due first, until they are no
 * more than the balance's new hold, so a release never takes `hold` below zero. Queue rows a
 * release job has claimed at this moment are skipped (SKIP LOCKED: the job locks them before the
 * balance, this statement the balance before them); the job clamps such a release to the hold.
 *
 * Hash chain (docs/LEDGER.md, "Statements"): each entry takes the next place of its balance's chain
 * (`chain_seq`) and `entry_hash` = `ledger_entry_hash(previous hash, …)`, entries of one balance in
 * the posting's order; the balance's head (`chain_head`, `chain_count`) moves with its amounts.
 */
export function postingStatement(
  tables: {
    balances: string;
    journals: string;
    entries: string;
    holdReleases: string;
    pendingLegs: string;
    entryHash: string;
  },
  journal: {
    id: string;
    applicationId: string;
    description: string | null;
    eventType: string;
    eventId: string | null;
    now: Date;
  },
  entries: EntryInput[],
  nonNegativeAvailable: string[] = [],
): { sql: string; params: unknown[] } {
  const ids = [...new Set(entries.map((e) => e.balance_id))].sort();
  const params: unknown[] = [
    journal.id,
    journal.applicationId,
    journal.description,
    journal.eventType,
    journal.eventId,
    journal.now,
    ids,
  ];
  const p = (value: unknown, type: string) => {
    params.push(value);
    return `$${params.length}::${type}`;
  };
  const inputRows = entries
    .map((e, i) =>
      [
        p(i, 'int'),
        p(e.id, 'uuid'),
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
  // Only a posting that takes held funds can leave queued releases above the hold: the others skip
  // this part (and are prepared as a statement without it).
  const takesHeldFunds = entries.some((e) => e.state === 'hold' && e.amount < 0);
  const shrinkQueuedReleases = `        ), debited AS MATERIALIZED (
          SELECT i.balance_id,
                 l.hold + sum(i.amount) FILTER (WHERE i.state = 'hold')
                   - coalesce(sum(i.amount) FILTER (WHERE i.state = 'hold' AND i.amount > 0 AND i.available_on IS NOT NULL), 0)
                   AS room
            FROM rows i JOIN locked l ON l.id = i.balance_id
           GROUP BY i.balance_id, l.hold
          HAVING bool_or(i.state = 'hold' AND i.amount < 0)
        ), queued AS MATERIALIZED (
          SELECT q.entry_id, q.balance_id, q.amount, q.available_on FROM ${tables.holdReleases} q
           WHERE q.application_id = $2 AND q.balance_id IN (SELECT balance_id FROM debited)
           FOR UPDATE OF q SKIP LOCKED
        ), shrunk AS MATERIALIZED (
          SELECT q.entry_id, q.amount,
                 q.amount - least(q.amount, greatest(0::bigint,
                   sum(q.amount) OVER (PARTITION BY q.balance_id) - greatest(d.room, 0)
                   - (sum(q.amount) OVER (PARTITION BY q.balance_id ORDER BY q.available_on, q.entry_id) - q.amount)))
                   AS left_amount
            FROM queued q JOIN debited d ON d.balance_id = q.balance_id
        ), released AS (
          DELETE FROM ${tables.holdReleases} h USING shrunk s WHERE h.entry_id = s.entry_id AND s.left_amount <= 0
        ), reduced AS (
          UPDATE ${tables.holdReleases} h SET amount = s.left_amount
            FROM shrunk s WHERE h.entry_id = s.entry_id AND s.left_amount > 0 AND s.left_amount < s.amount
`;
  const hash = (prev: string) =>
    `${tables.entryHash}(${prev}, r.chain_seq, r.id, r.balance_id, $1::uuid, r.amount, r.currency, r.state, r.running_balance::bigint, $6::timestamptz)`;
  // A posting with two entries on one balance chains them one after the other (a recursion); the
  // usual posting, one entry per balance, hashes each from its balance's head (prepared without it).
  const chained = ids.length < entries.length;
  const recurse = `          UNION ALL
          SELECT r.ord, r.balance_id, r.chain_seq, ${hash('h.entry_hash')}
            FROM hashed h JOIN rows r ON r.balance_id = h.h_balance AND r.chain_seq = h.h_seq + 1
`;
  // A guarded balance (no negative available) refuses the posting when it would take its available
  // below zero, its queued debits (pending_legs, docs/LEDGER.md "Hot balances") counted as applied;
  // postings without a guard are prepared without this part.
  const guard = nonNegativeAvailable.length
    ? `), short AS MATERIALIZED (
          SELECT g.balance_id, g.available, g.change FROM (
            SELECT l.id AS balance_id, sum(i.amount) AS change,
                   l.available + (SELECT coalesce(sum(q.amount), 0) FROM ${tables.pendingLegs} q
                                   WHERE q.balance_id = l.id AND q.amount < 0) AS available
              FROM input i JOIN locked l ON l.id = i.balance_id
             WHERE i.state = 'available' AND l.id = ANY(${p(nonNegativeAvailable, 'uuid[]')})
             GROUP BY l.id, l.available) g
           WHERE g.change < 0 AND g.available + g.change < 0
           LIMIT 1
`
    : '';
  const sql = `WITH ${chained ? 'RECURSIVE ' : ''}locked AS MATERIALIZED (
          SELECT id, customer_id, account, currency, available, hold, scaling_factor, chain_head, chain_count
            FROM ${tables.balances}
           WHERE application_id = $2 AND id = ANY($7::uuid[]) ORDER BY id FOR UPDATE
        ), input (ord, id, balance_id, amount, state, currency, description, original_currency, original_amount,
                  exchange_rate, parent_event_type, parent_event_id, transfer_id, category, forex_quote_id, type, source,
                  reporting_category, plane, fee, fee_details, available_on) AS (VALUES ${inputRows}
${guard}        ), checked AS MATERIALIZED (
          SELECT count(*) = ${entries.length}${guard ? ' AND NOT EXISTS (SELECT 1 FROM short)' : ''} AS ok
            FROM input i JOIN locked l ON l.id = i.balance_id AND l.currency = i.currency
        ), rows AS MATERIALIZED (
          SELECT i.*, l.customer_id, l.account, l.scaling_factor,
                 l.available + l.hold + sum(i.amount) OVER (PARTITION BY i.balance_id ORDER BY i.ord) AS running_balance,
                 l.chain_count + row_number() OVER (PARTITION BY i.balance_id ORDER BY i.ord) AS chain_seq
            FROM input i JOIN locked l ON l.id = i.balance_id
           WHERE (SELECT ok FROM checked)
        ), hashed (h_ord, h_balance, h_seq, entry_hash) AS ${chained ? '' : 'MATERIALIZED '}(
          SELECT r.ord, r.balance_id, r.chain_seq, ${hash('l.chain_head')}
            FROM rows r JOIN locked l ON l.id = r.balance_id${chained ? ' WHERE r.chain_seq = l.chain_count + 1' : ''}
${chained ? recurse : ''}        ), j AS (
          INSERT INTO ${tables.journals} (id, application_id, description, event_type, event_id, created_at)
          SELECT $1, $2, $3, $4, $5, $6 WHERE (SELECT ok FROM checked)
        ), b AS (
          UPDATE ${tables.balances} AS bal
             SET available = bal.available + d.available, hold = bal.hold + d.hold, updated_at = $6,
                 chain_count = bal.chain_count + d.n,
                 chain_head = (SELECT entry_hash FROM hashed WHERE h_balance = d.balance_id ORDER BY h_seq DESC LIMIT 1)
            FROM (SELECT balance_id,
                         coalesce(sum(amount) FILTER (WHERE state = 'available'), 0) AS available,
                         coalesce(sum(amount) FILTER (WHERE state = 'hold'), 0) AS hold,
                         count(*) AS n
                    FROM rows GROUP BY balance_id) d
           WHERE bal.id = d.balance_id
        ), e AS (
          INSERT INTO ${tables.entries} (${ENTRY_COLUMNS.join(', ')})
          SELECT id, $2, $1, balance_id, customer_id, account, currency, amount, running_balance, state,
                 coalesce(description, $3), original_currency, original_amount, exchange_rate, $4, $5,
                 parent_event_type, parent_event_id, transfer_id, category, forex_quote_id, type, source,
                 reporting_category, plane, scaling_factor, fee, amount, amount + fee, fee_details, false,
                 available_on, $6, $6, h_seq, entry_hash
            FROM rows JOIN hashed ON h_ord = ord
        ), r AS (
          INSERT INTO ${tables.holdReleases} (entry_id, application_id, balance_id, amount, available_on)
          SELECT id, $2, balance_id, amount, available_on FROM rows
           WHERE state = 'hold' AND amount > 0 AND available_on IS NOT NULL
${takesHeldFunds ? shrinkQueuedReleases : ''}        )
        SELECT (SELECT ok FROM checked) AS ok,${guard ? ' (SELECT row_to_json(short) FROM short) AS short,' : ''}
               (SELECT coalesce(json_agg(json_build_object('id', id, 'currency', currency)), '[]') FROM locked) AS locked,
               (SELECT coalesce(json_agg(json_build_object('ord', ord, 'running_balance', running_balance,
                         'customer_id', customer_id, 'account', account, 'scaling_factor', scaling_factor,
                         'chain_seq', h_seq, 'entry_hash', entry_hash)), '[]')
                  FROM rows JOIN hashed ON h_ord = ord) AS rows`;
  return { sql, params };
}
