import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';

/**
 * A retention checkpoint: what the retention job removed from a chain, signed with the statement
 * signing keys (Ed25519, docs/LEDGER.md "Keys and rotation"; the public halves are the JWKS at
 * /.well-known/wallet-statement-keys). The chain's remaining first row names `through_hash` as its
 * previous hash, so the verifier starts there. Plain code with no Nest imports.
 */
export const CHECKPOINT_JWS_TYPE = 'wallet-audit-checkpoint+jws';

export interface CheckpointPayload {
  object: 'audit_checkpoint';
  id: string;
  chain_id: string;
  /** Places removed: from_seq..through_seq; through_hash is the entry_hash of place through_seq. */
  from_seq: number;
  through_seq: number;
  through_hash: string;
  removed_count: number;
  /** Rows written before this instant were due (the retention cutoff). */
  removed_before: string;
  chain_version: string;
  issued_at: string;
}

export async function verifyCheckpoint(
  jws: string,
  jwks: JSONWebKeySet,
): Promise<{ payload: CheckpointPayload | null; problem: string | null }> {
  try {
    const verified = await compactVerify(jws, createLocalJWKSet(jwks), { algorithms: ['EdDSA', 'Ed25519'] });
    if (verified.protectedHeader.typ !== CHECKPOINT_JWS_TYPE) {
      return { payload: null, problem: `header typ is ${String(verified.protectedHeader.typ)}` };
    }
    return { payload: JSON.parse(new TextDecoder().decode(verified.payload)) as CheckpointPayload, problem: null };
  } catch (err) {
    return { payload: null, problem: `the checkpoint signature does not verify: ${(err as Error).message}` };
  }
}
