import { Injectable, Logger } from '@nestjs/common';
import { CompactSign } from 'jose';
import type { EntityManager } from 'typeorm';
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

export interface ChainVerification {
  chains: number;
  rows: number;
  problems: ChainProblem[];
}

/**
 * Verifies the chains (`audit:verify`) and checkpoints what retention's month drop removes
 * (AuditRetention). Both start a chain where its latest checkpoint ends.
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
   * The retention's `beforeDrop` hook (docs/AUDIT.md "Retention"): signs the statement key once
   * (outside any transaction), then, in each month's drop transaction, for every chain with rows in
   * the month: replays its places from its latest checkpoint through its last place in the month
   * (every row still attached), and stores a signed checkpoint naming them, before the month goes.
   * A chain that does not replay (a broken chain is never removed) fails the drop: the month stays,
   * with every chain's rows, for whoever investigates. Counts the rows checkpointed into `removed`.
   */
  async beforeDrop(
    removed: { rows: number } = { rows: 0 },
  ): Promise<(tx: EntityManager, period: { start: Date; end: Date }) => Promise<void>> {
    // The key before the transaction: making one writes its public half on a connection of its own.
    const { kid, key } = await this.keys.active();
    return async (tx, period) => {
      let rows = 0;
      for (const chain of await this.repository.periodChains(tx, period)) {
        const through = Number(chain.through_seq);
        const latest = await this.repository.latestCheckpoint(chain.chain_id, tx);
        let start = latest
          ? { seq: Number(latest.through_seq), hash: latest.through_hash, rowId: null as string | null }
          : { seq: 0, hash: AUDIT_GENESIS, rowId: null as string | null };
        const from = start.seq + 1;
        // Every row of the month is already behind a checkpoint (it reached the chain before the last month's).
        if (through < from) {
          rows += Number(chain.rows);
          continue;
        }
        while (start.seq < through) {
          const batch = await this.repository.chainRows(
            chain.chain_id,
            start.seq,
            Math.min(VERIFY_BATCH, through - start.seq),
            tx,
          );
          const replay = replayAuditChain(chain.chain_id, batch, start);
          if (replay.problems.length > 0 || batch.length === 0) {
            this.logger.error(
              { chain_id: chain.chain_id, problems: replay.problems.map((p) => p.problem) },
              'audit chain broken: retention keeps its month',
            );
            throw new Error(
              `audit chain ${chain.chain_id} does not replay through place ${through}: the month from ${period.start.toISOString()} is kept`,
            );
          }
          start = replay.end;
        }
        const now = this.clock.now();
        const payload: CheckpointPayload = {
          object: 'audit_checkpoint',
          id: newId(),
          chain_id: chain.chain_id,
          from_seq: from,
          through_seq: through,
          through_hash: start.hash,
          removed_count: Number(chain.rows),
          removed_before: period.end.toISOString(),
          chain_version: AUDIT_CHAIN_VERSION,
          issued_at: now.toISOString(),
        };
        const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
          .setProtectedHeader({ alg: 'EdDSA', kid, typ: CHECKPOINT_JWS_TYPE })
          .sign(key);
        await this.repository.addCheckpoint(tx, {
          id: payload.id,
          chain_id: chain.chain_id,
          through_seq: String(through),
          through_hash: payload.through_hash,
          removed_count: chain.rows,
          removed_before: period.end,
          kid,
          jws,
          created_at: now,
        });
        rows += Number(chain.rows);
      }
      await this.repository.allowRetention(tx);
      removed.rows += rows;
    };
  }
}
