/** What a flush gets: the rows of every submission it carries, in submission order. */
export type Flush<Row, Result> = (rows: Row[]) => Promise<Result[]>;

interface Submission<Row, Result> {
  rows: Row[];
  resolve(results: Result[]): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions<Row, Result> {
  /** Writes the rows in one statement (one transaction) and answers one result per row, in order. */
  flush: Flush<Row, Result>;
  /** Flushes in flight at once; the submissions arriving meanwhile wait and go together in the next one. */
  concurrency: number;
  /** The most rows one flush carries. A submission is never split: a larger one goes alone. */
  maxRows: number;
}

/**
 * Group commit for concurrent writers of the same table. Each writer submits its rows and is
 * answered once the flush that carried them has committed, so an answer still means the rows are
 * durably stored. While `concurrency` flushes are in flight, new submissions queue and go to the
 * database together in the next flush: one statement, one transaction and one WAL flush for many
 * requests instead of one each, which under load frees the database's CPU and the connection pool,
 * and which adds no delay when the writer is idle (a lone submission leaves within the same turn of
 * the event loop).
 *
 * Submissions that arrive in the same turn of the event loop leave together. A flush that fails
 * while carrying several submissions is retried for each of them alone, so one writer's bad row
 * (a constraint the caller did not foresee) fails that writer only.
 *
 * The flush runs outside any request: it must take everything it needs from its rows.
 */
export class GroupCommit<Row, Result> {
  private readonly queue: Array<Submission<Row, Result>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly options: GroupCommitOptions<Row, Result>) {
    if (options.concurrency < 1 || options.maxRows < 1) throw new RangeError('concurrency and maxRows must be >= 1');
  }

  /** The results for `rows`, in their order, once a flush carrying them has committed. */
  submit(rows: Row[]): Promise<Result[]> {
    return new Promise<Result[]>((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      if (this.inFlight < this.options.concurrency && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.drain();
        });
      }
    });
  }

  /** Submissions waiting for a flush (for metrics and tests). */
  get waiting(): number {
    return this.queue.length;
  }

  private drain(): void {
    while (this.inFlight < this.options.concurrency && this.queue.length > 0) {
      const batch = this.take();
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.drain();
      });
    }
  }

  /** Whole submissions from the head of the queue, up to maxRows rows (at least one submission). */
  private take(): Array<Submission<Row, Result>> {
    let rows = this.queue[0].rows.length;
    let count = 1;
    while (count < this.queue.length && rows + this.queue[count].rows.length <= this.options.maxRows) {
      rows += this.queue[count].rows.length;
      count += 1;
    }
    return this.queue.splice(0, count);
  }

  private async run(batch: Array<Submission<Row, Result>>): Promise<void> {
    if (batch.length === 1) return this.runAlone(batch[0]);
    let results: Result[];
    try {
      results = await this.options.flush(batch.flatMap((s) => s.rows));
    } catch {
      // Which submission made it fail is unknown: each is tried alone, and only its own error reaches it.
      await Promise.all(batch.map((s) => this.runAlone(s)));
      return;
    }
    let offset = 0;
    for (const s of batch) {
      s.resolve(results.slice(offset, offset + s.rows.length));
      offset += s.rows.length;
    }
  }

  private async runAlone(submission: Submission<Row, Result>): Promise<void> {
    try {
      submission.resolve(await this.options.flush(submission.rows));
    } catch (error) {
      submission.reject(error);
    }
  }
}
