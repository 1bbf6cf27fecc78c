import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AllConfig } from '../../config/app.config.js';
import { Clock } from '../clock.js';
import type { Mode } from '../context/principal.js';
import { REPLICA_LAG_SQL } from './replica-lag.sql.js';

/** How long one lag reading is trusted, at most (less when READ_REPLICA_MAX_LAG_MS is smaller). */
const LAG_READING_TTL_MS = 250;
/** How long a connection to the replica may take before the lag reading counts it unreachable. */
const REPLICA_CONNECT_TIMEOUT_MS = 2_000;

/**
 * The streaming replica of DATABASE_READ_URL, when one is configured: one DataSource per mode
 * schema, built from the primary's (same entities, same schema binding) with the replica's URL.
 * `forTolerantRead()` answers whether a read that tolerates lag may go there now: only while the
 * replica's replay lag is within READ_REPLICA_MAX_LAG_MS, else (or when it cannot be asked) the
 * primary serves it.
 */
@Injectable()
export class ReadReplica implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReadReplica');
  private readonly url: string | undefined;
  private readonly maxLagMs: number;
  private readonly ttlMs: number;
  private sources: Record<Mode, DataSource> | undefined;
  private started = false;
  private reading: { atMs: number; lagMs: number } | undefined;
  private pending: Promise<number> | undefined;
  private warnedAtMs = -Infinity;

  constructor(
    @InjectDataSource('wallet_test') private readonly test: DataSource,
    @InjectDataSource('wallet_live') private readonly live: DataSource,
    config: ConfigService<AllConfig, true>,
    private readonly clock: Clock,
  ) {
    this.url = config.get('app.databaseReadUrl', { infer: true });
    this.maxLagMs = config.get('app.readReplicaMaxLagMs', { infer: true });
    this.ttlMs = Math.min(LAG_READING_TTL_MS, this.maxLagMs);
  }

  get configured(): boolean {
    return this.url !== undefined;
  }

  async onModuleInit(): Promise<void> {
    if (!this.url) return;
    const replicaOf = (primary: DataSource) =>
      new DataSource({
        ...primary.options,
        url: this.url,
        // The primary's entities, schema and subscribers (they stamp `livemode` on what it loads).
        migrationsRun: false,
        // A replica that does not answer sends the reads to the primary after this, not never.
        extra: {
          ...(primary.options as { extra?: object }).extra,
          connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS,
        },
      } as typeof primary.options);
    this.sources = { test: replicaOf(this.test), live: replicaOf(this.live) };
    // TypeORM asks the server its version when a DataSource starts: a replica down at boot does not
    // stop the service, the primary serves until a lag reading finds the replica and starts these.
    await this.start().catch((error: Error) => this.warn(error));
  }

  private async start(): Promise<void> {
    for (const source of Object.values(this.sources!)) if (!source.isInitialized) await source.initialize();
    this.started = true;
  }

  async onApplicationShutdown(): Promise<void> {
    const sources = this.sources;
    this.sources = undefined;
    this.started = false;
    await Promise.all(Object.values(sources ?? {}).map((s) => (s.isInitialized ? s.destroy() : undefined)));
  }

  /** The replica's DataSource of `mode`, once started. */
  source(mode: Mode): DataSource | undefined {
    return this.started ? this.sources?.[mode] : undefined;
  }

  /** Whether a lag-tolerant read may go to the replica now (configured, reachable, lag within the limit). */
  async forTolerantRead(): Promise<boolean> {
    if (!this.sources) return false;
    const now = this.clock.nowMs();
    if (!this.reading || now - this.reading.atMs >= this.ttlMs) {
      this.pending ??= this.measure().finally(() => (this.pending = undefined));
      this.reading = { atMs: now, lagMs: await this.pending };
    }
    return this.reading.lagMs <= this.maxLagMs;
  }

  /** The replica's lag in ms; Infinity when it cannot be asked (then the primary serves). */
  private async measure(): Promise<number> {
    try {
      if (!this.started) await this.start();
      const [row] = (await this.sources!.test.query(REPLICA_LAG_SQL)) as Array<{ lag_ms: number }>;
      return Number(row.lag_ms);
    } catch (error) {
      this.warn(error as Error);
      return Infinity;
    }
  }

  /** A read on the replica failed (`error`): the next tolerant read measures the lag again first. */
  distrust(error: Error): void {
    this.reading = undefined;
    this.warn(error);
  }

  /** At most one warning every 10 s while the replica cannot be reached. */
  private warn(error: Error): void {
    const now = this.clock.nowMs();
    if (now - this.warnedAtMs < 10_000) return;
    this.warnedAtMs = now;
    this.logger.warn(`read replica failed, reading from the primary: ${error.message}`);
  }
}
