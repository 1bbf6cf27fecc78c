import { GroupCommit } from './group-commit.js';

/** A flush that records what each call carried and answers when the test says so. */
function recorder() {
  const calls: Array<{ rows: number[]; settle: (fail?: boolean) => void }> = [];
  const flush = (rows: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({
        rows,
        settle: (fail) => (fail ? reject(new Error('flush failed')) : resolve(rows.map((r) => `stored ${r}`))),
      });
    });
  return { calls, flush };
}

/** Lets the event loop turn once (setImmediate callbacks and the microtasks they start). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('sends a lone submission in the same turn of the event loop and answers with its own results', async () => {
    const { calls, flush } = recorder();
    const group = new GroupCommit({ flush, concurrency: 2, maxRows: 10 });
    const answer = group.submit([1, 2]);
    await turn();
    expect(calls.map((c) => c.rows)).toEqual([[1, 2]]);
    calls[0].settle();
    await expect(answer).resolves.toEqual(['stored 1', 'stored 2']);
  });

  it('puts the submissions of one turn in one flush, and each gets only its rows back', async () => {
    const { calls, flush } = recorder();
    const group = new GroupCommit({ flush, concurrency: 2, maxRows: 10 });
    const answers = [group.submit([1]), group.submit([2, 3]), group.submit([4])];
    await turn();
    expect(calls.map((c) => c.rows)).toEqual([[1, 2, 3, 4]]);
    calls[0].settle();
    await expect(Promise.all(answers)).resolves.toEqual([['stored 1'], ['stored 2', 'stored 3'], ['stored 4']]);
  });

  it('keeps at most `concurrency` flushes in flight; what arrives meanwhile leaves together when one ends', async () => {
    const { calls, flush } = recorder();
    const group = new GroupCommit({ flush, concurrency: 1, maxRows: 10 });
    const first = group.submit([1]);
    await turn();
    const later = [group.submit([2]), group.submit([3])];
    await turn();
    await turn();
    expect(calls).toHaveLength(1);
    expect(group.waiting).toBe(2);
    calls[0].settle();
    await first;
    await turn();
    expect(calls.map((c) => c.rows)).toEqual([[1], [2, 3]]);
    calls[1].settle();
    await expect(Promise.all(later)).resolves.toEqual([['stored 2'], ['stored 3']]);
  });

  it('never splits a submission and starts a new flush at maxRows', async () => {
    const { calls, flush } = recorder();
    const group = new GroupCommit({ flush, concurrency: 3, maxRows: 3 });
    const answers = [group.submit([1, 2]), group.submit([3, 4]), group.submit([5, 6, 7, 8])];
    await turn();
    expect(calls.map((c) => c.rows)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6, 7, 8],
    ]);
    calls.forEach((c) => c.settle());
    await expect(Promise.all(answers)).resolves.toEqual([
      ['stored 1', 'stored 2'],
      ['stored 3', 'stored 4'],
      ['stored 5', 'stored 6', 'stored 7', 'stored 8'],
    ]);
  });

  it('retries each submission of a failed flush alone, so only the one that fails alone gets the error', async () => {
    const carried: number[][] = [];
    const group = new GroupCommit<number, string>({
      concurrency: 1,
      maxRows: 10,
      flush: async (rows) => {
        carried.push(rows);
        if (rows.includes(13)) throw new Error('row 13 refused');
        return rows.map((r) => `stored ${r}`);
      },
    });
    const results = await Promise.allSettled([group.submit([1]), group.submit([13]), group.submit([2])]);
    expect(carried).toEqual([[1, 13, 2], [1], [13], [2]]);
    expect(results).toEqual([
      { status: 'fulfilled', value: ['stored 1'] },
      { status: 'rejected', reason: new Error('row 13 refused') },
      { status: 'fulfilled', value: ['stored 2'] },
    ]);
  });

  it('keeps going after a failure', async () => {
    const { calls, flush } = recorder();
    const group = new GroupCommit({ flush, concurrency: 1, maxRows: 10 });
    const failed = group.submit([1]);
    await turn();
    calls[0].settle(true);
    await expect(failed).rejects.toThrow('flush failed');
    const next = group.submit([2]);
    await turn();
    calls[1].settle();
    await expect(next).resolves.toEqual(['stored 2']);
  });
});
