import { createHash } from 'node:crypto';

/**
 * The per-balance hash chain of ledger entries, computed here exactly as the database's
 * `ledger_entry_hash` computes it (migrations/1764501500000-BalanceStatements.ts): plain code with
 * no Nest imports, so the offline verifier and the tests use it as they are.
 *
 *   entry_hash = hex(SHA-256(UTF-8 of
 *     "wallet-ledger-entry-v1|<previous hash>|<chain_seq>|<id>|<balance_id>|<journal_id>|<amount>|<currency>|<state>|<running_balance>|<created_at>"))
 *
 * The previous hash of a balance's first entry is 64 zeros; ids are lower-case UUIDs, integers in
 * decimal with a leading `-` when negative, `created_at` in UTC with milliseconds (`toISOString()`).
 */
export const CHAIN_VERSION = 'wallet-ledger-entry-v1';
export const GENESIS_HASH = '0'.repeat(64);

/** The fields of an entry the chain covers, as the API answers them (GET /balance_transactions). */
export interface ChainEntry {
  id: string;
  balance_id: string;
  journal_id: string;
  amount: number | string;
  currency: string;
  state: string;
  running_balance: number | string;
  created_at: string | Date;
  chain_seq: number | string | null;
}

export function canonicalEntryLine(previousHash: string, entry: ChainEntry): string {
  return [
    CHAIN_VERSION,
    previousHash,
    String(entry.chain_seq),
    entry.id.toLowerCase(),
    entry.balance_id.toLowerCase(),
    entry.journal_id.toLowerCase(),
    String(entry.amount),
    entry.currency,
    entry.state,
    String(entry.running_balance),
    new Date(entry.created_at).toISOString(),
  ].join('|');
}

export function entryHash(previousHash: string, entry: ChainEntry): string {
  return createHash('sha256').update(canonicalEntryLine(previousHash, entry), 'utf8').digest('hex');
}

export interface ChainReplay {
  /** Entries replayed: the chain's first `count` places, 1..count with none missing. */
  count: number;
  last_entry_id: string | null;
  last_hash: string;
  available: number;
  pending: number;
  /** What does not hold (a gap in the places, a running balance that does not follow); empty when none. */
  problems: string[];
}

/**
 * Replays a balance's chain over its first `upTo` places from `entries` (any order; entries of other
 * balances and later places are ignored): recomputes every hash from the fields, checks the places
 * run 1..upTo with none missing or repeated and that each running balance is the previous one plus
 * the amount, and sums the available and held amounts.
 */
export function replayChain(entries: ChainEntry[], balanceId: string, upTo: number): ChainReplay {
  const problems: string[] = [];
  const own = entries
    .filter((e) => e.balance_id.toLowerCase() === balanceId.toLowerCase() && Number(e.chain_seq) <= upTo)
    .sort((a, b) => Number(a.chain_seq) - Number(b.chain_seq));
  let hash = GENESIS_HASH;
  let running = 0;
  let available = 0;
  let pending = 0;
  let lastId: string | null = null;
  for (const [i, entry] of own.entries()) {
    if (Number(entry.chain_seq) !== i + 1) {
      problems.push(`place ${i + 1} of the chain is missing or repeated (found ${String(entry.chain_seq)})`);
      break;
    }
    const amount = Number(entry.amount);
    running += amount;
    if (Number(entry.running_balance) !== running) {
      problems.push(
        `entry ${entry.id}: running_balance ${String(entry.running_balance)}, the entries sum to ${running}`,
      );
    }
    if (entry.state === 'hold') pending += amount;
    else available += amount;
    hash = entryHash(hash, entry);
    lastId = entry.id;
  }
  return { count: own.length, last_entry_id: lastId, last_hash: hash, available, pending, problems };
}
