import { createHash } from 'node:crypto';

/**
 * The per-application hash chain of audit rows: plain code with no Nest imports, so `audit:verify`,
 * the tests and an offline checker use it as it is.
 *
 *   entry_hash = hex(SHA-256(UTF-8 of JSON.stringify([
 *     "wallet-audit-v1", prev_hash, chain_seq, id, chain_id, application_id, livemode, actor_type,
 *     actor_id, action, target_type, target_id, request_id, client_address, user_agent,
 *     canonical(changes), canonical(metadata), created_at ])))
 *
 * A JSON array, not a joined line: no field's content (a user agent) can shift another's. `canonical`
 * sorts object keys at every depth (jsonb does not keep the order written); absent values are null;
 * chain_seq is a decimal string; ids lower-case; created_at `toISOString()` (UTC, milliseconds). The
 * first row's prev_hash is 64 zeros, or, after a retention run, the hash its signed checkpoint names.
 */
export const AUDIT_CHAIN_VERSION = 'wallet-audit-v1';
export const AUDIT_GENESIS = '0'.repeat(64);
/** The chain of rows that belong to no application (logins, refresh-token reuse). */
export const PLATFORM_CHAIN = '00000000-0000-0000-0000-000000000000';

export interface ChainedAuditRow {
  id: string;
  chain_id: string;
  chain_seq: number | string;
  application_id: string | null;
  livemode: boolean | null;
  actor_type: string;
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  request_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  changes: unknown;
  metadata: unknown;
  created_at: string | Date;
  prev_hash: string;
  entry_hash: string;
}

export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value === undefined ? null : value;
}

export function auditHash(previousHash: string, row: Omit<ChainedAuditRow, 'prev_hash' | 'entry_hash'>): string {
  const line = JSON.stringify([
    AUDIT_CHAIN_VERSION,
    previousHash,
    String(row.chain_seq),
    row.id.toLowerCase(),
    row.chain_id.toLowerCase(),
    row.application_id?.toLowerCase() ?? null,
    row.livemode ?? null,
    row.actor_type,
    row.actor_id ?? null,
    row.action,
    row.target_type,
    row.target_id ?? null,
    row.request_id ?? null,
    row.client_address ?? null,
    row.user_agent ?? null,
    canonical(row.changes ?? null),
    canonical(row.metadata ?? {}),
    new Date(row.created_at).toISOString(),
  ]);
  return createHash('sha256').update(line, 'utf8').digest('hex');
}

export interface ChainStart {
  /** The place before the first row expected (0, or a checkpoint's through_seq). */
  seq: number;
  hash: string;
}

export interface ChainProblem {
  chain_id: string;
  /** The row the problem is found at (null when the row is gone), and its place in the chain. */
  row_id: string | null;
  chain_seq: number;
  problem: string;
}

export interface ChainReplay {
  problems: ChainProblem[];
  /** Where the replay ended: the next batch starts here. */
  end: ChainStart & { rowId: string | null };
}

/**
 * Replays one chain from `start` over `rows` (sorted by chain_seq; a batch of it): recomputes every
 * hash, checks each row names the previous row's hash and the places run on with none missing or
 * repeated. Names the row of every problem (or, for a deleted row, its place and neighbours).
 */
export function replayAuditChain(
  chainId: string,
  rows: ChainedAuditRow[],
  start: ChainStart & { rowId?: string | null },
): ChainReplay {
  const problems: ChainProblem[] = [];
  let expectedSeq = start.seq + 1;
  let previous = start.hash;
  let previousId: string | null = start.rowId ?? null;
  for (const row of rows) {
    const seq = Number(row.chain_seq);
    if (seq !== expectedSeq) {
      problems.push({
        chain_id: chainId,
        row_id: seq < expectedSeq ? row.id : null,
        chain_seq: seq < expectedSeq ? seq : expectedSeq,
        problem:
          seq < expectedSeq
            ? `row ${row.id} repeats place ${seq}`
            : `place${seq - expectedSeq > 1 ? `s ${expectedSeq}-${seq - 1}` : ` ${expectedSeq}`} missing: deleted between ${previousId ? `row ${previousId}` : 'the chain start'} and row ${row.id}`,
      });
    }
    const recomputed = auditHash(row.prev_hash, row);
    if (recomputed !== row.entry_hash) {
      problems.push({
        chain_id: chainId,
        row_id: row.id,
        chain_seq: seq,
        problem: `row ${row.id} (place ${seq}) was changed: its fields hash to ${recomputed}, it says ${row.entry_hash}`,
      });
    }
    if (row.prev_hash !== previous) {
      problems.push({
        chain_id: chainId,
        row_id: row.id,
        chain_seq: seq,
        problem: `row ${row.id} (place ${seq}) names ${row.prev_hash} as the previous hash, the chain has ${previous}${previousId ? ` (row ${previousId} was changed or replaced)` : ''}`,
      });
    }
    previous = row.entry_hash;
    previousId = row.id;
    expectedSeq = Math.max(expectedSeq, seq) + 1;
  }
  return { problems, end: { seq: expectedSeq - 1, hash: previous, rowId: previousId } };
}

/** The chain's last row must be its head: rows deleted from the end show here. */
export function checkAuditHead(
  chainId: string,
  end: ChainReplay['end'],
  head: { seq: number; hash: string },
): ChainProblem | null {
  if (head.seq === end.seq && head.hash === end.hash) return null;
  return {
    chain_id: chainId,
    row_id: null,
    chain_seq: head.seq,
    problem:
      head.seq > end.seq
        ? `place${head.seq - end.seq > 1 ? `s ${end.seq + 1}-${head.seq}` : ` ${head.seq}`} missing: the last row(s) of the chain were deleted (after ${end.rowId ? `row ${end.rowId}` : 'the chain start'})`
        : `the chain head (place ${head.seq}, ${head.hash}) is not its last row (place ${end.seq}, ${end.hash})`,
  };
}
