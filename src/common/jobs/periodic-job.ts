import {
  type BeforeApplicationShutdown,
  Inject,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../config/app.config.js';
import { Clock } from '../clock.js';
import type { Mode } from '../context/principal.js';
import { RequestContext } from '../context/request-context.js';
import { MigrationStatus } from '../database/migration-status.js';
import { Draining } from '../lifecycle/draining.js';
import { forEachMode } from '../tenancy/modes.js';
import type { JobScope } from './job-scope.js';

/**
 * A background job that runs every `intervalMs` in each replica when `RUN_JOBS` is true (tests and
 * benchmarks turn it off and call the work directly). A run never overlaps the previous one in the
 * same process; across replicas the work itself must be safe (claim rows with FOR UPDATE SKIP
 * LOCKED). A failed run is logged and retried at the next tick. Until every migration is applied
 * (a fresh database, or a new version started before its migration Job ran) a tick only checks
 * again: the job waits, saying so once, instead of failing on missing tables every tick. On
 * shutdown no new run starts, a run still going is awaited before the database closes, and
 * `stopping` tells it to wind up.
 */
export abstract class PeriodicJob
  implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown
{
  protected readonly logger = new Logger(this.constructor.name);
  // Property-injected: a job's constructor names only its own collaborators and its interval.
  @Inject(ConfigService) protected readonly jobConfig!: ConfigService<AllConfig, true>;
  @Inject(MigrationStatus) protected readonly migrationStatus!: MigrationStatus;
  @Inject(Draining) protected readonly draining!: Draining;
  @Inject(RequestContext) protected readonly context!: RequestContext;
  @Inject(Clock) protected readonly clock!: Clock;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  private stopped = false;
  private waiting = false;

  protected constructor(private readonly intervalMs: number) {}

  /** One run of the job. */
  protected abstract runOnce(): Promise<unknown>;

  /**
   * Runs `batch` (which claims and handles up to `size` due rows, returning how many it claimed)
   * again and again until a batch claims fewer than `size`, i.e. nothing due is left; returns the
   * number claimed in all.
   */
  protected async untilDrained(size: number, batch: () => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await batch();
      total += claimed;
      if (claimed < size || this.stopping) return total;
    }
  }

  /**
   * Runs `work` bound to each mode of `scope` (both when it names none), one mode after the other;
   * returns the results in mode order.
   */
  protected eachScopedMode<T>(scope: JobScope, work: (mode: Mode) => Promise<T>): Promise<T[]> {
    return forEachMode((mode) => this.context.runInMode(mode, () => work(mode)), scope.modes);
  }

  onApplicationBootstrap(): void {
    if (!this.jobConfig.get('app.runJobs', { infer: true })) return;
    this.started = true;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** True once the application is shutting down: a long run should stop taking new work. */
  protected get stopping(): boolean {
    return this.stopped;
  }

  /** The timer stops as shutdown begins; a run under way ends after its current batch. */
  onModuleDestroy(): void {
    this.stop();
  }

  /** Waits for the run still going (before the pools close) and counts the job in the drain report. */
  beforeApplicationShutdown(): Promise<void> {
    return this.finish();
  }

  onApplicationShutdown(): Promise<void> {
    return this.finish();
  }

  private async finish(): Promise<void> {
    this.stop();
    await this.running;
    if (this.started) this.draining.report.jobsStopped += 1;
    this.started = false;
  }

  private stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = this.runIfMigrated().then(
      () => undefined,
      (error: unknown) => this.logger.error({ err: error }, `${this.constructor.name} run failed`),
    );
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
  }

  private async runIfMigrated(): Promise<void> {
    if (await this.schemaReady()) await this.runOnce();
  }

  /** Whether the schema is migrated; logs once when the job starts waiting and once when it stops. */
  private async schemaReady(): Promise<boolean> {
    let reason: string | undefined;
    try {
      const pending = await this.migrationStatus.pending();
      if (pending.length > 0) reason = `${pending.length} migration(s) pending (npm run migration:run)`;
    } catch {
      reason = 'the database is not reachable';
    }
    if (reason === undefined) {
      if (this.waiting) this.logger.log(`${this.constructor.name}: the schema is migrated; running`);
      this.waiting = false;
      return true;
    }
    if (!this.waiting) this.logger.warn(`${this.constructor.name} waits: ${reason}`);
    this.waiting = true;
    return false;
  }
}
