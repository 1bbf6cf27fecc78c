import { authCommands } from '../../../src/cli/commands/auth.js';
import { CliUsageError, type CliArgs } from '../../../src/cli/command.js';
import { createTenant, startApp, type TestApp } from '../../support/harness.js';
import { tokensFor } from '../../factories/auth.js';

describe('auth CLI commands', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- printed JSON, inspected field by field
  async function run(name: string, args: CliArgs): Promise<any> {
    const printed: unknown[] = [];
    await authCommands[name].run({
      app: t.app,
      args,
      json: true,
      print: (value) => printed.push(JSON.parse(JSON.stringify(value))),
    });
    return printed[0];
  }

  it('creates a user, grants a membership and superuser, and makes both kinds of client, all as JSON', async () => {
    const tenant = await createTenant(t);
    const email = `cli-${Date.now().toString(36)}@example.test`;
    const created = await run('users:create', { email, password: 'correct horse battery', name: 'Cli User' });
    expect(created).toMatchObject({ object: 'user', email, name: 'Cli User', is_superuser: false, memberships: [] });

    const granted = await run('users:grant', { email, app: tenant.slug, role: 'viewer' });
    expect(granted.memberships).toEqual([
      {
        object: 'membership',
        application: { id: tenant.applicationId, slug: tenant.slug, name: tenant.slug },
        role: 'viewer',
      },
    ]);
    const regranted = await run('users:grant', { email, app: tenant.slug, role: 'admin' });
    expect(regranted.memberships.map((m: { role: string }) => m.role)).toEqual(['admin']);
    expect((await run('users:grant', { email, superuser: true })).is_superuser).toBe(true);

    const pub = await run('clients:create', {
      name: 'SPA',
      type: 'public',
      'redirect-uri': 'http://127.0.0.1:8799/cb',
    });
    expect(pub).toMatchObject({
      client_id: expect.stringMatching(/^client_/),
      client_secret: null,
      type: 'public',
      redirect_uris: ['http://127.0.0.1:8799/cb'],
    });
    const conf = await run('clients:create', {
      name: 'Dashboard',
      type: 'confidential',
      'redirect-uri': 'https://a.example/cb,https://b.example/cb',
    });
    expect(conf.client_secret).toMatch(/^wcs_/);
    expect(conf.redirect_uris).toHaveLength(2);

    // The user made by the CLI signs in through the OAuth flow.
    const tokens = await tokensFor(t, { id: created.id, email, password: 'correct horse battery' }, pub);
    const me = await t.http.get('/oauth/me').set('Authorization', `Bearer ${tokens.access_token}`);
    expect(me.body).toMatchObject({ email, is_superuser: true });
  });

  it('refuses missing flags, a short password, a duplicate email, an unknown role and a bad redirect URI', async () => {
    await expect(run('users:create', { email: 'x@example.test' })).rejects.toBeInstanceOf(CliUsageError);
    await expect(run('users:create', { email: 'short@example.test', password: 'short' })).rejects.toThrow(/at least/);
    const email = `dup-${Date.now().toString(36)}@example.test`;
    await run('users:create', { email, password: 'long enough password' });
    await expect(run('users:create', { email: email.toUpperCase(), password: 'long enough password' })).rejects.toThrow(
      /exists/,
    );
    const raced = `race-${Date.now().toString(36)}@example.test`;
    const both = await Promise.allSettled(
      [0, 1].map(() => run('users:create', { email: raced, password: 'long enough password' })),
    );
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    await expect(run('users:grant', { email, app: 'whatever', role: 'king' })).rejects.toThrow(/role must be/);
    await expect(run('clients:create', { name: 'X', type: 'public', 'redirect-uri': 'not a url' })).rejects.toThrow(
      /absolute URL/,
    );
  });
});
