import type { ChainedAuditRow } from './audit-chain.js';

export interface AuditEventResponse {
  id: string;
  object: 'audit_event';
  livemode: boolean | null;
  actor: { type: string; id: string | null };
  action: string;
  target: { type: string; id: string | null };
  request_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  changes: { before: Record<string, unknown> | null; after: Record<string, unknown> | null } | null;
  metadata: Record<string, unknown>;
  created_at: string;
  chain: { seq: number; prev_hash: string; entry_hash: string };
}

/** The row as the API and the export answer it; `chain` lets a reader re-check the hashes. */
export function toAuditEventResponse(row: ChainedAuditRow): AuditEventResponse {
  return {
    id: row.id,
    object: 'audit_event',
    livemode: row.livemode,
    actor: { type: row.actor_type, id: row.actor_id },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    request_id: row.request_id,
    client_address: row.client_address,
    user_agent: row.user_agent,
    changes: row.changes as AuditEventResponse['changes'],
    metadata: row.metadata as Record<string, unknown>,
    created_at: new Date(row.created_at).toISOString(),
    chain: { seq: Number(row.chain_seq), prev_hash: row.prev_hash, entry_hash: row.entry_hash },
  };
}
