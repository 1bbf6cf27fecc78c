import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { auditCommands } from '../../../src/cli/commands/audit.js';
import type { CliArgs } from '../../../src/cli/command.js';
import { VerificationFailed } from '../../../src/cli/commands/statements.js';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { newId } from '../../../src/common/ids.js';
import { PartitionMaintenanceJob } from '../../../src/common/database/partitions/partition-maintenance.job.js';
import { AUDIT_EVENTS } from '../../../src/common/database/partitions/partitioned-tables.js';
import { monthStart, partitionName } from '../../../src/common/database/partitions/partitions.sql.js';
import {
  AuditRetention,
  auditHash,
  verifyCheckpoint,
  type CheckpointPayload,
} from '../../../src/modules/audit/index.js';
import { AuditRepository } from '../../../src/modules/audit/audit.repository.js';
import { StatementKeys } from '../../../src/modules/ledger/index.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';

const DAY_MS = 86_400_000;

interface ChainRow {
  id: string;
  seq: number;
  entry_hash: string;
  prev_hash: string;
  created_at: Date;
  partition: string;
}

/**
 * docs/AUDIT.md "Retention": audit rows go to the partition of their `created_at` month (on the
 * service's clock, a month not made ahead being made by its first row); retention drops a month
 * only once it ended AUDIT_RETENTION_DAYS ago, behind a signed checkpoint per chain written in the
 * drop's transaction, and `audit:verify` passes after it (a row stamped in one month that reached the
 * chain after one of the next stays covered); tampering with what is left is still found; every
 * partition refuses UPDATE, DELETE and TRUNCATE, and a month is never dropped or detached outside the
 * retention. A database of its own: dropping months must not touch other files' rows.
 */
