import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { Mode } from '../context/principal.js';
import { RequestContext } from '../context/request-context.js';
import { ReadReplica } from './read-replica.js';

/**
 * The per-mode database of the current request. The mode comes from the request context (bound by
 * the auth guard, with the principal), never from a parameter, so a repository cannot reach the other schema.
 */
@Injectable()
export class ModeDb {
  private readonly sources: Record<Mode, DataSource>;

  constructor(
    @InjectDataSource('wallet_test') test: DataSource,
    @InjectDataSource('wallet_live') live: DataSource,
    private readonly context: RequestContext,
    private readonly replica: ReadReplica,
  ) {
    this.sources = { test, live };
  }

  /** The current mode, to key per-mode state (a cache, a group commit) by. */
  get mode(): Mode {
    return this.context.mode;
  }

  /** The mode's DataSource: the read replica's in a request whose handler tolerates lag and got it (ReadReplicaTolerant). */
  get dataSource(): DataSource {
    const mode = this.context.mode;
    return (this.context.readReplica && this.replica.source(mode)) || this.sources[mode];
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** Whether the current mode is live: for records built before the database stamps them. */
  get livemode(): boolean {
    return this.context.mode === 'live';
  }

  get schema(): string {
    return this.context.mode === 'live' ? 'wallet_live' : 'wallet_test';
  }

  /** `"wallet_test"."table"` of the current mode, for hand-written SQL. */
  table(name: string): string {
    return `"${this.schema}"."${name}"`;
  }

  repository<T extends ObjectLiteral>(entity: EntityTarget<T>, manager?: EntityManager): Repository<T> {
    return (manager ?? this.manager).getRepository(entity);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * `work` in a transaction whose commit does not wait for its WAL to reach the disk
   * (`synchronous_commit = off` for this transaction only). PostgreSQL still writes it within about
   * three `wal_writer_delay`s, and any later durable commit flushes it first; a database crash can
   * lose the last fraction of a second of such commits, in order, never a part of one. So this is
   * only for writes that are redone when lost: the meter outbox's leases and delivered marks and
   * the sandbox provider's record of what it received (a lost mark means one more delivery, which
   * the provider absorbs by the event's identifier). Never a request's own data: a 2xx means the
   * data is durably stored. Why (issue 18): the forwarder's commits, each a batch, waited for their
   * own WAL flush on the disk that the requests' commits wait on.
   */
  asyncCommit<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SET LOCAL synchronous_commit = off');
      return work(manager);
    });
  }
}
