import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { AuditRecorder } from '../../../src/common/audit/audit-recorder.js';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getDataSourceToken } from '@nestjs/typeorm';
import { CompactSign, importJWK } from 'jose';
import type { DataSource } from 'typeorm';
import { RequestContext } from '../../../src/common/context/request-context.js';
import {
  BalancesService,
  entriesOfExport,
  PostingService,
  StatementKeys,
  StatementsService,
  verifyStatement,
  type ChainEntry,
  type Posting,
  type StatementResponse,
} from '../../../src/modules/ledger/index.js';
import type { ConfigService } from '@nestjs/config';
import { scopeOf, type ApplicationRef } from '../../../src/common/context/principal.js';
import type { AllConfig, StatementSigningKey } from '../../../src/config/app.config.js';
import { LedgerRepository } from '../../../src/modules/ledger/ledger.repository.js';
import { newSigningKey } from '../../../src/modules/ledger/statements/statement-keys.js';
import { StatementKeysRepository } from '../../../src/modules/ledger/statements/statement-keys.repository.js';
import { StatementsRepository } from '../../../src/modules/ledger/statements/statements.repository.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { expectLedgerInvariants } from '../../support/ledger-invariants.js';
import { OpenApiContract } from '../../support/openapi.js';

const run = promisify(execFile);
const MINUTE = 60_000;
const JWKS_PATH = '/.well-known/wallet-statement-keys';
const DOC = '/api/v1/{app}/platform/wallet/balances/{id}/statements';

/** The plain-Node verification of docs/LEDGER.md, exactly as the doc shows it. */
function docSnippet(): string {
  const doc = readFileSync(join(process.cwd(), 'docs/LEDGER.md'), 'utf8');
  const match = /<!-- statement-verify-snippet -->\n```js\n([\s\S]*?)```/.exec(doc);
  if (!match) throw new Error('docs/LEDGER.md has no statement-verify-snippet block');
  return match[1];
}

