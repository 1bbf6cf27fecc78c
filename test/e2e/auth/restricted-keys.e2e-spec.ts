import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { applicationCommands } from '../../../src/cli/commands/applications.js';
import { CliUsageError, type CliArgs } from '../../../src/cli/command.js';
import { createUser, tokensFor } from '../../factories/auth.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { recordSecret } from '../../support/secrets.js';

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

/** Restricted keys through the owners' API and the CLI: shown once, hashed, rolled with an expiry, revoked at once. */
describe('restricted keys', () => {
  let t: TestApp;
  let tenant: Tenant;
  const bearer = {} as Record<'owner' | 'developer' | 'viewer' | 'outsider', string>;

  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t);
    const other = await createTenant(t);
    for (const role of ['owner', 'developer', 'viewer'] as const) {
      bearer[role] = (await tokensFor(t, await createUser(t, { member: tenant, role }))).access_token;
    }
    bearer.outsider = (await tokensFor(t, await createUser(t, { member: other, role: 'owner' }))).access_token;
  });
  afterAll(() => t.close());

  const owner = (mode: 'test' | 'live' = 'test', token = bearer.owner) => ({
    Authorization: `Bearer ${token}`,
    'X-Test-Mode': mode === 'test' ? 'true' : 'false',
  });
  const withKey = (key: string, mode: 'test' | 'live' = 'test') => tenant.as(mode, { Authorization: basic(key) });

  async function create(permissions: Record<string, string>, name = 'Job') {
    const res = await t.http.post(tenant.path('/restricted_keys')).set(owner()).send({ name, permissions });
    expect(res.status).toBe(200);
    recordSecret(res.body.secret);
    return res.body as { id: string; secret: string; permissions: Record<string, string>; redacted_key: string };
  }

  it('creates a key shown once, lists and retrieves it without the secret, and stores only its hash', async () => {
    const created = await create({ charges: 'read', customers: 'write' }, 'Reporting');
    expect(created).toMatchObject({
      object: 'restricted_key',
      name: 'Reporting',
      livemode: false,
      status: 'active',
      expires_at: null,
      secret: expect.stringMatching(/^rk_test_[0-9A-Za-z]{38}$/),
      redacted_key: expect.stringMatching(new RegExp(`^rk_test_\\*{8}${created.secret.slice(-4)}$`)),
    });
    expect(created.permissions).toMatchObject({ charges: 'read', customers: 'write', refunds: 'none' });

    const retrieved = await t.http.get(tenant.path(`/restricted_keys/${created.id}`)).set(owner());
    expect(retrieved.status).toBe(200);
    expect(retrieved.body.secret).toBeUndefined();
    const listed = await t.http.get(tenant.path('/restricted_keys')).set(owner());
    expect(listed.body.data.map((k: { id: string }) => k.id)).toContain(created.id);
    expect(JSON.stringify(listed.body)).not.toContain(created.secret);
    // Keys are per mode: the live list does not show a test key.
    const live = await t.http.get(tenant.path('/restricted_keys')).set(owner('live'));
    expect(live.body.data.map((k: { id: string }) => k.id)).not.toContain(created.id);

    const rows: Array<{ secret_hash: Buffer; prefix: string }> = await t.app
      .get<DataSource>(getDataSourceToken('platform'))
      .query('SELECT secret_hash, prefix FROM platform.api_keys WHERE id = $1', [created.id]);
    expect(rows[0].secret_hash).toHaveLength(32);
    expect(created.secret.startsWith(rows[0].prefix)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(created.secret);
  });

  it('never stores the answer that carries a new key, even with an Idempotency-Key', async () => {
    const send = () =>
      t.http
        .post(tenant.path('/restricted_keys'))
        .set({ ...owner(), 'Idempotency-Key': `rk-${Date.now()}` })
        .send({ permissions: { charges: 'read' } });
    const first = await send();
    recordSecret(first.body.secret);
    expect(first.status).toBe(200);
    const rows: unknown[] = await t.app
      .get<DataSource>(getDataSourceToken('platform'))
      .query(`SELECT 1 FROM platform.idempotency_keys WHERE response_body::text LIKE $1`, [`%${first.body.secret}%`]);
    expect(rows).toEqual([]);
  });

  it('allows what its permissions name and refuses the rest with E1240 naming the permission', async () => {
    const { secret } = await create({ customers: 'read' });
    expect((await t.http.get(tenant.path('/customers')).set(withKey(secret))).status).toBe(200);
    const write = await t.http.post(tenant.path('/customers')).set(withKey(secret)).send({ name: 'No' });
    expect({ status: write.status, code: write.body.code, params: write.body.params }).toEqual({
      status: 403,
      code: 'E1240',
      params: { permission: 'customers:write' },
    });
    expectErrorObject(write.body, 'E1240');
    expect(write.body.message).toContain('customers:write');
    // A test key on live data is E1300, as for secret keys; keys cannot manage keys (bearer only).
    expect((await t.http.get(tenant.path('/customers')).set(withKey(secret, 'live'))).body.code).toBe('E1300');
    expect((await t.http.get(tenant.path('/restricted_keys')).set(withKey(secret))).body.code).toBe('E1200');
  });

  it('applies new permissions at once, though the key was verified (and cached) a moment before', async () => {
    const created = await create({ customers: 'read' });
    expect((await t.http.get(tenant.path('/charges')).set(withKey(created.secret))).body.code).toBe('E1240');
    const updated = await t.http
      .post(tenant.path(`/restricted_keys/${created.id}`))
      .set(owner())
      .send({ permissions: { charges: 'read', customers: 'none' } });
    expect(updated.body.permissions).toMatchObject({ charges: 'read', customers: 'none' });
    expect((await t.http.get(tenant.path('/charges')).set(withKey(created.secret))).status).toBe(200);
    expect((await t.http.get(tenant.path('/customers')).set(withKey(created.secret))).body.code).toBe('E1240');
  });

  it('rolls a key: the old one works until expire_old_in_seconds, then E1243; the new one keeps the permissions', async () => {
    const old = await create({ customers: 'read' });
    const rolled = await t.http
      .post(tenant.path(`/restricted_keys/${old.id}/roll`))
      .set(owner())
      .send({ expire_old_in_seconds: 3600 });
    expect(rolled.status).toBe(200);
    recordSecret(rolled.body.secret);
    expect(rolled.body.secret).toMatch(/^rk_test_/);
    expect(rolled.body.secret).not.toBe(old.secret);
    expect(rolled.body.permissions).toEqual(old.permissions);
    expect((await t.http.get(tenant.path('/customers')).set(withKey(old.secret))).status).toBe(200);

    t.clock.advance(3601_000);
    const refused = await t.http.get(tenant.path('/customers')).set(withKey(old.secret));
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 401, code: 'E1243' });
    expect(refused.headers['www-authenticate']).toBeTruthy();
    expect((await t.http.get(tenant.path('/customers')).set(withKey(rolled.body.secret))).status).toBe(200);
    const oldNow = await t.http.get(tenant.path(`/restricted_keys/${old.id}`)).set(owner());
    expect(oldNow.body).toMatchObject({ status: 'expired', replaced_by: rolled.body.id });

    // A rolled key cannot be rolled again; by default the old key is refused at once.
    const again = await t.http
      .post(tenant.path(`/restricted_keys/${old.id}/roll`))
      .set(owner())
      .send({});
    expect(again.body.code).toBe('E1246');
    const now = await t.http
      .post(tenant.path(`/restricted_keys/${rolled.body.id}/roll`))
      .set(owner())
      .send({});
    recordSecret(now.body.secret);
    expect((await t.http.get(tenant.path('/customers')).set(withKey(rolled.body.secret))).body.code).toBe('E1243');
  });

  it('refuses an expiry beyond 7 days, unknown groups and unknown levels with E2000 naming the field', async () => {
    const { id } = await create({ customers: 'read' });
    const long = await t.http
      .post(tenant.path(`/restricted_keys/${id}/roll`))
      .set(owner())
      .send({ expire_old_in_seconds: 7 * 24 * 3600 + 1 });
    expect({ code: long.body.code, param: long.body.param }).toEqual({ code: 'E2000', param: 'expire_old_in_seconds' });
    for (const permissions of [{ charges: 'admin' }, { ledger: 'read' }]) {
      const res = await t.http.post(tenant.path('/restricted_keys')).set(owner()).send({ permissions });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'E2000' });
      expect(res.body.param).toMatch(/^permissions\./);
    }
  });

  it('revokes a key: refused at once with E1211, shown as revoked', async () => {
    const { id, secret } = await create({ customers: 'read' });
    expect((await t.http.get(tenant.path('/customers')).set(withKey(secret))).status).toBe(200);
    const revoked = await t.http.delete(tenant.path(`/restricted_keys/${id}`)).set(owner());
    expect(revoked.body).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    expect((await t.http.get(tenant.path('/customers')).set(withKey(secret))).body.code).toBe('E1211');
  });

  it('lets a developer manage keys in test mode only, a viewer not at all, and no one of another application', async () => {
    const dev = await t.http
      .post(tenant.path('/restricted_keys'))
      .set(owner('test', bearer.developer))
      .send({ permissions: { customers: 'read' } });
    expect(dev.status).toBe(200);
    recordSecret(dev.body.secret);
    const devLive = await t.http
      .post(tenant.path('/restricted_keys'))
      .set(owner('live', bearer.developer))
      .send({ permissions: { customers: 'read' } });
    expect({ code: devLive.body.code, params: devLive.body.params }).toEqual({
      code: 'E1244',
      params: { permission: 'api_keys:write', role: 'developer', allowed_roles: ['owner', 'admin'] },
    });
    const viewer = await t.http.get(tenant.path('/restricted_keys')).set(owner('test', bearer.viewer));
    expect({ code: viewer.body.code, params: viewer.body.params }).toEqual({
      code: 'E1241',
      params: {
        permission: 'api_keys:read',
        role: 'viewer',
        allowed_roles: ['owner', 'admin', 'developer', 'analyst'],
      },
    });
    const outsider = await t.http.get(tenant.path('/restricted_keys')).set(owner('test', bearer.outsider));
    expect(outsider.body.code).toBe('E1300');
  });

  describe('CLI', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- printed JSON, inspected field by field
    async function run(name: string, args: CliArgs): Promise<any> {
      const printed: unknown[] = [];
      await applicationCommands[name].run({
        app: t.app,
        args,
        json: true,
        print: (value) => printed.push(JSON.parse(JSON.stringify(value))),
      });
      return printed[0];
    }

    it('creates, lists, rolls and revokes restricted keys', async () => {
      const created = await run('keys:create-restricted', {
        app: tenant.slug,
        mode: 'live',
        name: 'Cli',
        permissions: 'charges=read,refunds=write',
      });
      recordSecret(created.secret);
      expect(created).toMatchObject({
        object: 'restricted_key',
        livemode: true,
        secret: expect.stringMatching(/^rk_live_/),
        permissions: expect.objectContaining({ charges: 'read', refunds: 'write', customers: 'none' }),
      });
      const listed = await run('keys:list', { app: tenant.slug, mode: 'live' });
      const row = listed.keys.find((k: { id: string }) => k.id === created.id);
      expect(row).toMatchObject({ object: 'restricted_key', status: 'active' });
      expect(listed.keys.some((k: { object: string }) => k.object === 'secret_key')).toBe(true);
      expect(JSON.stringify(listed)).not.toContain(created.secret);

      const rolled = await run('keys:roll', { key: created.secret, 'expire-old-in-seconds': '60' });
      recordSecret(rolled.key);
      expect(rolled.key).toMatch(/^rk_live_/);
      expect((await t.http.get(tenant.path('/charges')).set(withKey(created.secret, 'live'))).status).toBe(200);
      t.clock.advance(61_000);
      expect((await t.http.get(tenant.path('/charges')).set(withKey(created.secret, 'live'))).body.code).toBe('E1243');

      expect(await run('keys:revoke', { key: rolled.prefix })).toEqual({ revoked: true, prefix: rolled.prefix });
      expect((await t.http.get(tenant.path('/charges')).set(withKey(rolled.key, 'live'))).body.code).toBe('E1211');
    });

    it('refuses unknown groups, levels and an expiry beyond 7 days', async () => {
      await expect(
        run('keys:create-restricted', { app: tenant.slug, mode: 'test', permissions: 'ledger=read' }),
      ).rejects.toThrow(/Unknown resource group "ledger"/);
      await expect(
        run('keys:create-restricted', { app: tenant.slug, mode: 'test', permissions: 'charges' }),
      ).rejects.toBeInstanceOf(CliUsageError);
      await expect(
        run('keys:roll', { key: tenant.keys.test, 'expire-old-in-seconds': String(7 * 24 * 3600 + 1) }),
      ).rejects.toBeInstanceOf(CliUsageError);
    });
  });
});
