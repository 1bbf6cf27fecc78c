import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntitySubscriberInterface, SelectQueryBuilder } from 'typeorm';
import { AUDIT_EVENTS } from '../../common/database/partitions/partitioned-tables.js';
import { PartitionCoverage } from '../../common/database/partitions/partitions.sql.js';
import { AUDIT_GENESIS, type ChainedAuditRow } from './audit-chain.js';
import { AuditEvent } from './entities/audit-event.entity.js';

export type NewAuditRow = Omit<ChainedAuditRow, 'chain_seq' | 'prev_hash' | 'entry_hash'>;

export interface AuditHead {
  chain_id: string;
  seq: number;
  hash: string;
}

export interface AuditCheckpointRow {
  id: string;
  chain_id: string;
  through_seq: string;
  through_hash: string;
  removed_count: string;
  removed_before: Date;
  kid: string;
  jws: string;
  created_at: Date;
}

/** The month partitions audit rows go to (made here when the maintenance job has not made a month ahead). */
const coverage = new PartitionCoverage(AUDIT_EVENTS);

const COLUMNS = [
  'id',
  'chain_id',
  'chain_seq',
  'application_id',
  'livemode',
  'actor_type',
  'actor_id',
  'action',
  'target_type',
  'target_id',
  'request_id',
  'client_address',
  'user_agent',
  'changes',
  'metadata',
  'created_at',
  'prev_hash',
  'entry_hash',
] as const;

/** platform.audit_events, its chain heads and retention checkpoints. Only this file and the migration know the SQL. */
@Injectable()
export class AuditRepository {
  constructor(
    @InjectDataSource('platform') private readonly db: DataSource,
    @InjectDataSource('wallet_test') private readonly test: DataSource,
    @InjectDataSource('wallet_live') private readonly live: DataSource,
  ) {}

