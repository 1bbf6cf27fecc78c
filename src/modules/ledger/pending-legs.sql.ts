import type { JournalInput, QueuedLeg } from './posting-batch.js';
import type { EntryInput } from './posting.sql.js';

/**
 * The statements of queued legs on hot balances (docs/LEDGER.md, "Hot balances"): plain code with no
 * Nest imports, like the posting statement.
 */

/**
 * In the caller's transaction: the legs of one posting that go to hot balances, queued; with
 * `$7 = true` the journal too (a posting whose every leg is queued writes no entry now, so the
 * posting statement, which writes the journal, does not run).
 */
export function queueLegsSql(tables: { journals: string; pendingLegs: string }): string {
  return `WITH j AS (
          INSERT INTO ${tables.journals} (id, application_id, description, event_type, event_id, created_at)
          SELECT $1, $2, $3, $4, $5, $6 WHERE $7::boolean
        )
        INSERT INTO ${tables.pendingLegs}
               (application_id, entry_id, journal_id, balance_id, currency, amount, journal_description, event_type,
                event_id, created_at, entry)
        SELECT $2, u.id, $1, u.balance_id, u.currency, u.amount, $3, $4, $5, $6, u.entry
          FROM unnest($8::uuid[], $9::uuid[], $10::text[], $11::bigint[], $12::jsonb[]) AS u (id, balance_id, currency, amount, entry)`;
}

export function queueLegsParams(journal: JournalInput, legs: EntryInput[], withJournal: boolean): unknown[] {
  return [
    journal.id,
    journal.applicationId,
    journal.description,
    journal.eventType,
    journal.eventId,
    journal.now,
    withJournal,
    legs.map((l) => l.id),
    legs.map((l) => l.balance_id),
    legs.map((l) => l.currency),
    legs.map((l) => l.amount),
    legs.map((l) => JSON.stringify(l)),
  ];
}

/**
 * In the applier's transaction, after it has locked the balances: takes (deletes) the first `$2`
 * queued legs of those balances in queue order. Legs of transactions not yet committed are not
 * seen; they are the next round's.
 */
export function takeLegsSql(tables: { pendingLegs: string }): string {
  // A SELECT around the DELETE: every driver answers its rows alike (TypeORM answers a bare DELETE's
  // RETURNING as [rows, count] on the embedded database).
  return `WITH taken AS (
          DELETE FROM ${tables.pendingLegs} p
           USING (SELECT application_id, entry_id FROM ${tables.pendingLegs}
                   WHERE balance_id = ANY($1::uuid[]) ORDER BY seq LIMIT $2) t
           WHERE p.application_id = t.application_id AND p.entry_id = t.entry_id
       RETURNING p.seq::text, p.application_id, p.journal_id, p.journal_description, p.event_type, p.event_id,
                 p.created_at, p.entry
        )
        SELECT * FROM taken`;
}

export interface TakenLegRow {
  seq: string;
  application_id: string;
  journal_id: string;
  journal_description: string | null;
  event_type: string;
  event_id: string | null;
  created_at: Date;
  entry: EntryInput & { available_on?: string | null };
}

export function queuedLeg(row: TakenLegRow): QueuedLeg {
  return {
    seq: Number(row.seq),
    journal: {
      id: row.journal_id,
      applicationId: row.application_id,
      description: row.journal_description,
      eventType: row.event_type,
      eventId: row.event_id,
      now: new Date(row.created_at),
    },
    entry: { ...row.entry, available_on: row.entry.available_on ? new Date(row.entry.available_on) : null },
  };
}

/** The balances that have queued legs (the sweep's work). */
export function queuedBalancesSql(tables: { pendingLegs: string }): string {
  return `SELECT DISTINCT balance_id FROM ${tables.pendingLegs}`;
}
