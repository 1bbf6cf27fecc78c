import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { auditCommands } from '../../../src/cli/commands/audit.js';
import type { AuditAction } from '../../../src/common/audit/audit-actions.js';
import type { CliArgs } from '../../../src/cli/command.js';
import { VerificationFailed } from '../../../src/cli/commands/statements.js';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { ApplicationsService } from '../../../src/modules/applications/index.js';
import { AuditBurstJob, AuditService, PLATFORM_CHAIN } from '../../../src/modules/audit/index.js';
import { createClient, createUser, tokensFor, type TestUser } from '../../factories/auth.js';
import { chargeOffSession, customerWithCard } from '../../factories/payment-methods.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

interface Row {
  id: string;
  action: string;
  actor: { type: string; id: string | null };
  target: { type: string; id: string | null };
  livemode: boolean | null;
  request_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  changes: { before: Record<string, unknown> | null; after: Record<string, unknown> | null } | null;
  metadata: Record<string, unknown>;
  created_at: string;
  chain: { seq: number; prev_hash: string; entry_hash: string };
}

/**
 * Issue 37 part 3, "Done when" (audit line): a scripted day leaves exactly the expected audit rows
 * with their actors; a row deleted or edited behind the trigger's back makes `audit:verify` fail
 * and name it; owners and admins read the log (filters, cursor, export), other roles get E1241.
 */
