import { jest } from '@jest/globals';
import type { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../config/app.config.js';
import type { Mode } from '../context/principal.js';
import type { RequestContext } from '../context/request-context.js';
import type { MigrationStatus } from '../database/migration-status.js';
import { Draining } from '../lifecycle/draining.js';
import type { JobScope } from './job-scope.js';
import { PeriodicJob } from './periodic-job.js';

const config = (runJobs: boolean) =>
  ({ get: (key: string) => (key === 'app.runJobs' ? runJobs : undefined) }) as unknown as ConfigService<
    AllConfig,
    true
  >;

/** What the migrations table says, set by the test: the names still pending, or a database that does not answer. */
class SchemaState {
  pendingNames: string[] = [];
  unreachable = false;
  checks = 0;
  readonly status = {
    pending: () => {
      this.checks++;
      return this.unreachable ? Promise.reject(new Error('connection refused')) : Promise.resolve(this.pendingNames);
    },
  } as unknown as MigrationStatus;
}

/** A job whose runs the test finishes by hand, so overlap can be observed. */
class ManualJob extends PeriodicJob {
  runs = 0;
  pending: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  protected override readonly jobConfig = config(this.runJobs);
  protected override readonly migrationStatus = this.schema.status;
  override readonly draining = new Draining();
  constructor(
    private readonly runJobs: boolean,
    private readonly schema = new SchemaState(),
  ) {
    super(1_000);
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
      protected override readonly jobConfig = config(true);
      protected override readonly migrationStatus = new SchemaState().status;
      override readonly draining = new Draining();
      constructor() {
        super(1_000);
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

  it('waits for the migrations, checking again every interval and saying so once, then runs', async () => {
    const schema = new SchemaState();
    schema.unreachable = true;
    const job = new ManualJob(true, schema);
    const warn = jest.spyOn(job['logger'], 'warn').mockImplementation(() => undefined);
    const error = jest.spyOn(job['logger'], 'error').mockImplementation(() => undefined);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3_000); // no database yet
    schema.unreachable = false;
    schema.pendingNames = ['Foundation1763800000000', 'Customers1763800000100'];
    await jest.advanceTimersByTimeAsync(5_000); // a database without the migrations
    expect(job.runs).toBe(0);
    expect(schema.checks).toBe(8);
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/waits: the database is not reachable/);
    schema.pendingNames = [];
    await jest.advanceTimersByTimeAsync(1_000);
    expect(job.runs).toBe(1);
    const shutdown = job.onApplicationShutdown();
    job.pending.shift()!.resolve();
    await shutdown;
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

  it('walks the modes of a scope (both, test first, when it names none), each bound while its work runs', async () => {
    class ModesJob extends PeriodicJob {
      bound: Mode | undefined;
      protected override readonly context = {
        runInMode: async <T>(mode: Mode, work: () => Promise<T>): Promise<T> => {
          this.bound = mode;
          try {
            return await work();
          } finally {
            this.bound = undefined;
          }
        },
      } as unknown as RequestContext;
      constructor() {
        super(1_000);
      }
      protected runOnce(): Promise<void> {
        return Promise.resolve();
      }
      walk(scope: JobScope): Promise<string[]> {
        return this.eachScopedMode(scope, (mode) => Promise.resolve(`${mode} bound to ${this.bound}`));
      }
    }
    const job = new ModesJob();
    expect(await job.walk({})).toEqual(['test bound to test', 'live bound to live']);
    expect(await job.walk({ modes: ['live'] })).toEqual(['live bound to live']);
  });
});