describe('signed balance statements (POST /balances/{id}/statements)', () => {
  let t: TestApp;
  let tenant: Tenant;
  let ds: DataSource;
  let dir: string;
  let alice: string;
  let platform: string;
  let post: (p: Omit<Posting, 'application_id'>) => Promise<void>;

  const pay = (balance: string, amount: number, state: 'available' | 'hold' = 'available') => {
    t.clock.advance(MINUTE);
    return post({
      event_type: 'charge.succeeded',
      entries: [
        { balance_id: balance, amount, currency: 'THB', state, type: 'charge', source: 'payment' },
        {
          balance_id: platform,
          amount: -amount,
          currency: 'THB',
          state: 'available',
          type: 'charge',
          source: 'funding',
        },
      ],
    });
  };
  const sign = (balance: string, as_of: unknown, headers: Record<string, string> = {}) =>
    t.http
      .post(tenant.path(`/balances/${balance}/statements`))
      .set(tenant.as('test'))
      .set(headers)
      .send(as_of === undefined ? {} : { as_of });
  const jwks = async () => (await t.http.get(JWKS_PATH)).body as Parameters<typeof verifyStatement>[1];
  const entriesOf = async (balance: string): Promise<ChainEntry[]> => {
    const res = await t.http
      .get(tenant.path(`/balance_transactions?filter[balance_id]=${balance}&limit=100`))
      .set(tenant.as('test'));
    expect(res.status).toBe(200);
    return entriesOfExport(res.body);
  };
  const save = (name: string, value: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    return file;
  };

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    ds = t.app.get<DataSource>(getDataSourceToken('wallet_test'));
    dir = mkdtempSync(join(tmpdir(), 'statements-'));
    const ctx = t.app.get(RequestContext);
    const posting = t.app.get(PostingService);
    const balances = t.app.get(BalancesService);
    const app = { application_id: tenant.applicationId };
    post = (p) => ctx.runInMode('test', () => posting.post({ ...p, ...app }).then(() => undefined));
    const balance = (account: string) =>
      ctx.runInMode('test', () => balances.getOrCreate({ ...app, account, currency: 'THB' })).then((b) => b.id);
    alice = await balance('customer');
    platform = await balance('application');
    await pay(alice, 5000);
    await pay(alice, 1200, 'hold');
    // Two entries of one balance in one posting take consecutive places, in the posting's order.
    t.clock.advance(MINUTE);
    await post({
      event_type: 'transfer.created',
      entries: [
        { balance_id: alice, amount: -700, currency: 'THB', state: 'available', type: 'transfer', source: 'transfer' },
        { balance_id: alice, amount: 300, currency: 'THB', state: 'available', type: 'transfer', source: 'transfer' },
        {
          balance_id: platform,
          amount: 400,
          currency: 'THB',
          state: 'available',
          type: 'transfer',
          source: 'transfer',
        },
      ],
    });
    await pay(alice, 999);
    t.clock.advance(MINUTE);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('signs the balance as of a moment; the published keys and the exported entries verify it offline', async () => {
    const contract = await OpenApiContract.load(t);
    const asOf = t.clock.now().toISOString();
    const res = await sign(alice, asOf, { 'Idempotency-Key': `stmt-${tenant.applicationId}` });
    expect(res.status).toBe(200);
    contract.assert('POST', DOC, res);
    const statement = res.body as StatementResponse;
    const balance = (await t.http.get(tenant.path(`/balances/${alice}?as_of=${asOf}`)).set(tenant.as('test'))).body;
    expect(statement.statement).toMatchObject({
      object: 'balance_statement',
      balance_id: alice,
      application_id: tenant.applicationId,
      mode: 'test',
      currency: 'THB',
      scaling_factor: 100,
      as_of: asOf,
      available: balance.available,
      pending: balance.hold,
      total: balance.available + balance.hold,
      entry_count: 5,
      chain_version: 'wallet-ledger-entry-v1',
    });
    const entries = await entriesOf(alice);
    const last = entries.find((e) => e.chain_seq === 5)!;
    expect(statement.statement).toMatchObject({
      last_entry_id: last.id,
      last_entry_hash: (last as { entry_hash?: string }).entry_hash,
    });
    // The same Idempotency-Key answers the same statement.
    const again = await sign(alice, asOf, { 'Idempotency-Key': `stmt-${tenant.applicationId}` });
    expect(again.body.id).toBe(statement.id);
    // It is kept: read back as it was answered; not under another balance, nor in the other mode.
    const path = (balance: string, id: string) => tenant.path(`/balances/${balance}/statements/${id}`);
    const kept = await t.http.get(path(alice, statement.id)).set(tenant.as('test'));
    expect(kept.status).toBe(200);
    contract.assert('GET', `${DOC}/{statement_id}`, kept);
    expect(kept.body).toEqual(statement);
    for (const [balance, id, as] of [
      [platform, statement.id, 'test'],
      [alice, 'not-an-id', 'test'],
      [alice, statement.id, 'live'],
    ] as const) {
      const res = await t.http.get(path(balance, id)).set(tenant.as(as));
      expect(res.status).toBe(404);
      expectErrorObject(res.body, 'E4004');
    }

    const keys = await t.http.get(JWKS_PATH);
    expect(keys.status).toBe(200);
    expect(keys.headers['cache-control']).toBe('public, max-age=300');
    expect(keys.body.keys[0]).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      kid: statement.kid,
      x: expect.any(String),
      use: 'sig',
      alg: 'EdDSA',
    });
    expect(keys.body.keys[0]).not.toHaveProperty('d');
    await expect(verifyStatement(statement.jws, keys.body, entries)).resolves.toMatchObject({
      valid: true,
      chain: 'matches',
      problems: [],
    });

    // A statement of an earlier moment covers the beginning of the chain; later entries are ignored.
    const early = (await sign(alice, new Date(t.clock.nowMs() - 3 * MINUTE).toISOString())).body as StatementResponse;
    expect(early.statement).toMatchObject({ entry_count: 2, available: 5000, pending: 1200 });
    await expect(verifyStatement(early.jws, keys.body, entries)).resolves.toMatchObject({
      valid: true,
      chain: 'matches',
    });
    // Before the first entry: nothing covered, the genesis hash.
    const empty = (await sign(alice, '2026-01-01T00:00:00+07:00')).body as StatementResponse;
    expect(empty.statement).toMatchObject({
      entry_count: 0,
      available: 0,
      last_entry_id: null,
      last_entry_hash: '0'.repeat(64),
    });

    // The CLI verifier, offline: exit 0 on a statement that holds, 1 on one that does not.
    const cli = join(process.cwd(), 'dist/src/cli/main.js');
    const args = [cli, 'statements:verify', save('ok.json', statement), '--jwks', save('jwks.json', keys.body)];
    const tampered = {
      ...statement,
      jws: statement.jws.replace(/\.[^.]+\./, `.${b64({ ...statement.statement, available: 1 })}.`),
    };
    // Both at once: each start of the CLI loads the whole service's code (seconds on a busy machine).
    const [ok, bad] = await Promise.all([
      run(process.execPath, [...args, '--entries', save('entries.json', entries)]),
      run(process.execPath, [cli, 'statements:verify', save('bad.json', tampered), '--jwks', args[4]]).catch(
        (err: { code: number; stdout: string }) => err,
      ),
    ]);
    expect(ok.stdout).toMatch(/^VALID: statement .* chain matches/);
    expect(bad).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/^INVALID: .*\n {2}the signature does not match/),
    });
  });

  it('runs the plain-Node verification of docs/LEDGER.md exactly as the doc shows it', async () => {
    const statement = (await sign(alice, t.clock.now().toISOString())).body as StatementResponse;
    const script = save('verify-statement.mjs', docSnippet());
    const files = [save('doc-statement.json', statement), save('doc-jwks.json', await jwks())];
    const entries = save('doc-entries.json', [
      (
        await t.http
          .get(tenant.path(`/balance_transactions?filter[balance_id]=${alice}&limit=3`))
          .set(tenant.as('test'))
      ).body,
      (
        await t.http
          .get(tenant.path(`/balance_transactions?filter[balance_id]=${alice}&limit=3&page=2`))
          .set(tenant.as('test'))
      ).body,
    ]);
    const ok = await run(process.execPath, [script, ...files, entries]);
    expect(JSON.parse(ok.stdout)).toEqual(statement.statement);
    const tampered = save('doc-tampered.json', {
      jws: statement.jws.replace(/\.[^.]+\./, `.${b64({ ...statement.statement, total: 10 ** 9 })}.`),
    });
    await expect(run(process.execPath, [script, tampered, files[1]])).rejects.toMatchObject({
      stderr: expect.stringContaining('bad signature'),
    });
    const shortened = save(
      'doc-short.json',
      (await entriesOf(alice)).filter((e) => e.chain_seq !== 3),
    );
    await expect(run(process.execPath, [script, ...files, shortened])).rejects.toMatchObject({
      stderr: expect.stringContaining('place 3 is missing'),
    });
  });

  it('finds a changed payload and a statement signed by another key', async () => {
    const statement = (await sign(alice, t.clock.now().toISOString())).body as StatementResponse;
    const keys = await jwks();
    const [header, , signature] = statement.jws.split('.');
    const changed = `${header}.${b64({ ...statement.statement, available: statement.statement.available + 100 })}.${signature}`;
    await expect(verifyStatement(changed, keys)).resolves.toMatchObject({
      valid: false,
      problems: [expect.stringContaining('the signature does not match')],
    });

    const other = await newSigningKey();
    const signWith = async (kid: string) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(statement.statement)))
        .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'wallet-statement+jws' })
        .sign(await importJWK(other, 'EdDSA'));
    await expect(verifyStatement(await signWith(other.kid), keys)).resolves.toMatchObject({
      valid: false,
      problems: [expect.stringContaining('signed by another key')],
    });
    // Another key that claims the service's kid.
    await expect(verifyStatement(await signWith(statement.kid), keys)).resolves.toMatchObject({
      valid: false,
      problems: [expect.stringContaining('the signature does not match')],
    });
    await expect(verifyStatement('not a jws', keys)).resolves.toMatchObject({ valid: false });
  });

  it('finds a ledger row edited by SQL after signing, even when the editor rewrote the chain', async () => {
    // A balance of its own: the edits below break its chain on purpose.
    const ctx = t.app.get(RequestContext);
    const victim = await ctx.runInMode('test', () =>
      t.app
        .get(BalancesService)
        .getOrCreate({ application_id: tenant.applicationId, account: 'edited', currency: 'THB' })
        .then((b) => b.id),
    );
    for (const amount of [100, 200, 300]) await pay(victim, amount);
    t.clock.advance(MINUTE);
    const statement = (await sign(victim, t.clock.now().toISOString())).body as StatementResponse;
    const keys = await jwks();
    await expect(verifyStatement(statement.jws, keys, await entriesOf(victim))).resolves.toMatchObject({ valid: true });
    const broken = () => ctx.runInMode('test', () => t.app.get(StatementsService).brokenChains(victim));
    expect(await broken()).toEqual([]);
    const [second, third] = (await entriesOf(victim))
      .filter((e) => Number(e.chain_seq) >= 2)
      .sort((a, b) => Number(a.chain_seq) - Number(b.chain_seq));
    // The trigger that keeps entries immutable does not fire for a session in replica mode: an
    // operator with the database's superuser can change a row.
    const asSuperuser = (sql: string, params: unknown[]) =>
      ds.transaction(async (m) => {
        await m.query(`SET LOCAL session_replication_role = replica`);
        await m.query(sql, params);
      });

    // 1. The amount of the second entry, nothing else.
    await asSuperuser(`UPDATE wallet_test.balance_transactions SET amount = amount + 1 WHERE id = $1`, [second.id]);
    const plain = await verifyStatement(statement.jws, keys, await entriesOf(victim));
    expect(plain).toMatchObject({ valid: false, chain: 'differs' });
    expect(plain.problems.join('\n')).toContain(`the recomputed chain ends at`);
    expect(await broken()).toEqual(expect.arrayContaining([expect.objectContaining({ entry_id: second.id })]));
    await asSuperuser(`UPDATE wallet_test.balance_transactions SET amount = amount - 1 WHERE id = $1`, [second.id]);
    expect(await broken()).toEqual([]);

    // 2. The last entry's amount with its running balance, its hash recomputed and the balance's
    // head moved: the database is consistent again, but not with what was signed.
    await asSuperuser(
      `UPDATE wallet_test.balance_transactions
          SET amount = amount + 5000, running_balance = running_balance + 5000,
              entry_hash = wallet_test.ledger_entry_hash($2, chain_seq, id, balance_id, journal_id, amount + 5000, currency,
                                                         state, running_balance + 5000, created_at)
        WHERE id = $1`,
      [third.id, (second as { entry_hash?: string }).entry_hash],
    );
    await asSuperuser(
      `UPDATE wallet_test.balances b SET available = available + 5000, chain_head = e.entry_hash
         FROM wallet_test.balance_transactions e WHERE e.id = $1 AND b.id = e.balance_id`,
      [third.id],
    );
    expect(await broken()).toEqual([]);
    const rewritten = await verifyStatement(statement.jws, keys, await entriesOf(victim));
    expect(rewritten).toMatchObject({ valid: false, chain: 'differs' });
    expect(rewritten.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^the recomputed chain ends at [0-9a-f]{64}, the statement at /),
        'the entries sum to available 5600 and pending 0, the statement says 600 and 0',
      ]),
    );
    // Put back, so the ledger invariants hold for the application again.
    await asSuperuser(
      `UPDATE wallet_test.balance_transactions SET amount = amount - 5000, running_balance = running_balance - 5000,
              entry_hash = $2 WHERE id = $1`,
      [third.id, (third as { entry_hash?: string }).entry_hash],
    );
    await asSuperuser(`UPDATE wallet_test.balances SET available = available - 5000, chain_head = $2 WHERE id = $1`, [
      victim,
      (third as { entry_hash?: string }).entry_hash,
    ]);
    await expect(verifyStatement(statement.jws, keys, await entriesOf(victim))).resolves.toMatchObject({ valid: true });
  });

  it('keeps statements signed before a key rotation verifiable', async () => {
    const before = (await sign(alice, t.clock.now().toISOString())).body as StatementResponse;
    const rotated = await t.app.get(StatementKeys).rotate();
    expect(rotated.retired).toContain(before.kid);
    const after = (await sign(alice, t.clock.now().toISOString())).body as StatementResponse;
    expect(after.kid).not.toBe(before.kid);
    const keys = await jwks();
    expect(keys.keys[0].kid).toBe(after.kid);
    expect(keys.keys.map((k) => k.kid)).toContain(before.kid);
    // Only public halves are kept: the database holds no private key.
    const stored: Array<{ public_jwk: Record<string, unknown> }> = await ds.query(
      `SELECT public_jwk FROM platform.statement_signing_keys`,
    );
    expect(stored.length).toBeGreaterThanOrEqual(2);
    for (const row of stored) expect(Object.keys(row.public_jwk).sort()).toEqual(['crv', 'kid', 'kty', 'x']);
    const entries = await entriesOf(alice);
    for (const statement of [before, after]) {
      await expect(verifyStatement(statement.jws, keys, entries)).resolves.toMatchObject({
        valid: true,
        kid: statement.kid,
      });
    }
  });

  it('with STATEMENT_SIGNING_KEYS, signs with the first key and still verifies what a key after it signed', async () => {
    const [old, fresh] = [await newSigningKey(), await newSigningKey()];
    const service = (keys: StatementSigningKey[]) => {
      const config = { get: () => ({ statementSigningKeys: keys }) } as unknown as ConfigService<AllConfig, true>;
      const statementKeys = new StatementKeys(t.app.get(StatementKeysRepository), t.clock, config);
      const statements = new StatementsService(
        t.app.get(LedgerRepository),
        t.app.get(StatementsRepository),
        statementKeys,
        t.app.get(AuditRecorder),
        t.clock,
      );
      return { statementKeys, statements };
    };
    const scope = scopeOf(
      { id: tenant.applicationId, slug: '', name: '', countries: [] } satisfies ApplicationRef,
      'test',
    );
    const inTest = <T>(fn: () => Promise<T>) => t.app.get(RequestContext).runInMode('test', fn);
    const asOf = t.clock.now().toISOString();
    const before = service([old]);
    const signedBefore = await inTest(() => before.statements.create(scope, alice, asOf));
    const after = service([fresh, old]);
    const signedAfter = await inTest(() => after.statements.create(scope, alice, asOf));
    expect([signedBefore.kid, signedAfter.kid]).toEqual([old.kid, fresh.kid]);
    const keys = await after.statementKeys.published();
    // The configured keys in their order, then the keys processes generated before (still published).
    expect(keys.keys.map((k) => k.kid).slice(0, 2)).toEqual([fresh.kid, old.kid]);
    const entries = await entriesOf(alice);
    for (const statement of [signedBefore, signedAfter]) {
      await expect(verifyStatement(statement.jws, keys, entries)).resolves.toMatchObject({ valid: true });
    }
    // Dropping the old key from the list is what makes its statements fail.
    await expect(
      verifyStatement(signedBefore.jws, await service([fresh]).statementKeys.published()),
    ).resolves.toMatchObject({
      valid: false,
    });
    await expect(after.statementKeys.rotate()).rejects.toThrow('STATEMENT_SIGNING_KEYS is set');
  });

  it('refuses bad input with the catalog codes and signs nothing', async () => {
    const count = async () =>
      Number(
        (
          await ds.query(`SELECT count(*) AS n FROM wallet_test.balance_statements WHERE application_id = $1`, [
            tenant.applicationId,
          ])
        )[0].n,
      );
    const before = await count();
    for (const [as_of, code] of [
      [undefined, 'E2000'],
      [20261101, 'E2000'],
      ['yesterday', 'E7940'],
      ['2026-11-01', 'E7940'],
      ['2026-11-01T00:00:00', 'E7940'],
      ['2026-02-30T00:00:00Z', 'E7940'],
      [new Date(t.clock.nowMs() + MINUTE).toISOString(), 'E7940'],
    ] as const) {
      const res = await sign(alice, as_of);
      expect([as_of, res.status]).toEqual([as_of, 400]);
      expectErrorObject(res.body, code);
    }
    const unknown = await sign('0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', '2026-11-01T00:00:00Z');
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4004');
    const live = await t.http
      .post(tenant.path(`/balances/${alice}/statements`))
      .set(tenant.as('live'))
      .send({ as_of: '2026-11-01T00:00:00Z' });
    expectErrorObject(live.body, 'E4004');
    expect(await count()).toBe(before);
  });

  it('keeps the ledger invariants, the hash chain included', async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
  });
});

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
