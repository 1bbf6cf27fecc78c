import { AUDIT_GENESIS, auditHash, checkAuditHead, replayAuditChain, type ChainedAuditRow } from './audit-chain.js';

const CHAIN = '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b';

function chainOf(n: number): ChainedAuditRow[] {
  const rows: ChainedAuditRow[] = [];
  let previous = AUDIT_GENESIS;
  for (let i = 1; i <= n; i++) {
    const row = {
      id: `0193a1b2-c3d4-7e8f-9a0b-${String(i).padStart(12, '0')}`,
      chain_id: CHAIN,
      chain_seq: i,
      application_id: CHAIN,
      livemode: false,
      actor_type: 'secret_key',
      actor_id: 'key-1',
      action: 'webhook_endpoint.updated',
      target_type: 'webhook_endpoint',
      target_id: `we-${i}`,
      request_id: `req-${i}`,
      client_address: '192.0.2.1',
      user_agent: 'ua|with|bars',
      changes: { before: { url: 'a', b: 1 }, after: { b: 2, url: 'b' } },
      metadata: {},
      created_at: new Date(Date.UTC(2026, 10, 29, 0, 0, i)),
    };
    const entry_hash = auditHash(previous, row);
    rows.push({ ...row, prev_hash: previous, entry_hash });
    previous = entry_hash;
  }
  return rows;
}

describe('audit hash chain', () => {
  it('hashes the same row the same whatever the key order of its JSON (jsonb keeps none)', () => {
    const [row] = chainOf(1);
    const reordered = { ...row, changes: { after: { url: 'b', b: 2 }, before: { b: 1, url: 'a' } } };
    expect(auditHash(AUDIT_GENESIS, reordered)).toBe(row.entry_hash);
    expect(auditHash(AUDIT_GENESIS, { ...row, user_agent: 'ua|with', actor_id: 'bars|key-1' })).not.toBe(
      row.entry_hash,
    );
  });

  it('replays an intact chain in batches and ends at its head', () => {
    const rows = chainOf(6);
    const first = replayAuditChain(CHAIN, rows.slice(0, 3), { seq: 0, hash: AUDIT_GENESIS });
    const second = replayAuditChain(CHAIN, rows.slice(3), first.end);
    expect([...first.problems, ...second.problems]).toEqual([]);
    expect(checkAuditHead(CHAIN, second.end, { seq: 6, hash: rows[5].entry_hash })).toBeNull();
  });

  it('names an edited row, and the row after a replaced one', () => {
    const rows = chainOf(4);
    rows[1] = { ...rows[1], actor_id: 'someone-else' };
    expect(replayAuditChain(CHAIN, rows, { seq: 0, hash: AUDIT_GENESIS }).problems).toEqual([
      expect.objectContaining({ row_id: rows[1].id, chain_seq: 2, problem: expect.stringContaining('was changed') }),
    ]);
    const replaced = chainOf(4);
    const forged = { ...replaced[1], actor_id: 'someone-else' };
    replaced[1] = { ...forged, entry_hash: auditHash(forged.prev_hash, forged) };
    expect(replayAuditChain(CHAIN, replaced, { seq: 0, hash: AUDIT_GENESIS }).problems).toEqual([
      expect.objectContaining({
        row_id: replaced[2].id,
        problem: expect.stringContaining(`row ${replaced[1].id} was changed or replaced`),
      }),
    ]);
  });

  it('names the place of a deleted row and its neighbours, and a deleted last row by the head', () => {
    const rows = chainOf(5);
    const replay = replayAuditChain(CHAIN, [rows[0], rows[1], rows[3], rows[4]], { seq: 0, hash: AUDIT_GENESIS });
    expect(replay.problems[0]).toMatchObject({ row_id: null, chain_seq: 3 });
    expect(replay.problems[0].problem).toContain(
      `place 3 missing: deleted between row ${rows[1].id} and row ${rows[3].id}`,
    );
    const tail = replayAuditChain(CHAIN, rows.slice(0, 4), { seq: 0, hash: AUDIT_GENESIS });
    expect(tail.problems).toEqual([]);
    expect(checkAuditHead(CHAIN, tail.end, { seq: 5, hash: rows[4].entry_hash })).toMatchObject({
      chain_seq: 5,
      problem: expect.stringContaining('place 5 missing'),
    });
  });
});
