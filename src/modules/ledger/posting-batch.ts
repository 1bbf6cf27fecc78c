import { entryHash } from './statements/entry-chain.js';
import type { EntryInput, PostingResult } from './posting.sql.js';

/**
 * Group commit of postings (docs/LEDGER.md, "Hot balances"): the arithmetic of one batch, plain code
 * with no Nest or database imports. The batch's transaction has locked every balance its postings
 * touch; `applyBatch` then takes the postings one after the other, in submission order, exactly as
 * separate posting statements would have taken them one after the other under the same locks: each
 * is checked against the balances as the postings before it left them (the balances exist in the
 * posting's application and currency, and no balance it guards is taken below zero available), and
 * a posting that fails is refused on its own and moves nothing, so the ones after it see the
 * balances without it. An accepted posting's entries get their running balances and their places
 * and hashes in their balances' chains in order, as the posting statement computes them
 * (`ledger_entry_hash`, here `entryHash`: the same line, the same SHA-256).
 */

/** A balance as the batch's lock read it; `applyBatch` moves the amounts and the chain's head along. */
export interface LockedBalance {
  id: string;
  application_id: string;
  customer_id: string | null;
  account: string;
  currency: string;
  available: number;
  hold: number;
  scaling_factor: number;
  chain_head: string;
  chain_count: number;
  /**
   * The sum of the balance's queued legs that debit it (pending_legs, committed, not yet applied;
   * zero or less): a guard counts them as already applied, so applying them later can never take
   * the balance below what the guard allowed (docs/LEDGER.md, "Hot balances").
   */
  pending_debits: number;
}

export interface JournalInput {
  id: string;
  applicationId: string;
  description: string | null;
  eventType: string;
  eventId: string | null;
  now: Date;
}

export interface BatchPosting {
  journal: JournalInput;
  entries: EntryInput[];
  /** Balances whose `available` this posting may not take below zero. */
  nonNegativeAvailable: string[];
}

/** One entry row as the batch writes it. */
export interface BatchEntryRow {
  entry: EntryInput;
  journal: JournalInput;
  balance: Pick<LockedBalance, 'customer_id' | 'account' | 'scaling_factor'>;
  running_balance: number;
  chain_seq: number;
  entry_hash: string;
}

export interface BatchWrites {
  journals: JournalInput[];
  entries: BatchEntryRow[];
  /** The balances the accepted postings moved, with their new amounts and chain heads. */
  balances: LockedBalance[];
}

/**
 * Applies `postings` in order to `locked` (which it changes: the amounts and heads after the batch).
 * Answers per posting what the single posting statement answers, and what the batch must write.
 */
export function applyBatch(
  locked: Map<string, LockedBalance>,
  postings: BatchPosting[],
): { results: PostingResult[]; writes: BatchWrites } {
  const writes: BatchWrites = { journals: [], entries: [], balances: [] };
  const moved = new Set<string>();
  const results = postings.map((posting): PostingResult => {
    const { journal, entries } = posting;
    const own = [...new Set(entries.map((e) => e.balance_id))]
      .map((id) => locked.get(id))
      .filter((b): b is LockedBalance => b !== undefined && b.application_id === journal.applicationId);
    const lockedView = own.map((b) => ({ id: b.id, currency: b.currency }));
    const byId = new Map(own.map((b) => [b.id, b]));
    if (!entries.every((e) => byId.get(e.balance_id)?.currency === e.currency)) {
      return { ok: false, locked: lockedView, rows: [] };
    }
    const short = shortfall(posting, byId);
    if (short) return { ok: false, locked: lockedView, rows: [], short };
    writes.journals.push(journal);
    const rows = entries.map((entry, ord) => {
      const b = byId.get(entry.balance_id)!;
      const row = addEntry(b, entry, journal, writes, moved);
      return {
        ord,
        running_balance: row.running_balance,
        customer_id: b.customer_id,
        account: b.account,
        scaling_factor: b.scaling_factor,
        chain_seq: row.chain_seq,
        entry_hash: row.entry_hash,
      };
    });
    return { ok: true, locked: lockedView, rows };
  });
  writes.balances = [...moved].map((id) => locked.get(id)!);
  return { results, writes };
}

