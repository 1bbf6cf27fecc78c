import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { AuditPartitions1764502800000 } from '../../../migrations/1764502800000-AuditPartitions.js';
import { AUDIT_GENESIS } from '../../../src/modules/audit/audit-chain.js';
import { auditHash, replayAuditChain, type ChainedAuditRow } from '../../../src/modules/audit/index.js';
import { migratedBefore, migratedThrough, migrationDatabase } from '../../support/migration-database.js';

const CHAINS = ['00000000-0000-7000-8000-00000000000a', '00000000-0000-7000-8000-00000000000b'];
const COLUMNS =
  'id, chain_id, chain_seq, application_id, livemode, actor_type, actor_id, action, target_type, target_id, request_id, client_address, user_agent, changes, metadata, created_at, prev_hash, entry_hash';

/**
 * docs/AUDIT.md "Retention", migration AuditPartitions: a database with two applications' audit
 * chains over three past months and this one upgrades in place: every row is kept (counts per chain
 * and month equal before and after), each sits in its month's partition, each chain still replays
 * from genesis to its head, and the table and every partition stay append-only. On this run's engine
 * (a database of its own on PostgreSQL, an in-memory embedded one otherwise).
 */
describe('audit partitioning migration', () => {
  const db = migrationDatabase();

  const count = (ds: DataSource) =>
    ds.query(
      `SELECT chain_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date::text AS month, count(*)::int AS n
         FROM platform.audit_events GROUP BY 1, 2 ORDER BY 1, 2`,
    ) as Promise<Array<{ chain_id: string; month: string; n: number }>>;

  it('moves every audit row into its month, the chains still replay, and append-only holds', async () => {
    const now = new Date();
    const months = [-3, -2, -1, 0].map((k) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1)));
    const counted = await migratedBefore(db.url(), AuditPartitions1764502800000, async (before) => {
      for (const [c, chainId] of CHAINS.entries()) {
        let previous = AUDIT_GENESIS;
        let seq = 0;
        for (const month of months) {
          for (let i = 1; i <= 30 + 7 * c; i++) {
            seq += 1;
            const row = {
              id: crypto.randomUUID(),
              chain_id: chainId,
              chain_seq: seq,
              application_id: chainId,
              livemode: i % 2 === 0,
              actor_type: 'system',
              actor_id: 'migration-test',
              action: 'customer.created',
              target_type: 'customer',
              target_id: `cus_${seq}`,
              request_id: null,
              client_address: null,
              user_agent: null,
              changes: null,
              metadata: { n: i },
              created_at: new Date(month.getTime() + i * 3600_000),
            };
            const entryHash = auditHash(previous, row);
            await before.query(
              `INSERT INTO platform.audit_events (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
              [
                row.id,
                row.chain_id,
                row.chain_seq,
                row.application_id,
                row.livemode,
                row.actor_type,
                row.actor_id,
                row.action,
                row.target_type,
                row.target_id,
                null,
                null,
                null,
                null,
                JSON.stringify(row.metadata),
                row.created_at,
                previous,
                entryHash,
              ],
            );
            previous = entryHash;
          }
        }
        await before.query(`INSERT INTO platform.audit_chain_heads (chain_id, seq, hash) VALUES ($1, $2, $3)`, [
          chainId,
          seq,
          previous,
        ]);
      }
      const rows = await count(before);
      expect(rows).toHaveLength(8);
      return rows;
    });

    await migratedThrough(db.url(), AuditPartitions1764502800000, async (after) => {
      expect(await count(after)).toEqual(counted);
      const [{ kind }] = (await after.query(
        `SELECT relkind AS kind FROM pg_class WHERE oid = 'platform.audit_events'::regclass`,
      )) as Array<{ kind: string }>;
      expect(kind).toBe('p');
      const [{ misplaced }] = (await after.query(
        `SELECT count(*)::int AS misplaced FROM platform.audit_events
          WHERE tableoid::regclass::text <> 'platform.audit_events_y' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY"m"MM')`,
      )) as Array<{ misplaced: number }>;
      expect(misplaced).toBe(0);
      for (const chainId of CHAINS) {
        const rows = (await after.query(
          `SELECT ${COLUMNS} FROM platform.audit_events WHERE chain_id = $1 ORDER BY chain_seq`,
          [chainId],
        )) as ChainedAuditRow[];
        const replay = replayAuditChain(chainId, rows, { seq: 0, hash: AUDIT_GENESIS });
        expect(replay.problems).toEqual([]);
        const [head] = (await after.query(
          `SELECT seq::int AS seq, hash FROM platform.audit_chain_heads WHERE chain_id = $1`,
          [chainId],
        )) as Array<{ seq: number; hash: string }>;
        expect(replay.end).toMatchObject(head);
      }
      const oldest = `platform.audit_events_y${months[0].getUTCFullYear()}m${String(months[0].getUTCMonth() + 1).padStart(2, '0')}`;
      await expect(after.query(`DELETE FROM ${oldest}`)).rejects.toThrow(/append-only/);
      await expect(after.query(`TRUNCATE ${oldest}`)).rejects.toThrow(/append-only/);
      await expect(after.query(`DROP TABLE ${oldest}`)).rejects.toThrow(/append-only/);
      expect(await count(after)).toEqual(counted);
    });
  });
});
