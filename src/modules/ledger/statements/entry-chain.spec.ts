import { createHash } from 'node:crypto';
import { canonicalEntryLine, entryHash, GENESIS_HASH, replayChain, type ChainEntry } from './entry-chain.js';
import { verifyStatement } from './statement-verify.js';

const entry = (seq: number, amount: number, running: number, state = 'available'): ChainEntry => ({
  id: `0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a${String(seq).padStart(2, '0')}`,
  balance_id: '0193A1B2-C3D4-7E8F-9A0B-1C2D3E4F5A6B',
  journal_id: '0193a1b2-c3d4-7e8f-9a0b-000000000001',
  amount,
  currency: 'THB',
  state,
  running_balance: running,
  created_at: '2026-11-01T07:00:00.120+07:00',
  chain_seq: seq,
});

describe('the ledger entry hash chain', () => {
  it('writes the canonical line documented in docs/LEDGER.md', () => {
    expect(canonicalEntryLine(GENESIS_HASH, entry(1, -2500, -2500))).toBe(
      `wallet-ledger-entry-v1|${'0'.repeat(64)}|1|0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a01|` +
        '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b|0193a1b2-c3d4-7e8f-9a0b-000000000001|-2500|THB|available|-2500|' +
        '2026-11-01T00:00:00.120Z',
    );
  });

  it('hashes the line with SHA-256 in lower-case hex, the same for numbers given as strings', () => {
    const line = canonicalEntryLine(GENESIS_HASH, entry(1, 100, 100));
    expect(entryHash(GENESIS_HASH, entry(1, 100, 100))).toBe(createHash('sha256').update(line).digest('hex'));
    expect(
      entryHash(GENESIS_HASH, { ...entry(1, 100, 100), amount: '100', running_balance: '100', chain_seq: '1' }),
    ).toBe(entryHash(GENESIS_HASH, entry(1, 100, 100)));
    expect(entryHash(GENESIS_HASH, entry(1, 100, 100))).not.toBe(entryHash(GENESIS_HASH, entry(1, 101, 101)));
    expect(entryHash(GENESIS_HASH, entry(1, 100, 100))).not.toBe(entryHash(GENESIS_HASH, entry(1, 100, 100, 'hold')));
    expect(entryHash(GENESIS_HASH, entry(1, 100, 100))).not.toBe(entryHash('1'.repeat(64), entry(1, 100, 100)));
  });

  it('replays a chain in place order from any order, and sums what it covers', () => {
    const chain = [entry(1, 100, 100), entry(2, 50, 150, 'hold'), entry(3, -30, 120)];
    const h1 = entryHash(GENESIS_HASH, chain[0]);
    const h2 = entryHash(h1, chain[1]);
    expect(replayChain([chain[2], chain[0], chain[1]], chain[0].balance_id.toLowerCase(), 2)).toEqual({
      count: 2,
      last_entry_id: chain[1].id,
      last_hash: h2,
      available: 100,
      pending: 50,
      problems: [],
    });
    expect(replayChain(chain, chain[0].balance_id, 3).last_hash).toBe(entryHash(h2, chain[2]));
    expect(replayChain([], chain[0].balance_id, 0)).toMatchObject({ count: 0, last_hash: GENESIS_HASH });
  });

  it('reports a missing place and a running balance that does not follow', () => {
    expect(replayChain([entry(1, 100, 100), entry(3, 5, 105)], entry(1, 0, 0).balance_id, 3).problems).toEqual([
      'place 2 of the chain is missing or repeated (found 3)',
    ]);
    expect(replayChain([entry(1, 100, 100), entry(2, 5, 106)], entry(1, 0, 0).balance_id, 2).problems).toEqual([
      `entry ${entry(2, 0, 0).id}: running_balance 106, the entries sum to 105`,
    ]);
  });

  it('refuses what is not a compact JWS', async () => {
    await expect(verifyStatement('nope', { keys: [] })).resolves.toMatchObject({
      valid: false,
      problems: ['not a JWS in compact serialization'],
    });
  });
});