/**
 * The first guarded balance whose available the posting would take below zero, if any; the balance's
 * queued debits (`pending_debits`) count as applied.
 */
export function shortfall(
  posting: Pick<BatchPosting, 'entries' | 'nonNegativeAvailable'>,
  balances: Map<string, Pick<LockedBalance, 'available' | 'pending_debits'>>,
): { balance_id: string; available: number; change: number } | undefined {
  for (const id of posting.nonNegativeAvailable) {
    const change = posting.entries
      .filter((e) => e.balance_id === id && e.state === 'available')
      .reduce((sum, e) => sum + e.amount, 0);
    const b = balances.get(id);
    const available = (b?.available ?? 0) + (b?.pending_debits ?? 0);
    if (change < 0 && available + change < 0) return { balance_id: id, available, change };
  }
  return undefined;
}

/** A queued leg on a hot balance (pending_legs), as the applier reads it back: the entry and its journal. */
export interface QueuedLeg {
  seq: number;
  journal: JournalInput;
  entry: EntryInput;
}

/**
 * The applier's arithmetic (docs/LEDGER.md, "Hot balances"): the queued legs of balances the
 * applier's transaction has locked, in queue order (`seq`), each added to its balance as a posting
 * would: the next place in the balance's chain, its running balance, its hash. A leg is never refused:
 * its posting was validated (balance, currency, zero sum, no guard on this balance) and committed
 * with its journal; the balance's `pending_debits` are the legs being applied, so they drop to zero.
 */
export function applyLegs(locked: Map<string, LockedBalance>, legs: QueuedLeg[]): BatchWrites {
  const writes: BatchWrites = { journals: [], entries: [], balances: [] };
  const moved = new Set<string>();
  for (const { journal, entry } of [...legs].sort((a, b) => a.seq - b.seq)) {
    const b = locked.get(entry.balance_id);
    if (!b) throw new Error(`queued leg ${entry.id} names balance ${entry.balance_id}, which was not locked`);
    addEntry(b, entry, journal, writes, moved);
  }
  writes.balances = [...moved].map((id) => locked.get(id)!);
  return writes;
}

/** A balance row of the lock statement (`lockBalancesSql`), as numbers. */
/**
 * Adds one entry to its locked balance as the posting statement does (the amount, the next place in
 * the balance's chain, its running balance and hash) and records the row the batch writes.
 */
function addEntry(
  b: LockedBalance,
  entry: EntryInput,
  journal: JournalInput,
  writes: BatchWrites,
  moved: Set<string>,
): BatchEntryRow {
  if (entry.state === 'hold') b.hold += entry.amount;
  else b.available += entry.amount;
  b.chain_count += 1;
  const running = b.available + b.hold;
  b.chain_head = entryHash(b.chain_head, {
    id: entry.id,
    balance_id: b.id,
    journal_id: journal.id,
    amount: entry.amount,
    currency: entry.currency,
    state: entry.state,
    running_balance: running,
    created_at: journal.now,
    chain_seq: b.chain_count,
  });
  moved.add(b.id);
  const row = {
    entry,
    journal,
    balance: b,
    running_balance: running,
    chain_seq: b.chain_count,
    entry_hash: b.chain_head,
  };
  writes.entries.push(row);
  return row;
}

export function lockedBalance(r: Record<keyof LockedBalance, string | null>): LockedBalance {
  return {
    id: r.id!,
    application_id: r.application_id!,
    customer_id: r.customer_id,
    account: r.account!,
    currency: r.currency!,
    available: Number(r.available),
    hold: Number(r.hold),
    scaling_factor: Number(r.scaling_factor),
    chain_head: r.chain_head!,
    chain_count: Number(r.chain_count),
    pending_debits: Number(r.pending_debits),
  };
}