  /** Registers `subscriber` on the three DataSources, so every transaction's commit reaches it (AuditOnCommit). */
  subscribeToCommits(subscriber: EntitySubscriberInterface): void {
    for (const source of [this.db, this.test, this.live]) {
      if (!source.subscribers.includes(subscriber)) source.subscribers.push(subscriber);
    }
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Appends a row to its chain in the caller's transaction: the head row is locked (created at
   * genesis on the chain's first row) and read in one statement, the row hashed by `hash`, then the
   * head moved and the row inserted in one statement. Concurrent writers of one chain queue on the
   * head's lock until the holder commits or rolls back, so the chain never forks.
   */
  async append(
    manager: EntityManager,
    row: NewAuditRow,
    hash: (previous: string, seq: number) => string,
  ): Promise<void> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('an audit row is appended inside a transaction: the head lock must last until the commit');
    }
    await coverage.ensure(manager, 'platform', new Date(row.created_at));
    const [head] = (await manager.query(
      `INSERT INTO platform.audit_chain_heads (chain_id, seq, hash) VALUES ($1, 0, $2)
       ON CONFLICT (chain_id) DO UPDATE SET seq = platform.audit_chain_heads.seq
       RETURNING seq::text AS seq, hash`,
      [row.chain_id, AUDIT_GENESIS],
    )) as Array<{ seq: string; hash: string }>;
    const seq = Number(head.seq) + 1;
    const entryHash = hash(head.hash, seq);
    await manager.query(
      `WITH moved AS (
         UPDATE platform.audit_chain_heads SET seq = $3, hash = $18, updated_at = $16 WHERE chain_id = $2)
       INSERT INTO platform.audit_events (${COLUMNS.join(', ')})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        row.id,
        row.chain_id,
        seq,
        row.application_id,
        row.livemode,
        row.actor_type,
        row.actor_id,
        row.action,
        row.target_type,
        row.target_id,
        row.request_id,
        row.client_address,
        row.user_agent,
        row.changes === null ? null : JSON.stringify(row.changes),
        JSON.stringify(row.metadata),
        row.created_at,
        head.hash,
        entryHash,
      ],
    );
  }

  /** The application's audit rows (both modes and the mode-less ones), for the list engine. */
  query(applicationId: string): SelectQueryBuilder<AuditEvent> {
    return this.db.getRepository(AuditEvent).createQueryBuilder('a').where('a.application_id = :applicationId', {
      applicationId,
    });
  }

  /** Rows of the application created in [from, to), oldest first, after `afterSeq`: the export's pages. */
  async exportPage(
    applicationId: string,
    window: { from: Date | null; to: Date | null },
    afterSeq: number,
    limit: number,
  ): Promise<ChainedAuditRow[]> {
    return this.db.query(
      `SELECT ${COLUMNS.join(', ')} FROM platform.audit_events
        WHERE chain_id = $1 AND chain_seq > $2
          AND ($3::timestamptz IS NULL OR created_at >= $3) AND ($4::timestamptz IS NULL OR created_at < $4)
        ORDER BY chain_seq LIMIT $5`,
      [applicationId, afterSeq, window.from, window.to, limit],
    );
  }

  async heads(chainId?: string): Promise<AuditHead[]> {
    const rows = (await this.db.query(
      `SELECT chain_id, seq::text AS seq, hash FROM platform.audit_chain_heads
        WHERE $1::uuid IS NULL OR chain_id = $1 ORDER BY chain_id`,
      [chainId ?? null],
    )) as Array<{ chain_id: string; seq: string; hash: string }>;
    return rows.map((r) => ({ chain_id: r.chain_id, seq: Number(r.seq), hash: r.hash }));
  }

  /** A batch of one chain's rows after place `afterSeq`, in chain order (rows the verifier replays). */
  chainRows(chainId: string, afterSeq: number, limit: number, manager?: EntityManager): Promise<ChainedAuditRow[]> {
    return (manager ?? this.db.manager).query(
      `SELECT ${COLUMNS.join(', ')} FROM platform.audit_events WHERE chain_id = $1 AND chain_seq > $2
        ORDER BY chain_seq LIMIT $3`,
      [chainId, afterSeq, limit],
    );
  }

  async latestCheckpoint(chainId: string, manager?: EntityManager): Promise<AuditCheckpointRow | null> {
    const [row] = (await (manager ?? this.db.manager).query(
      `SELECT * FROM platform.audit_checkpoints WHERE chain_id = $1 ORDER BY through_seq DESC LIMIT 1`,
      [chainId],
    )) as AuditCheckpointRow[];
    return row ?? null;
  }

  checkpoints(chainId: string): Promise<AuditCheckpointRow[]> {
    return this.db.query(`SELECT * FROM platform.audit_checkpoints WHERE chain_id = $1 ORDER BY through_seq`, [
      chainId,
    ]);
  }

  /**
   * The chains with rows in the month [start, end) (still attached, in the drop's transaction): their
   * last place there and how many rows they have there. The month's rows of a chain are the places
   * its checkpoint covers, with at most a few of the next month's (a row stamped late in a month
   * reaching the chain after one stamped early in the next: both stay covered, the later month's
   * rows go with their month).
   */
  periodChains(
    manager: EntityManager,
    period: { start: Date; end: Date },
  ): Promise<Array<{ chain_id: string; through_seq: string; rows: string }>> {
    return manager.query(
      `SELECT chain_id, max(chain_seq)::text AS through_seq, count(*)::text AS rows FROM platform.audit_events
        WHERE created_at >= $1 AND created_at < $2 GROUP BY chain_id ORDER BY chain_id`,
      [period.start, period.end],
    );
  }

  /** Stores a retention checkpoint, in the caller's (the month drop's) transaction. */
  async addCheckpoint(manager: EntityManager, checkpoint: AuditCheckpointRow): Promise<void> {
    await manager.query(
      `INSERT INTO platform.audit_checkpoints
         (id, chain_id, through_seq, through_hash, removed_count, removed_before, kid, jws, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        checkpoint.id,
        checkpoint.chain_id,
        checkpoint.through_seq,
        checkpoint.through_hash,
        checkpoint.removed_count,
        checkpoint.removed_before,
        checkpoint.kid,
        checkpoint.jws,
        checkpoint.created_at,
      ],
    );
  }

  /**
   * Lets the caller's transaction (the retention's month drop, once its checkpoints are stored)
   * detach and drop a month of audit_events: the one switch the append-only event triggers honour,
   * `wallet.audit_retention = on`, for this transaction only.
   */
  async allowRetention(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT set_config('wallet.audit_retention', 'on', true)`);
  }
}