describe('audit log', () => {
  let t: TestApp;
  let platform: DataSource;

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    platform = t.app.get<DataSource>(getDataSourceToken('platform'));
  });
  afterAll(() => t.close());

  /** Runs a CLI command in this app, as an operator would, and answers its JSON (or the failure and its JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- printed JSON, inspected field by field
  async function cli(name: string, args: CliArgs): Promise<{ failed: boolean; printed: any }> {
    const printed: unknown[] = [];
    let failed = false;
    try {
      await t.app.get(RequestContext).runInMode('test', () =>
        auditCommands[name].run({
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

  async function ownerToken(tenant: Tenant, role = 'owner'): Promise<string> {
    return (await owner(tenant, role)).token;
  }

  async function owner(tenant: Tenant, role = 'owner'): Promise<{ user: TestUser; token: string }> {
    const user = await createUser(t, { member: tenant, role });
    return { user, token: (await tokensFor(t, user)).access_token };
  }

  const bearer = (tenant: Tenant, token: string, extra: Record<string, string> = {}) => ({
    Authorization: `Bearer ${token}`,
    'X-Test-Mode': 'true',
    ...extra,
  });

  async function allRows(tenant: Tenant, token: string): Promise<Row[]> {
    const rows: Row[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await t.http
        .get(tenant.path('/audit_events'))
        .query({
          'use-cursor': 'true',
          limit: 100,
          sort: 'created_at:asc',
          ...(after ? { starting_after: after } : {}),
        })
        .set(bearer(tenant, token));
      expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
      rows.push(...(res.body.data as Row[]));
      if (!res.body.has_more) return rows;
      after = rows[rows.length - 1].id;
    }
  }

  /** As a superuser would, bypassing the append-only trigger for this session only. */
  async function tamper(sql: string, params: unknown[]): Promise<void> {
    const runner = platform.createQueryRunner();
    try {
      await runner.query(`SET session_replication_role = replica`);
      await runner.query(sql, params);
    } finally {
      await runner.query(`SET session_replication_role = origin`);
      await runner.release();
    }
  }

  it('records a scripted day: exactly the expected rows, each with its actor, request and chain', async () => {
    const tenant = await createTenant(t);
    const token = await ownerToken(tenant);
    const key = tenant.as('test', { 'User-Agent': 'audit-day/1.0' });

    // Keys created and revoked (the operator's CLI work).
    const apps = t.app.get(ApplicationsService);
    const extra = await t.app.get(RequestContext).runInMode('test', () => apps.createKey(tenant.slug, 'test'), {
      operator: 'ops-alice',
    });
    await t.app.get(RequestContext).runInMode('test', () => apps.revokeKey(extra.prefix), { operator: 'ops-alice' });

    // A webhook endpoint created, changed and its secret rotated.
    const endpoint = await t.http
      .post(tenant.path('/webhook_endpoints'))
      .set(key)
      .send({ url: 'https://hooks.example.com/wallet', enabled_events: ['charge.succeeded'] });
    expect(endpoint.status).toBe(200);
    const updated = await t.http
      .post(tenant.path(`/webhook_endpoints/${endpoint.body.id}`))
      .set(key)
      .send({ description: 'ledger sync' });
    expect(updated.status).toBe(200);
    const rotated = await t.http.post(tenant.path(`/webhook_endpoints/${endpoint.body.id}/rotate_secret`)).set(key);
    expect(rotated.status).toBe(200);

    // 100 payments and a refund.
    const { customer, paymentMethod } = await customerWithCard(t, tenant);
    const payments: string[] = [];
    for (let i = 0; i < 100; i++) {
      const paid = await chargeOffSession(t, tenant, customer.id, paymentMethod.id, { amount: 1000 + i });
      expect({ status: paid.status, body: paid.body }).toMatchObject({ status: 200, body: { status: 'succeeded' } });
      payments.push(paid.body.id);
    }
    const charges = await t.http.get(tenant.path('/charges')).query({ limit: 1 }).set(key);
    const refund = await t.http
      .post(tenant.path('/refunds'))
      .set(key)
      .send({ charge_id: charges.body.data[0].id, amount: 500 });
    expect(refund.status).toBe(200);

    // A failed sign-in burst from one address with one key prefix: one row, not one per attempt.
    const wrong = `Basic ${Buffer.from(`${tenant.keys.test.slice(0, -6)}AAAAAA:`).toString('base64')}`;
    for (let i = 0; i < 7; i++) {
      const res = await t.http.get(tenant.path('/customers')).set({ ...key, Authorization: wrong });
      expect([401, 429]).toContain(res.status);
    }
    t.clock.advance(120_000);
    await t.app.get(AuditBurstJob).flush(t.clock.nowMs());

    const rows = await allRows(tenant, token);
    const chain = [...rows].sort((a, b) => a.chain.seq - b.chain.seq);
    const actions = chain.map((r) => r.action);
    const [{ id: keyId }]: Array<{ id: string }> = await platform.query(
      `SELECT id FROM platform.api_keys WHERE application_id = $1 AND mode = 'test' ORDER BY created_at LIMIT 1`,
      [tenant.applicationId],
    );

    // Every event the day's requests recorded, and only those, has its row (same action, same target).
    const events: Array<{ type: string; object_id: string }> = await platform.query(
      `SELECT type, data->'object'->>'id' AS object_id FROM wallet_test.events
        WHERE application_id = $1 AND request IS NOT NULL`,
      [tenant.applicationId],
    );
    const eventTypes = new Set(events.map((e) => e.type));
    const eventRows = chain.filter((r) => eventTypes.has(r.action));
    expect(eventRows.map((r) => `${r.action} ${r.target.id}`).sort()).toEqual(
      events.map((e) => `${e.type} ${e.object_id}`).sort(),
    );
    expect(
      eventRows
        .filter((r) => r.action === 'payment_intent.succeeded')
        .map((r) => r.target.id)
        .sort(),
    ).toEqual([...payments].sort());
    expect(eventRows.filter((r) => r.action.startsWith('refund.'))).not.toHaveLength(0);
    for (const r of eventRows) {
      expect(r.actor.type === 'session' || (r.actor.type === 'secret_key' && r.actor.id === keyId)).toBe(true);
      expect(r.request_id).toEqual(expect.any(String));
    }

    // The objects the day made that record no event (docs/AUDIT.md, "Rows by route"): one row each,
    // the 100 payment intents by their ids.
    const objectActions = new Set(['customer.created', 'checkout.created', 'token.created', 'payment_intent.created']);
    const objectRows = chain.filter((r) => objectActions.has(r.action));
    const counts: Record<string, number> = {};
    for (const r of objectRows) counts[r.action] = (counts[r.action] ?? 0) + 1;
    expect(counts).toEqual({
      'customer.created': 1,
      'checkout.created': 1,
      'token.created': 1,
      'payment_intent.created': 100,
    });
    expect(
      objectRows
        .filter((r) => r.action === 'payment_intent.created')
        .map((r) => r.target.id)
        .sort(),
    ).toEqual([...payments].sort());
    for (const r of objectRows) expect(r.request_id).toEqual(expect.any(String));

    // The security and configuration rows, exactly, in chain order.
    const security = chain
      .filter((r) => !eventTypes.has(r.action) && !objectActions.has(r.action))
      .map((r) => [r.action, r.actor.type, r.actor.id]);
    expect(security).toEqual([
      ['api_key.created', 'system', null],
      ['api_key.created', 'system', null],
      ['application.created', 'system', null],
      ['membership.created', 'system', null],
      ['api_key.created', 'cli', 'ops-alice'],
      ['api_key.revoked', 'cli', 'ops-alice'],
      ['webhook_endpoint.created', 'secret_key', keyId],
      ['webhook_endpoint.updated', 'secret_key', keyId],
      ['webhook_endpoint.secret_rotated', 'secret_key', keyId],
      ['authentication.failed_burst', 'anonymous', null],
    ]);
    expect(actions.filter((a) => a === 'authentication.failed_burst')).toHaveLength(1);

    const burst = rows.find((r) => r.action === 'authentication.failed_burst')!;
    expect(burst).toMatchObject({
      target: { type: 'credential', id: tenant.keys.test.slice(0, 20) },
      metadata: { failures: 7, client_address: expect.any(String) },
    });
    const rotation = rows.find((r) => r.action === 'webhook_endpoint.secret_rotated')!;
    expect(rotation).toMatchObject({
      request_id: expect.any(String),
      client_address: expect.any(String),
      user_agent: 'audit-day/1.0',
      livemode: false,
      changes: null,
      metadata: { overlap_until: expect.any(String) },
    });
    const change = rows.find((r) => r.action === 'webhook_endpoint.updated')!;
    expect(change.changes).toEqual({ before: { description: null }, after: { description: 'ledger sync' } });
    // Secrets never: no whsec_ or sk_ key anywhere in the log.
    const text = JSON.stringify(rows);
    expect(text).not.toMatch(/whsec_/);
    expect(text).not.toContain(tenant.keys.test);
    expect(text).not.toContain(extra.key);

    // One chain, places 1..n in order, each naming the previous hash.
    chain.forEach((r, i) => {
      expect(r.chain.seq).toBe(i + 1);
      if (i > 0) expect(r.chain.prev_hash).toBe(chain[i - 1].chain.entry_hash);
    });
    expect((await cli('audit:verify', { app: tenant.applicationId })).failed).toBe(false);
  }, 300_000);

  it('writes one row per change: none for a replayed Idempotency-Key, a refused call or a change of nothing', async () => {
    const tenant = await createTenant(t);
    const rowsOf = (
      requestId: string,
    ): Promise<Array<{ action: string; target_id: string; metadata: object; changes: unknown }>> =>
      platform.query(`SELECT action, target_id, metadata, changes FROM platform.audit_events WHERE request_id = $1`, [
        requestId,
      ]);
    const rowsFor = (targetId: string): Promise<Array<{ action: string }>> =>
      platform.query(`SELECT action FROM platform.audit_events WHERE application_id = $1 AND target_id = $2`, [
        tenant.applicationId,
        targetId,
      ]);

    const keyed = tenant.as('test', { 'Idempotency-Key': 'audit-replay-customer' });
    const first = await t.http.post(tenant.path('/customers')).set(keyed).send({ name: 'Audited' });
    const replay = await t.http.post(tenant.path('/customers')).set(keyed).send({ name: 'Audited' });
    expect([first.status, replay.status, replay.headers['idempotent-replayed']]).toEqual([200, 200, 'true']);
    expect(replay.body.id).toBe(first.body.id);
    expect(await rowsOf(first.headers['x-request-id'])).toEqual([
      expect.objectContaining({ action: 'customer.created', target_id: first.body.id }),
    ]);
    expect(await rowsOf(replay.headers['x-request-id'])).toEqual([]);
    expect(await rowsFor(first.body.id)).toEqual([{ action: 'customer.created' }]);

    // A customer is personal data: the row names the fields changed, never their values.
    const renamed = await t.http
      .post(tenant.path(`/customers/${first.body.id}`))
      .set(tenant.as('test'))
      .send({ name: 'Renamed', email: 'renamed@example.com' });
    expect(renamed.status).toBe(200);
    const [update] = await rowsOf(renamed.headers['x-request-id']);
    expect(update).toMatchObject({
      action: 'customer.updated',
      metadata: { fields: ['email', 'name'] },
      changes: null,
    });
    expect(JSON.stringify(update)).not.toContain('renamed@example.com');
    const nothing = await t.http
      .post(tenant.path(`/customers/${first.body.id}`))
      .set(tenant.as('test'))
      .send({});
    expect(nothing.status).toBe(200);
    expect(await rowsOf(nothing.headers['x-request-id'])).toEqual([]);

    // A meter whose event name is taken: the insert fails in the transaction, which leaves no row.
    const meter = { display_name: 'Calls', event_name: 'audit_calls', value_settings: { event_payload_key: 'n' } };
    const made = await t.http.post(tenant.path('/meters')).set(tenant.as('test')).send(meter);
    const taken = await t.http.post(tenant.path('/meters')).set(tenant.as('test')).send(meter);
    expect([made.status, taken.body.code]).toEqual([200, 'E8010']);
    expect((await rowsOf(made.headers['x-request-id'])).map((r) => r.action)).toEqual(['billing.meter.created']);
    expect(await rowsOf(taken.headers['x-request-id'])).toEqual([]);
  });

  /** A tenant with a few audited changes: three webhook endpoints made, one changed. */
  async function tenantWithRows(): Promise<{ tenant: Tenant; user: TestUser; token: string; rows: Row[] }> {
    const tenant = await createTenant(t);
    const { user, token } = await owner(tenant);
    const key = tenant.as('test');
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await t.http
        .post(tenant.path('/webhook_endpoints'))
        .set(key)
        .send({ url: `https://hooks.example.com/${n}`, enabled_events: ['*'] });
      expect(res.status).toBe(200);
      ids.push(res.body.id);
    }
    await t.http
      .post(tenant.path(`/webhook_endpoints/${ids[0]}`))
      .set(key)
      .send({ disabled: true });
    return { tenant, user, token, rows: (await allRows(tenant, token)).sort((a, b) => a.chain.seq - b.chain.seq) };
  }

  it('refuses UPDATE, DELETE and TRUNCATE of audit rows in the database', async () => {
    const { tenant } = await tenantWithRows();
    for (const sql of [
      `UPDATE platform.audit_events SET action = 'x' WHERE application_id = $1`,
      `DELETE FROM platform.audit_events WHERE application_id = $1`,
    ]) {
      await expect(platform.query(sql, [tenant.applicationId])).rejects.toThrow(/append-only/);
    }
    await expect(platform.query(`TRUNCATE platform.audit_events`)).rejects.toThrow(/append-only/);
    expect((await cli('audit:verify', { app: tenant.applicationId })).failed).toBe(false);
  });

  it('fails audit:verify naming the row edited behind the trigger, and the place of a deleted one', async () => {
    const edited = await tenantWithRows();
    const victim = edited.rows[5];
    await tamper(`UPDATE platform.audit_events SET actor_id = 'someone-else' WHERE id = $1`, [victim.id]);
    const afterEdit = await cli('audit:verify', { app: edited.tenant.applicationId });
    expect(afterEdit.failed).toBe(true);
    expect(afterEdit.printed.problems).toEqual([
      expect.objectContaining({
        row_id: victim.id,
        chain_seq: victim.chain.seq,
        problem: expect.stringContaining('was changed'),
      }),
    ]);

    const deleted = await tenantWithRows();
    const gone = deleted.rows[4];
    await tamper(`DELETE FROM platform.audit_events WHERE id = $1`, [gone.id]);
    const afterDelete = await cli('audit:verify', { app: deleted.tenant.applicationId });
    expect(afterDelete.failed).toBe(true);
    expect(afterDelete.printed.problems[0]).toMatchObject({
      chain_seq: gone.chain.seq,
      problem: expect.stringContaining(`place ${gone.chain.seq} missing`),
    });
    expect(afterDelete.printed.problems[0].problem).toContain(deleted.rows[3].id);
    expect(afterDelete.printed.problems[0].problem).toContain(deleted.rows[5].id);

    // The last row deleted, with the head left alone: the head names the missing place.
    const tail = await tenantWithRows();
    const last = tail.rows[tail.rows.length - 1];
    await tamper(`DELETE FROM platform.audit_events WHERE id = $1`, [last.id]);
    const afterTail = await cli('audit:verify', { app: tail.tenant.applicationId });
    expect(afterTail.failed).toBe(true);
    expect(afterTail.printed.problems).toEqual([
      expect.objectContaining({ chain_seq: last.chain.seq, problem: expect.stringContaining('missing') }),
    ]);
  });

  it('lists for owners and admins with filters and a cursor, exports JSON lines, and refuses other roles with E1241', async () => {
    const { tenant, token, rows } = await tenantWithRows();
    const created = rows.filter((r) => r.action === 'webhook_endpoint.created');
    expect(created).toHaveLength(3);

    const filtered = await t.http
      .get(tenant.path('/audit_events'))
      .query({ 'filter[action]': 'webhook_endpoint.created', 'use-cursor': 'true', limit: 2 })
      .set(bearer(tenant, token));
    expect(filtered.status).toBe(200);
    expect(filtered.body).toMatchObject({ object: 'list', has_more: true });
    expect(filtered.body.data.map((r: Row) => r.id)).toEqual([created[2].id, created[1].id]);
    const next = await t.http
      .get(tenant.path('/audit_events'))
      .query({
        'filter[action]': 'webhook_endpoint.created',
        'use-cursor': 'true',
        limit: 2,
        starting_after: created[1].id,
      })
      .set(bearer(tenant, token));
    expect(next.body.data.map((r: Row) => r.id)).toEqual([created[0].id]);
    expect(next.body.has_more).toBe(false);

    const byTarget = await t.http
      .get(tenant.path('/audit_events'))
      .query({ 'filter[target_id]': created[0].target.id })
      .set(bearer(tenant, token));
    expect(byTarget.body.data.map((r: Row) => r.action).sort()).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.updated',
    ]);
    const [keyRow] = rows.filter((r) => r.actor.type === 'secret_key');
    const byActor = await t.http
      .get(tenant.path('/audit_events'))
      .query({ 'filter[actor_id]': keyRow.actor.id!, 'filter[created_at][gte]': rows[0].created_at })
      .set(bearer(tenant, token));
    expect(byActor.body.data).toHaveLength(4);

    const exported = await t.http.get(tenant.path('/audit_events/export')).set(bearer(tenant, token));
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = (exported.text ?? exported.body.toString())
      .trim()
      .split('\n')
      .map((l: string) => JSON.parse(l));
    expect(lines.map((r: Row) => r.id)).toEqual(rows.map((r) => r.id));

    const admin = await ownerToken(tenant, 'admin');
    expect((await t.http.get(tenant.path('/audit_events')).set(bearer(tenant, admin))).status).toBe(200);
    const developer = await ownerToken(tenant, 'developer');
    const refused = await t.http.get(tenant.path('/audit_events')).set(bearer(tenant, developer));
    expect(refused.status).toBe(403);
    expectErrorObject(refused.body, 'E1241');
    const refusedExport = await t.http.get(tenant.path('/audit_events/export')).set(bearer(tenant, developer));
    expect(refusedExport.status).toBe(403);
    expectErrorObject(refusedExport.body, 'E1241');
    // Secret keys are machines: the audit log is for people (and the permission table, issue 37 part 1).
    const byKey = await t.http.get(tenant.path('/audit_events')).set(tenant.as('test'));
    expect(byKey.status).toBe(401);
    expect(byKey.body.code).toMatch(/^E12/);
  });

  it('writes at commit: a change rolled back (or its savepoint) leaves no row and the head untouched', async () => {
    const tenant = await createTenant(t);
    const audit = t.app.get(AuditService);
    const entry = (action: string) => ({
      applicationId: tenant.applicationId,
      // Labels of the rows under test, not actions of the catalog: the recorder writes any it is given.
      action: action as AuditAction,
      target: { type: 'test', id: action },
      actor: { type: 'system' as const, id: 'test' },
    });
    const head = async () =>
      (
        (await platform.query(`SELECT seq::int AS seq, hash FROM platform.audit_chain_heads WHERE chain_id = $1`, [
          tenant.applicationId,
        ])) as Array<{ seq: number; hash: string }>
      )[0];
    const before = await head();
    await expect(
      platform.transaction(async (manager) => {
        await audit.record(manager, entry('rolled.back'));
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    // A savepoint rolled back drops its row; the enclosing transaction's row stays.
    await platform.transaction(async (manager) => {
      await audit.record(manager, entry('kept'));
      await manager
        .transaction(async (inner) => {
          await audit.record(inner, entry('savepoint.rolled.back'));
          throw new Error('inner fails');
        })
        .catch(() => undefined);
    });
    const actionsAfter = async () =>
      (
        (await platform.query(`SELECT action FROM platform.audit_events WHERE chain_id = $1 ORDER BY chain_seq`, [
          tenant.applicationId,
        ])) as Array<{ action: string }>
      ).map((r) => r.action);
    expect((await actionsAfter()).slice(-1)).toEqual(['kept']);
    expect((await head()).seq).toBe(before.seq + 1);

    expect((await cli('audit:verify', { app: tenant.applicationId })).failed).toBe(false);
  });

  // PostgreSQL only: the embedded PGlite is one backend session (one transaction at a time), so no two can wait on each other.
  (process.env.WALLET_TEST_DATABASE === 'postgresql' ? it : it.skip)(
    'takes the chain head last: two writers that would deadlock on it at record time both commit',
    async () => {
      const tenant = await createTenant(t);
      const audit = t.app.get(AuditService);
      const entry = (action: string) => ({
        applicationId: tenant.applicationId,
        action: action as AuditAction,
        target: { type: 'test', id: action },
        actor: { type: 'system' as const, id: 'test' },
      });
      const actionsAfter = async () =>
        (
          (await platform.query(`SELECT action FROM platform.audit_events WHERE chain_id = $1 ORDER BY chain_seq`, [
            tenant.applicationId,
          ])) as Array<{ action: string }>
        ).map((r) => r.action);
      // T1 records, then needs a row T2 holds; T2 holds it and records: with the head taken at
      // record time this is a deadlock; taken at commit, both commit.
      const locked = (() => {
        let open!: () => void;
        return { promise: new Promise<void>((r) => (open = r)), open: () => open() };
      })();
      const recorded = (() => {
        let open!: () => void;
        return { promise: new Promise<void>((r) => (open = r)), open: () => open() };
      })();
      const lockApp = (manager: import('typeorm').EntityManager) =>
        manager.query(`SELECT id FROM platform.applications WHERE id = $1 FOR UPDATE`, [tenant.applicationId]);
      const t2 = platform.transaction(async (manager) => {
        await lockApp(manager);
        locked.open();
        await recorded.promise;
        await audit.record(manager, entry('t2'));
      });
      const t1 = platform.transaction(async (manager) => {
        await locked.promise;
        await audit.record(manager, entry('t1'));
        recorded.open();
        await lockApp(manager);
      });
      await Promise.all([t1, t2]);
      expect((await actionsAfter()).slice(-2)).toEqual(['t2', 't1']);
      expect((await cli('audit:verify', { app: tenant.applicationId })).failed).toBe(false);
    },
  );

  it('records sign-ins and a refresh token presented again on the platform chain, with the user as actor', async () => {
    const tenant = await createTenant(t);
    const user = await createUser(t, { member: tenant });
    const client = await createClient(t, 'public');
    const tokens = await tokensFor(t, user, client);
    const refresh = () =>
      t.http
        .post('/oauth/token/refresh')
        .type('form')
        .send({ refresh_token: tokens.refresh_token, client_id: client.client_id });
    expect((await refresh()).status).toBe(200);
    expect((await refresh()).body.error).toBe('invalid_grant');
    const rows: Array<{ action: string; actor_type: string; target_type: string; metadata: { reason?: string } }> =
      await platform.query(
        `SELECT action, actor_type, target_type, metadata FROM platform.audit_events
          WHERE chain_id = $1 AND actor_id = $2 ORDER BY chain_seq`,
        [PLATFORM_CHAIN, user.id],
      );
    expect(rows.map((r) => [r.action, r.actor_type, r.target_type])).toEqual([
      ['user.login', 'user', 'user'],
      ['oauth.refresh_token_reuse', 'user', 'oauth_token_family'],
    ]);
    expect(rows[1].metadata.reason).toBe('rotated refresh token presented again');
    expect(JSON.stringify(rows)).not.toContain(tokens.refresh_token);
    expect((await cli('audit:verify', { app: PLATFORM_CHAIN })).failed).toBe(false);
  });
});
