import { jest } from '@jest/globals';
import type { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../config/app.config.js';
import { Draining } from '../lifecycle/draining.js';
import { PeriodicJob } from './periodic-job.js';

const config = (runJobs: boolean) =>
  ({ get: (key: string) => (key === 'app.runJobs' ? runJobs : undefined) }) as unknown as ConfigService<
    AllConfig,
    true
  >;

/** A job whose runs the test finishes by hand, so overlap can be observed. */
class ManualJob extends PeriodicJob {
  runs = 0;
  pending: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  override readonly draining = new Draining();
  constructor(runJobs: boolean) {
    super(config(runJobs), 1_000);
  }
  protected runOnce(): Promise<void> {
    this.runs++;
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }
}

describe('PeriodicJob', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('does nothing when RUN_JOBS is off', async () => {
    const job = new ManualJob(false);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(job.runs).toBe(0);
  });

  it('runs every interval, never overlapping a run still going, and goes on after a failure', async () => {
    const job = new ManualJob(true);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(999);
    expect(job.runs).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(job.runs).toBe(1);
    await jest.advanceTimersByTimeAsync(3_000); // the first run has not finished: no second one
    expect(job.runs).toBe(1);
    job.pending.shift()!.reject(new Error('database went away'));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(job.runs).toBe(2);
    job.pending.shift()!.resolve();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(job.runs).toBe(3);
    job.onModuleDestroy();
    job.pending.shift()!.resolve();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(job.runs).toBe(3);
    await job.onApplicationShutdown();
    expect(job.draining.report.jobsStopped).toBe(1);
  });

  it('on shutdown finishes the batch under way, starts no other, and the application waits for it', async () => {
    const batches: Array<() => void> = [];
    class BatchJob extends PeriodicJob {
      override readonly draining = new Draining();
      claimed = 0;
      constructor() {
        super(config(true), 1_000);
      }
      protected runOnce(): Promise<number> {
        // Every batch claims a full 10 rows, so only shutdown ends the run.
        return this.untilDrained(10, () => new Promise((resolve) => batches.push(() => resolve(10))));
      }
    }
    const job = new BatchJob();
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(1_000);
    batches.shift()!();
    await jest.advanceTimersByTimeAsync(0);
    expect(batches).toHaveLength(1); // the second batch runs
    job.onModuleDestroy();
    let stopped = false;
    const shutdown = job.onApplicationShutdown().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false); // waits for the batch under way
    batches.shift()!();
    await shutdown;
    expect(batches).toHaveLength(0); // and starts no third one
    expect(job.draining.report.jobsStopped).toBe(1);
  });
});
