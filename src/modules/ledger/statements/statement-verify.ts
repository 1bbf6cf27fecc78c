import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import { CHAIN_VERSION, replayChain, type ChainEntry } from './entry-chain.js';

/**
 * Checks a signed balance statement with nothing but the published keys (and, when given, the
 * balance's entries as exported): plain code with no Nest imports, used by `statements:verify`, the
 * tests and anyone who copies it. docs/LEDGER.md, "Statements", has the format.
 */
export const STATEMENT_JWS_TYPE = 'wallet-statement+jws';

export interface StatementPayload {
  object: 'balance_statement';
  id: string;
  balance_id: string;
  application_id: string;
  mode: 'test' | 'live';
  account: string;
  customer_id: string | null;
  currency: string;
  scaling_factor: number;
  as_of: string;
  available: number;
  pending: number;
  total: number;
  entry_count: number;
  last_entry_id: string | null;
  last_entry_hash: string;
  chain_version: string;
  issued_at: string;
}

export interface StatementVerification {
  /** The signature verifies with a published key and, when entries were given, their chain ends where the statement says. */
  valid: boolean;
  kid: string | null;
  payload: StatementPayload | null;
  /** `not_checked` without entries. */
  chain: 'not_checked' | 'matches' | 'differs';
  problems: string[];
}

export async function verifyStatement(
  jws: string,
  jwks: JSONWebKeySet,
  entries?: ChainEntry[],
): Promise<StatementVerification> {
  const result: StatementVerification = { valid: false, kid: null, payload: null, chain: 'not_checked', problems: [] };
  try {
    result.kid = decodeProtectedHeader(jws).kid ?? null;
  } catch {
    result.problems.push('not a JWS in compact serialization');
    return result;
  }
  try {
    const verified = await compactVerify(jws, createLocalJWKSet(jwks), { algorithms: ['EdDSA', 'Ed25519'] });
    if (verified.protectedHeader.typ !== STATEMENT_JWS_TYPE) {
      result.problems.push(`header typ is ${String(verified.protectedHeader.typ)}, not ${STATEMENT_JWS_TYPE}`);
    }
    result.payload = JSON.parse(new TextDecoder().decode(verified.payload)) as StatementPayload;
  } catch (err) {
    const code = (err as { code?: string }).code;
    result.problems.push(
      code === 'ERR_JWKS_NO_MATCHING_KEY'
        ? `no published key has kid ${String(result.kid)}: signed by another key`
        : code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
          ? 'the signature does not match the statement: it was changed after signing, or signed by another key'
          : `the statement does not verify: ${(err as Error).message}`,
    );
    return result;
  }
  const payload = result.payload;
  if (payload.chain_version !== CHAIN_VERSION) result.problems.push(`unknown chain_version ${payload.chain_version}`);
  if (entries) {
    const replay = replayChain(entries, payload.balance_id, payload.entry_count);
    const differences = [...replay.problems];
    if (replay.count !== payload.entry_count) {
      differences.push(`the entries give ${replay.count} of the statement's ${payload.entry_count} places`);
    }
    if (replay.last_hash !== payload.last_entry_hash) {
      differences.push(`the recomputed chain ends at ${replay.last_hash}, the statement at ${payload.last_entry_hash}`);
    }
    if (replay.last_entry_id !== payload.last_entry_id) {
      differences.push(
        `the last entry is ${String(replay.last_entry_id)}, the statement names ${String(payload.last_entry_id)}`,
      );
    }
    if (replay.available !== payload.available || replay.pending !== payload.pending) {
      differences.push(
        `the entries sum to available ${replay.available} and pending ${replay.pending}, the statement says ${payload.available} and ${payload.pending}`,
      );
    }
    result.chain = differences.length === 0 ? 'matches' : 'differs';
    result.problems.push(...differences);
  }
  result.valid = result.problems.length === 0;
  return result;
}

/**
 * The entries of an export: GET /balance_transactions answers (one list envelope, or an array of
 * them, one per page), or a plain array of entries.
 */
export function entriesOfExport(document: unknown): ChainEntry[] {
  const pages = Array.isArray(document) ? document : [document];
  return pages.flatMap((page: unknown) =>
    page !== null && typeof page === 'object' && Array.isArray((page as { data?: unknown }).data)
      ? (page as { data: ChainEntry[] }).data
      : [page as ChainEntry],
  );
}
