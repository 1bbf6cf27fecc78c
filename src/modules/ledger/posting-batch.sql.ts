import type { BatchWrites } from './posting-batch.js';

export interface BatchTables {
  balances: string;
  journals: string;
  entries: string;
  holdReleases: string;
  pendingLegs: string;
}

/**
 * The batch's first statement: locks every balance its postings touch, in id order (the order every
 * posting locks in, so a batch and a single posting never deadlock), and reads what the batch
 * computes from. The application is checked per posting afterwards (a batch may carry several).
 */
export function lockBalancesSql(tables: BatchTables): string {
  return `SELECT id, application_id, customer_id, account, currency, available::text, hold::text, scaling_factor,
                 chain_head, chain_count::text,
                 (SELECT coalesce(sum(p.amount), 0) FROM ${tables.pendingLegs} p
                   WHERE p.balance_id = b.id AND p.amount < 0)::text AS pending_debits
            FROM ${tables.balances} b WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE OF b`;
}

/**
 * The batch's second statement: the accepted postings' journals and entries, their queued hold
 * releases, and the balances' new amounts and chain heads, from arrays (one statement text whatever
 * the batch's size, so it is prepared once per connection).
 */
export function writeBatchSql(tables: BatchTables): string {
  return `WITH j AS (
          INSERT INTO ${tables.journals} (id, application_id, description, event_type, event_id, created_at)
          SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
        ), e AS (
          INSERT INTO ${tables.entries} (id, application_id, journal_id, balance_id, customer_id, account, currency, amount,
                 running_balance, state, description, original_currency, original_amount, exchange_rate, event_type,
                 event_id, parent_event_type, parent_event_id, transfer_id, category, forex_quote_id, type, source,
                 reporting_category, plane, scaling_factor, fee, net, gross_amount, fee_details, record_only, available_on,
                 created_at, updated_at, chain_seq, entry_hash)
          SELECT u.id, u.application_id, u.journal_id, u.balance_id, u.customer_id, u.account, u.currency, u.amount,
                 u.running_balance, u.state, u.description, u.original_currency, u.original_amount, u.exchange_rate,
                 u.event_type, u.event_id, u.parent_event_type, u.parent_event_id, u.transfer_id, u.category,
                 u.forex_quote_id, u.type, u.source, u.reporting_category, u.plane, u.scaling_factor, u.fee, u.amount,
                 u.amount + u.fee, u.fee_details, false, u.available_on, u.created_at, u.created_at, u.chain_seq, u.entry_hash
            FROM unnest($7::uuid[], $8::uuid[], $9::uuid[], $10::uuid[], $11::uuid[], $12::text[], $13::text[],
                        $14::bigint[], $15::bigint[], $16::text[], $17::text[], $18::text[], $19::bigint[], $20::numeric[],
                        $21::text[], $22::text[], $23::text[], $24::text[], $25::text[], $26::text[], $27::text[],
                        $28::text[], $29::text[], $30::text[], $31::text[], $32::int[], $33::bigint[], $34::jsonb[],
                        $35::timestamptz[], $36::timestamptz[], $37::bigint[], $38::text[])
              AS u (id, application_id, journal_id, balance_id, customer_id, account, currency, amount, running_balance,
                    state, description, original_currency, original_amount, exchange_rate, event_type, event_id,
                    parent_event_type, parent_event_id, transfer_id, category, forex_quote_id, type, source,
                    reporting_category, plane, scaling_factor, fee, fee_details, available_on, created_at, chain_seq,
                    entry_hash)
        ), r AS (
          INSERT INTO ${tables.holdReleases} (entry_id, application_id, balance_id, amount, available_on)
          SELECT * FROM unnest($39::uuid[], $40::uuid[], $41::uuid[], $42::bigint[], $43::timestamptz[])
        )
        UPDATE ${tables.balances} AS bal
           SET available = u.available, hold = u.hold, chain_count = u.chain_count, chain_head = u.chain_head,
               updated_at = u.updated_at
          FROM unnest($44::uuid[], $45::bigint[], $46::bigint[], $47::bigint[], $48::text[], $49::timestamptz[])
            AS u (id, available, hold, chain_count, chain_head, updated_at)
         WHERE bal.id = u.id`;
}

export function writeBatchParams(writes: BatchWrites): unknown[] {
  const { journals, entries, balances } = writes;
  const column = <T>(rows: T[], pick: (row: T) => unknown) => rows.map(pick);
  const releases = entries.filter(({ entry }) => entry.state === 'hold' && entry.amount > 0 && entry.available_on);
  // A balance's updated_at: the latest `now` of the accepted postings that moved it.
  const updatedAt = new Map<string, Date>();
  for (const { entry, journal } of entries) {
    const seen = updatedAt.get(entry.balance_id);
    if (!seen || seen < journal.now) updatedAt.set(entry.balance_id, journal.now);
  }
  return [
    column(journals, (j) => j.id),
    column(journals, (j) => j.applicationId),
    column(journals, (j) => j.description),
    column(journals, (j) => j.eventType),
    column(journals, (j) => j.eventId),
    column(journals, (j) => j.now),
    column(entries, (r) => r.entry.id),
    column(entries, (r) => r.journal.applicationId),
    column(entries, (r) => r.journal.id),
    column(entries, (r) => r.entry.balance_id),
    column(entries, (r) => r.balance.customer_id),
    column(entries, (r) => r.balance.account),
    column(entries, (r) => r.entry.currency),
    column(entries, (r) => r.entry.amount),
    column(entries, (r) => r.running_balance),
    column(entries, (r) => r.entry.state),
    column(entries, (r) => r.entry.description ?? r.journal.description),
    column(entries, (r) => r.entry.original_currency ?? null),
    column(entries, (r) => r.entry.original_amount ?? null),
    column(entries, (r) => r.entry.exchange_rate ?? null),
    column(entries, (r) => r.journal.eventType),
    column(entries, (r) => r.journal.eventId),
    column(entries, (r) => r.entry.parent_event_type ?? null),
    column(entries, (r) => r.entry.parent_event_id ?? null),
    column(entries, (r) => r.entry.transfer_id ?? null),
    column(entries, (r) => r.entry.category ?? null),
    column(entries, (r) => r.entry.forex_quote_id ?? null),
    column(entries, (r) => r.entry.type),
    column(entries, (r) => r.entry.source),
    column(entries, (r) => r.entry.reporting_category ?? null),
    column(entries, (r) => r.entry.plane ?? null),
    column(entries, (r) => r.balance.scaling_factor),
    column(entries, (r) => r.entry.fee ?? 0),
    column(entries, (r) => JSON.stringify(r.entry.fee_details ?? [])),
    column(entries, (r) => (r.entry.state === 'hold' ? (r.entry.available_on ?? null) : null)),
    column(entries, (r) => r.journal.now),
    column(entries, (r) => r.chain_seq),
    column(entries, (r) => r.entry_hash),
    column(releases, (r) => r.entry.id),
    column(releases, (r) => r.journal.applicationId),
    column(releases, (r) => r.entry.balance_id),
    column(releases, (r) => r.entry.amount),
    column(releases, (r) => r.entry.available_on),
    column(balances, (b) => b.id),
    column(balances, (b) => b.available),
    column(balances, (b) => b.hold),
    column(balances, (b) => b.chain_count),
    column(balances, (b) => b.chain_head),
    column(balances, (b) => updatedAt.get(b.id)),
  ];
}
