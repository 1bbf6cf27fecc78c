import { jest } from '@jest/globals';
import type { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../config/app.config.js';
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
  constructor(runJobs: boolean) {
    super(config(runJobs), 1_000);
  }
  get isStopping(): boolean {
    return this.stopping;
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
    job.onApplicationShutdown();
    job.pending.shift()!.resolve();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(job.runs).toBe(3);
  });

  it('on shutdown starts no new run, says it is stopping, and waits for the run still going', async () => {
    const job = new ManualJob(true);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(job.runs).toBe(1);
    let stopped = false;
    const shutdown = job.beforeApplicationShutdown().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(5_000);
    expect(stopped).toBe(false);
    expect(job.isStopping).toBe(true);
    job.pending.shift()!.resolve();
    await shutdown;
    await jest.advanceTimersByTimeAsync(5_000);
    expect(job.runs).toBe(1);
  });
});