describe('audit log: monthly partitions', () => {
  let t: TestApp;
  let platform: DataSource;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp({ rateLimit: false, ownDatabase: true });
    platform = t.app.get<DataSource>(getDataSourceToken('platform'));
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    t.clock.reset();
    await t.close();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- printed JSON, inspected field by field
  async function verify(args: CliArgs = {}): Promise<{ failed: boolean; printed: any }> {
    const printed: unknown[] = [];
    let failed = false;
    try {
      await t.app.get(RequestContext).runInMode('test', () =>
        auditCommands['audit:verify'].run({
          app: t.app,
          args,
          json: true,
          print: (value) => printed.push(JSON.parse(JSON.stringify(value))),
        }),
      );
    } catch (err) {
      if (!(err instanceof VerificationFailed)) throw err;
      failed = true;
    }
    return { failed, printed: printed[0] };
  }

  const chain = async (chainId: string): Promise<ChainRow[]> =>
    (
      (await platform.query(
        `SELECT id, chain_seq::int AS seq, entry_hash, prev_hash, created_at, tableoid::regclass::text AS partition
           FROM platform.audit_events WHERE chain_id = $1 ORDER BY chain_seq`,
        [chainId],
      )) as ChainRow[]
    ).map((r) => ({ ...r, created_at: new Date(r.created_at) }));

  const endpoint = async (n: number, of = tenant) => {
    const res = await t.http
      .post(of.path('/webhook_endpoints'))
      .set(of.as('test'))
      .send({ url: `https://hooks.example.com/${n}`, enabled_events: ['*'] });
    expect(res.status).toBe(200);
  };

  it('writes rows in their month across a boundary and drops a month only behind a signed checkpoint; verify passes', async () => {
    const retention = t.app.get(AuditRetention);
    t.clock.freeze();
    // Three months ahead: the migration made this month and the next, so the first row of each later
    // month makes its month in its own transaction.
    const boundary = monthStart(t.clock.now(), 3);
    const oldMonth = monthStart(boundary, -1);
    t.clock.advance(boundary.getTime() - 60_000 - t.clock.nowMs());
    await endpoint(1);
    await endpoint(2);
    // A row stamped a second before the boundary reaching the chain after one stamped a second after
    // it, as two writers' commits order them (a row is appended at its transaction's commit, stamped
    // when recorded): the late one is the old month's last place, the early one the next month's first.
    const repository = t.app.get(AuditRepository);
    await platform.transaction(async (manager) => {
      for (const [action, at] of [
        ['stamped.after.boundary', boundary.getTime() + 1000],
        ['stamped.before.boundary', boundary.getTime() - 1000],
      ] as const) {
        const row = {
          id: newId(),
          chain_id: tenant.applicationId,
          application_id: tenant.applicationId,
          livemode: null,
          actor_type: 'system',
          actor_id: 'test',
          action,
          target_type: 'test',
          target_id: action,
          request_id: null,
          client_address: null,
          user_agent: null,
          changes: null,
          metadata: {},
          created_at: new Date(at),
        };
        await repository.append(manager, row, (previous, seq) => auditHash(previous, { ...row, chain_seq: seq }));
      }
    });
    t.clock.advance(120_000);
    await endpoint(3);

    const rows = await chain(tenant.applicationId);
    for (const row of rows) {
      expect(row.partition).toBe(`platform.${partitionName('audit_events', monthStart(row.created_at), 'month')}`);
    }
    const old = rows.filter((r) => r.created_at >= oldMonth && r.created_at < boundary);
    const recent = rows.filter((r) => r.created_at >= boundary);
    expect(old.length).toBe(3);
    expect(recent.length).toBe(2);
    const straddler = recent[0];
    expect(straddler.seq).toBeLessThan(old[old.length - 1].seq);
    expect((await verify()).failed).toBe(false);

    const retentionDays = t.app.get(PartitionMaintenanceJob).retentionMs(AUDIT_EVENTS) / DAY_MS;
    expect(retentionDays).toBe(365);
    // Earlier months (this real month's, the tenant's first rows) may go; the old month stays.
    const first = await retention.purge(new Date(boundary.getTime() + retentionDays * DAY_MS - 1000));
    expect(first.partitions).not.toContain(partitionName('audit_events', oldMonth, 'month'));
    expect((await chain(tenant.applicationId)).filter((r) => r.created_at >= oldMonth)).toHaveLength(5);
    expect((await verify()).failed).toBe(false);
    const [{ n: checkpointsBefore }] = (await platform.query(
      `SELECT count(*)::int AS n FROM platform.audit_checkpoints WHERE chain_id = $1`,
      [tenant.applicationId],
    )) as Array<{ n: number }>;

    const second = await retention.purge(new Date(boundary.getTime() + retentionDays * DAY_MS));
    expect(second.partitions).toEqual([partitionName('audit_events', oldMonth, 'month')]);
    expect(second.rows).toBeGreaterThanOrEqual(old.length);
    const left = await chain(tenant.applicationId);
    expect(left.map((r) => r.id)).toEqual(recent.map((r) => r.id));

    const checkpoints = (await platform.query(
      `SELECT jws FROM platform.audit_checkpoints WHERE chain_id = $1 ORDER BY through_seq`,
      [tenant.applicationId],
    )) as Array<{ jws: string }>;
    expect(checkpoints).toHaveLength(checkpointsBefore + 1);
    const verified = await verifyCheckpoint(
      checkpoints[checkpoints.length - 1].jws,
      await t.app.get(StatementKeys).published(),
    );
    expect(verified.problem).toBeNull();
    const last = old[old.length - 1];
    expect(verified.payload).toMatchObject<Partial<CheckpointPayload>>({
      chain_id: tenant.applicationId,
      from_seq: old[0].seq,
      through_seq: last.seq,
      through_hash: last.entry_hash,
      removed_count: old.length,
      removed_before: boundary.toISOString(),
    });
    // The chain goes on from the checkpoint: the first row after it names its hash.
    expect(recent[1].prev_hash).toBe(last.entry_hash);
    const after = await verify();
    expect(after.failed).toBe(false);
    expect(after.printed.problems).toEqual([]);
    // Another run finds nothing more to drop.
    expect(await retention.purge(new Date(boundary.getTime() + retentionDays * DAY_MS))).toEqual({
      rows: 0,
      partitions: [],
    });

    // A row edited behind the trigger's back in the month kept is still found.
    const runner = platform.createQueryRunner();
    try {
      await runner.query(`SET session_replication_role = replica`);
      await runner.query(`UPDATE platform.audit_events SET actor_id = 'someone-else' WHERE id = $1`, [recent[1].id]);
    } finally {
      await runner.query(`SET session_replication_role = origin`);
      await runner.release();
    }
    const tampered = await verify({ app: tenant.applicationId });
    expect(tampered.failed).toBe(true);
    expect(tampered.printed.problems).toEqual([
      expect.objectContaining({ row_id: recent[1].id, problem: expect.stringContaining('was changed') }),
    ]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE on every partition, and DROP or DETACH of a month outside retention', async () => {
    // The first test's tenant has a row edited behind the trigger: this one's chain is whole.
    const other = await createTenant(t);
    await endpoint(4, other);
    // A month the maintenance job makes ahead gets its own TRUNCATE refusal too.
    const made = await t.app
      .get(PartitionMaintenanceJob)
      .ensureAhead(new Date('2093-03-15T12:00:00Z'), undefined, [AUDIT_EVENTS]);
    expect(made.audit_events[0]).toEqual(['audit_events_y2093m03', 'audit_events_y2093m04', 'audit_events_y2093m05']);
    const partitions = (
      (await platform.query(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'platform.audit_events'::regclass ORDER BY 1`,
      )) as Array<{ name: string }>
    ).map((r) => r.name);
    expect(partitions).toEqual(expect.arrayContaining(made.audit_events[0]));
    const [{ count }] = (await platform.query(`SELECT count(*)::int AS count FROM platform.audit_events`)) as Array<{
      count: number;
    }>;
    let withRows = 0;
    for (const p of partitions) {
      // The row trigger fires per row: UPDATE and DELETE are checked where the month holds rows.
      const [{ n }] = (await platform.query(`SELECT count(*)::int AS n FROM platform.${p}`)) as Array<{ n: number }>;
      if (n > 0) {
        withRows += 1;
        await expect(platform.query(`UPDATE platform.${p} SET action = 'x'`)).rejects.toThrow(/append-only/);
        await expect(platform.query(`DELETE FROM platform.${p}`)).rejects.toThrow(/append-only/);
      }
      await expect(platform.query(`TRUNCATE platform.${p}`)).rejects.toThrow(/append-only/);
      await expect(platform.query(`ALTER TABLE platform.audit_events DETACH PARTITION platform.${p}`)).rejects.toThrow(
        /append-only: DETACH/,
      );
      await expect(platform.query(`DROP TABLE platform.${p}`)).rejects.toThrow(/append-only: DROP/);
    }
    expect(withRows).toBeGreaterThan(0);
    await expect(platform.query(`TRUNCATE platform.audit_events`)).rejects.toThrow(/append-only/);
    await expect(platform.query(`DROP TABLE platform.audit_events`)).rejects.toThrow(/append-only: DROP/);
    expect(
      (await platform.query(`SELECT count(*)::int AS count FROM platform.audit_events`)) as Array<{ count: number }>,
    ).toEqual([{ count }]);
    expect((await verify({ app: other.applicationId })).failed).toBe(false);
  });
});
