import { Injectable, Logger } from '@nestjs/common';
import { CompactSign } from 'jose';
import { Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import { StatementKeys } from '../ledger/index.js';
import {
  AUDIT_CHAIN_VERSION,
  AUDIT_GENESIS,
  checkAuditHead,
  replayAuditChain,
  type ChainProblem,
} from './audit-chain.js';
import { CHECKPOINT_JWS_TYPE, verifyCheckpoint, type CheckpointPayload } from './audit-checkpoint.js';
import { AuditRepository } from './audit.repository.js';

const VERIFY_BATCH = 5_000;
/** Places one retention transaction removes from a chain at most (a run repeats until none are due). */
export const RETENTION_BATCH = 10_000;

export interface ChainVerification {
  chains: number;
  rows: number;
  problems: ChainProblem[];
}

/**
 * Verifies the chains (`audit:verify`) and removes what retention made due behind a signed
 * checkpoint (AuditRetentionJob). Both start a chain where its latest checkpoint ends.
 */
@Injectable()
export class AuditChainKeeper {
  private readonly logger = new Logger('AuditRetention');

  constructor(
    private readonly repository: AuditRepository,
    private readonly keys: StatementKeys,
    private readonly clock: Clock,
  ) {}

  /** Replays every chain (or `chainId`'s) from its latest checkpoint and checks its head. */
  async verify(chainId?: string): Promise<ChainVerification> {
    const jwks = await this.keys.published();
    const result: ChainVerification = { chains: 0, rows: 0, problems: [] };
    for (const head of await this.repository.heads(chainId)) {
      result.chains += 1;
      let start: { seq: number; hash: string; rowId: string | null } = { seq: 0, hash: AUDIT_GENESIS, rowId: null };
      for (const checkpoint of await this.repository.checkpoints(head.chain_id)) {
        const { payload, problem } = await verifyCheckpoint(checkpoint.jws, jwks);
        const matches =
          payload &&
          payload.chain_id === head.chain_id &&
          payload.through_seq === Number(checkpoint.through_seq) &&
          payload.through_hash === checkpoint.through_hash &&
          payload.from_seq === start.seq + 1;
        if (!matches) {
          result.problems.push({
            chain_id: head.chain_id,
            row_id: null,
            chain_seq: Number(checkpoint.through_seq),
            problem: `checkpoint ${checkpoint.id}: ${problem ?? 'its signed payload does not match its row or the previous checkpoint'}`,
          });
        }
        start = { seq: Number(checkpoint.through_seq), hash: checkpoint.through_hash, rowId: null };
      }
      for (;;) {
        const rows = await this.repository.chainRows(head.chain_id, start.seq, VERIFY_BATCH);
        const replay = replayAuditChain(head.chain_id, rows, start);
        result.rows += rows.length;
        result.problems.push(...replay.problems);
        start = replay.end;
        if (rows.length < VERIFY_BATCH) break;
      }
      const headProblem = checkAuditHead(head.chain_id, start, head);
      if (headProblem) result.problems.push(headProblem);
    }
    return result;
  }

  /**
   * Removes every chain's rows written before `cutoff`, oldest first, RETENTION_BATCH places per
   * transaction: the removed places are replayed first (a broken chain is never removed, it is
   * logged and kept for whoever investigates), then a checkpoint naming them is signed and stored
   * and the rows deleted, in one transaction. Returns the rows removed.
   */
  async removeBefore(cutoff: Date, chainIds?: string[]): Promise<number> {
    let removed = 0;
    const heads = (await this.repository.heads()).filter((h) => !chainIds || chainIds.includes(h.chain_id));
    for (const head of heads) {
      for (;;) {
        const n = await this.removeBatch(head.chain_id, cutoff);
        removed += n;
        if (n < RETENTION_BATCH) break;
      }
    }
    return removed;
  }

  private async removeBatch(chainId: string, cutoff: Date): Promise<number> {
    if ((await this.repository.lastPlaceBefore(null, chainId, cutoff, 1)) === 0) return 0;
    // The key before the transaction: making one writes its public half on a connection of its own.
    const { kid, key } = await this.keys.active();
    return this.repository.transaction(async (manager) => {
      if (!(await this.repository.lockHead(manager, chainId))) return 0;
      const through = await this.repository.lastPlaceBefore(manager, chainId, cutoff, RETENTION_BATCH);
      const latest = await this.repository.latestCheckpoint(chainId, manager);
      const start = latest
        ? { seq: Number(latest.through_seq), hash: latest.through_hash }
        : { seq: 0, hash: AUDIT_GENESIS };
      if (through <= start.seq) return 0;
      const rows = await this.repository.chainRows(chainId, start.seq, through - start.seq, manager);
      const replay = replayAuditChain(chainId, rows, start);
      if (replay.problems.length > 0 || replay.end.seq !== through) {
        this.logger.error(
          { chain_id: chainId, problems: replay.problems.map((p) => p.problem) },
          'audit chain broken: retention keeps its rows',
        );
        return 0;
      }
      const now = this.clock.now();
      const payload: CheckpointPayload = {
        object: 'audit_checkpoint',
        id: newId(),
        chain_id: chainId,
        from_seq: start.seq + 1,
        through_seq: through,
        through_hash: replay.end.hash,
        removed_count: rows.length,
        removed_before: cutoff.toISOString(),
        chain_version: AUDIT_CHAIN_VERSION,
        issued_at: now.toISOString(),
      };
      const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ alg: 'EdDSA', kid, typ: CHECKPOINT_JWS_TYPE })
        .sign(key);
      return this.repository.removeThrough(manager, {
        id: payload.id,
        chain_id: chainId,
        through_seq: String(through),
        through_hash: payload.through_hash,
        removed_count: String(rows.length),
        removed_before: cutoff,
        kid,
        jws,
        created_at: now,
      });
    });
  }
}
