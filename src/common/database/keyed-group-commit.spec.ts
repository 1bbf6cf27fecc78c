import { KeyedGroupCommit } from './keyed-group-commit.js';

/** Lets the event loop turn once (setImmediate callbacks and the microtasks they start). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

function recorder() {
  const calls: Array<{ key: string; rows: number[]; settle: () => void }> = [];
  const flush = (key: string, rows: number[]) =>
    new Promise<string[]>((resolve) => {
      calls.push({ key, rows, settle: () => resolve(rows.map((r) => `${key}:${r}`)) });
    });
  return { calls, flush };
}

describe('KeyedGroupCommit', () => {
  it('batches what arrives for a key while its flush runs, in arrival order, and never holds one key behind another', async () => {
    const { calls, flush } = recorder();
    const keyed = new KeyedGroupCommit({ flush, concurrency: 1, maxRows: 10 });
    const first = keyed.submit('a', [1]);
    await turn();
    const later = [keyed.submit('a', [2]), keyed.submit('b', [7]), keyed.submit('a', [3, 4])];
    await turn();
    // 'a' is busy with [1]: its later rows wait; 'b' goes at once.
    expect(calls.map((c) => [c.key, c.rows])).toEqual([
      ['a', [1]],
      ['b', [7]],
    ]);
    calls[0].settle();
    await expect(first).resolves.toEqual(['a:1']);
    await turn();
    expect(calls.map((c) => [c.key, c.rows])[2]).toEqual(['a', [2, 3, 4]]);
    calls[1].settle();
    calls[2].settle();
    await expect(Promise.all(later)).resolves.toEqual([['a:2'], ['b:7'], ['a:3', 'a:4']]);
  });

  it('forgets a key once nothing of it is pending', async () => {
    const keyed = new KeyedGroupCommit<number, number>({
      flush: (_key, rows) => Promise.resolve(rows),
      concurrency: 1,
      maxRows: 10,
    });
    const answers = Array.from({ length: 50 }, (_, i) => keyed.submit(`customer-${i}`, [i]));
    expect(keyed.keys).toBe(50);
    await Promise.all(answers);
    expect(keyed.keys).toBe(0);
  });

  it('passes a flush failure to the submissions it carried and still forgets the key', async () => {
    const keyed = new KeyedGroupCommit<number, number>({
      flush: () => Promise.reject(new Error('deadlock detected')),
      concurrency: 1,
      maxRows: 10,
    });
    await expect(keyed.submit('a', [1])).rejects.toThrow('deadlock detected');
    expect(keyed.keys).toBe(0);
  });
});
