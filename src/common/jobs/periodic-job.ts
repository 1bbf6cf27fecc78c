import {
  Inject,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../config/app.config.js';
import { Draining } from '../lifecycle/draining.js';

/**
 * A background job that runs every `intervalMs` in each replica when `RUN_JOBS` is true (tests and
 * benchmarks turn it off and call the work directly). A run never overlaps the previous one in the
 * same process; across replicas the work itself must be safe (claim rows with FOR UPDATE SKIP
 * LOCKED). A failed run is logged and retried at the next tick.
 *
 * On shutdown the timer stops at once (onModuleDestroy) and a run under way finishes its current
 * batch and stops; the application waits for it (onApplicationShutdown, before the pools close).
 */
export abstract class PeriodicJob implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  protected readonly logger = new Logger(this.constructor.name);
  /** Property-injected so that subclasses' constructors stay as they are. */
  @Inject(Draining) protected readonly draining!: Draining;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private stopping = false;

  protected constructor(
    private readonly jobConfig: ConfigService<AllConfig, true>,
    private readonly intervalMs: number,
  ) {}

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

  onApplicationBootstrap(): void {
    if (!this.jobConfig.get('app.runJobs', { infer: true })) return;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.timer) return;
    this.timer = undefined;
    await this.current;
    this.draining.report.jobsStopped += 1;
  }

  private tick(): void {
    if (this.current || this.stopping) return;
    this.current = this.runOnce()
      .then(
        () => undefined,
        (error: unknown) => this.logger.error({ err: error }, `${this.constructor.name} run failed`),
      )
      .finally(() => {
        this.current = undefined;
      });
  }
}
