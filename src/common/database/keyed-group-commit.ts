import { GroupCommit } from './group-commit.js';

export interface KeyedGroupCommitOptions<Row, Result> {
  /** Writes the rows of one key in one transaction and answers one result per row, in order. */
  flush: (key: string, rows: Row[]) => Promise<Result[]>;
  /** Flushes in flight at once per key. */
  concurrency: number;
  /** The most rows one flush carries. A submission is never split. */
  maxRows: number;
}

/**
 * A {@link GroupCommit} per key (e.g. per customer whose rows all lock the same row): the
 * submissions of one key that arrive while its flush runs go together in its next flush, and keys
 * never wait for each other. A key's group exists only while it has submissions pending, so a
 * stream of distinct keys leaves nothing behind.
 */
export class KeyedGroupCommit<Row, Result> {
  private readonly groups = new Map<string, { group: GroupCommit<Row, Result>; pending: number }>();

  constructor(private readonly options: KeyedGroupCommitOptions<Row, Result>) {}

  /** The results for `rows`, in their order, once the flush of `key` carrying them has committed. */
  async submit(key: string, rows: Row[]): Promise<Result[]> {
    let entry = this.groups.get(key);
    if (!entry) {
      const { concurrency, maxRows } = this.options;
      entry = {
        group: new GroupCommit({ concurrency, maxRows, flush: (r) => this.options.flush(key, r) }),
        pending: 0,
      };
      this.groups.set(key, entry);
    }
    entry.pending += 1;
    try {
      return await entry.group.submit(rows);
    } finally {
      entry.pending -= 1;
      if (entry.pending === 0 && this.groups.get(key) === entry) this.groups.delete(key);
    }
  }

  /** Keys with submissions pending (for tests and metrics). */
  get keys(): number {
    return this.groups.size;
  }
}
