import { applyBatch, applyLegs, type BatchPosting, type LockedBalance } from './posting-batch.js';
import type { EntryInput } from './posting.sql.js';
import { GENESIS_HASH, replayChain } from './statements/entry-chain.js';

const APP = '0193a1b2-c3d4-7e8f-9a0b-00000000a000';
const HOT = '0193a1b2-c3d4-7e8f-9a0b-00000000b001';
const OTHER = '0193a1b2-c3d4-7e8f-9a0b-00000000b002';

const balance = (id: string, available: number): LockedBalance => ({
  id,
  application_id: APP,
  customer_id: null,
  account: 'fees',
  currency: 'THB',
  available,
  hold: 0,
  scaling_factor: 100,
  chain_head: GENESIS_HASH,
  chain_count: 0,
  pending_debits: 0,
});

let seq = 0;
const posting = (amounts: Array<[string, number]>, guard: string[] = [], applicationId = APP): BatchPosting => {
  seq += 1;
  const journal = {
    id: `0193a1b2-c3d4-7e8f-9a0b-0000000c${String(seq).padStart(4, '0')}`,
    applicationId,
    description: null,
    eventType: 'test',
    eventId: null,
    now: new Date(Date.UTC(2026, 10, 1, 0, 0, 0, seq)),
  };
  const entries: EntryInput[] = amounts.map(([balance_id, amount], i) => ({
    id: `0193a1b2-c3d4-7e8f-9a0b-0000${String(seq).padStart(4, '0')}${String(i).padStart(4, '0')}`,
    balance_id,
    amount,
    currency: 'THB',
    state: 'available',
    type: 'transfer',
    source: 'test',
  }));
  return { journal, entries, nonNegativeAvailable: guard };
};

describe('applyBatch (group commit of postings)', () => {
  it('applies postings in order against the running amounts; a refused one moves nothing and the next sees that', () => {
    const locked = new Map([
      [HOT, balance(HOT, 100)],
      [OTHER, balance(OTHER, 0)],
    ]);
    const { results, writes } = applyBatch(locked, [
      posting(
        [
          [HOT, -80],
          [OTHER, 80],
        ],
        [HOT],
      ),
      posting(
        [
          [HOT, -30],
          [OTHER, 30],
        ],
        [HOT],
      ),
      posting(
        [
          [HOT, -20],
          [OTHER, 20],
        ],
        [HOT],
      ),
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(results[1].short).toEqual({ balance_id: HOT, available: 20, change: -30 });
    expect(locked.get(HOT)).toMatchObject({ available: 0, chain_count: 2 });
    expect(writes.journals).toHaveLength(2);
    expect(writes.entries.map((e) => e.running_balance)).toEqual([20, 80, 0, 100]);
  });

  it('chains the entries of each balance exactly as a replay of the chain recomputes them', () => {
    const locked = new Map([
      [HOT, balance(HOT, 0)],
      [OTHER, balance(OTHER, 0)],
    ]);
    const { writes } = applyBatch(locked, [
      posting([
        [OTHER, -5],
        [HOT, 5],
      ]),
      posting([
        [HOT, -2],
        [OTHER, 1],
        [HOT, -1],
        [OTHER, 2],
      ]),
    ]);
    const rows = writes.entries.map((r) => ({
      id: r.entry.id,
      balance_id: r.entry.balance_id,
      journal_id: r.journal.id,
      amount: r.entry.amount,
      currency: r.entry.currency,
      state: r.entry.state,
      running_balance: r.running_balance,
      created_at: r.journal.now,
      chain_seq: r.chain_seq,
      entry_hash: r.entry_hash,
    }));
    for (const id of [HOT, OTHER]) {
      const replay = replayChain(rows, id, Infinity);
      expect(replay.problems).toEqual([]);
      expect(replay.count).toBe(3);
      expect(replay.last_hash).toBe(locked.get(id)!.chain_head);
    }
  });

  it("refuses a posting naming another application's balance without moving it", () => {
    const locked = new Map([
      [HOT, balance(HOT, 10)],
      [OTHER, balance(OTHER, 0)],
    ]);
    const { results, writes } = applyBatch(locked, [
      posting(
        [
          [HOT, -5],
          [OTHER, 5],
        ],
        [],
        '0193a1b2-c3d4-7e8f-9a0b-00000000a999',
      ),
    ]);
    expect(results[0]).toEqual({ ok: false, locked: [], rows: [] });
    expect(writes).toEqual({ journals: [], entries: [], balances: [] });
    expect(locked.get(HOT)!.available).toBe(10);
  });
});

describe('queued legs on hot balances (applyLegs, and guards counting queued debits)', () => {
  it('counts a balance queued debits as applied when a guarded posting debits it', () => {
    const locked = new Map([
      [HOT, { ...balance(HOT, 100), pending_debits: -70 }],
      [OTHER, balance(OTHER, 0)],
    ]);
    const { results } = applyBatch(locked, [
      posting(
        [
          [HOT, -40],
          [OTHER, 40],
        ],
        [HOT],
      ),
      posting(
        [
          [HOT, -30],
          [OTHER, 30],
        ],
        [HOT],
      ),
    ]);
    expect(results.map((r) => r.ok)).toEqual([false, true]);
    expect(results[0].short).toEqual({ balance_id: HOT, available: 30, change: -40 });
  });

  it('applies queued legs in queue order, each the next place of its chain, whatever order they are read in', () => {
    const locked = new Map([[HOT, balance(HOT, 10)]]);
    const legs = [3, 1, 2].map((seq) => {
      const p = posting([
        [HOT, seq * 100],
        [OTHER, -seq * 100],
      ]);
      return { seq, journal: p.journal, entry: p.entries[0] };
    });
    const writes = applyLegs(locked, legs);
    expect(writes.journals).toEqual([]);
    expect(writes.entries.map((e) => [e.entry.amount, e.running_balance, e.chain_seq])).toEqual([
      [100, 110, 1],
      [200, 310, 2],
      [300, 610, 3],
    ]);
    expect(locked.get(HOT)).toMatchObject({ available: 610, chain_count: 3 });
    // Each hash is the next link from the one before (the head moved along the three legs).
    expect(new Set(writes.entries.map((e) => e.entry_hash)).size).toBe(3);
    expect(locked.get(HOT)!.chain_head).toBe(writes.entries[2].entry_hash);
    expect(writes.balances).toEqual([locked.get(HOT)]);
  });

  it('throws on a leg whose balance the applier did not lock (never writes it unlocked)', () => {
    const p = posting([
      [OTHER, 5],
      [HOT, -5],
    ]);
    expect(() =>
      applyLegs(new Map([[HOT, balance(HOT, 0)]]), [{ seq: 1, journal: p.journal, entry: p.entries[0] }]),
    ).toThrow(/not locked/);
  });
});
