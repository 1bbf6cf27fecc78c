import * as oidc from 'openid-client';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { createClient, createUser, pkcePair, signIn, tokensFor, type TestUser } from '../../factories/auth.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const REDIRECT = 'http://127.0.0.1:9/callback';

/** The form of the sign-in page, read as a browser would: its action and every named input. */
function readForm(html: string, pageUrl: string): { action: URL; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('the page has no form');
  const decode = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const fields: Record<string, string> = {};
  for (const input of form[2].matchAll(/<input\b([^>]*)>/g)) {
    const name = /name="([^"]*)"/.exec(input[1])?.[1];
    if (name) fields[name] = decode(/value="([^"]*)"/.exec(input[1])?.[1] ?? '');
  }
  return { action: new URL(decode(form[1]), pageUrl), fields };
}

describe('OAuth 2.0 authorization server', () => {
  let t: TestApp;
  let tenant: Tenant;
  let member: TestUser;

  beforeAll(async () => {
    t = await startApp({ listen: true });
    tenant = await createTenant(t);
    member = await createUser(t, { member: tenant, role: 'admin' });
  });
  afterEach(() => t.clock.reset());
  afterAll(() => t.close());

  function configFor(clientId: string, tokenPath: string, auth: oidc.ClientAuth = oidc.None()) {
    const config = new oidc.Configuration(
      { issuer: t.url, authorization_endpoint: `${t.url}/oauth2/auth`, token_endpoint: `${t.url}${tokenPath}` },
      clientId,
      {},
      auth,
    );
    oidc.allowInsecureRequests(config);
    return config;
  }

  it('runs the whole flow with openid-client: PKCE, sign-in form, code exchange, bearer call, rotation and family revocation', async () => {
    const client = await createClient(t, 'public', REDIRECT);
    const config = configFor(client.client_id, '/oauth/token');
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'wallet',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    expect(authorizationUrl.pathname).toBe('/oauth2/auth');

    const page = await fetch(authorizationUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toMatch(/<label for="email">Email<\/label>/);
    expect(html).toMatch(/<label for="password">Password<\/label>/);
    expect(html).toMatch(/<button type="submit">Sign in<\/button>/);

    const form = readForm(html, authorizationUrl.toString());
    const submitted = await fetch(form.action, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form.fields, email: member.email, password: member.password }),
    });
    expect(submitted.status).toBe(303);
    const callback = new URL(submitted.headers.get('location')!);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe(state);

    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(12 * 3600);
    expect(tokens.scope).toBe('wallet');
    expect(tokens.refresh_token).toBeTruthy();

    const me = await t.http.get('/oauth/me').set('Authorization', `Bearer ${tokens.access_token}`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      object: 'user',
      id: member.id,
      email: member.email,
      is_superuser: false,
      memberships: [{ application: { id: tenant.applicationId, slug: tenant.slug }, role: 'admin' }],
    });
    const customers = await t.http
      .get(tenant.path('/customers'))
      .set({ Authorization: `Bearer ${tokens.access_token}`, 'X-Test-Mode': 'true', 'X-Country': 'TH' });
    expect(customers.status).toBe(200);

    const refreshConfig = configFor(client.client_id, '/oauth/token/refresh');
    const rotated = await oidc.refreshTokenGrant(refreshConfig, tokens.refresh_token!);
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(rotated.access_token).not.toBe(tokens.access_token);
    expect((await t.http.get('/oauth/me').set('Authorization', `Bearer ${rotated.access_token}`)).status).toBe(200);

    // The rotated-out refresh token comes back: the whole family is revoked.
    await expect(oidc.refreshTokenGrant(refreshConfig, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    for (const access of [tokens.access_token, rotated.access_token]) {
      const refused = await t.http.get('/oauth/me').set('Authorization', `Bearer ${access}`);
      expect(refused.status).toBe(401);
      expectErrorObject(refused.body, 'E1210');
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    await expect(oidc.refreshTokenGrant(refreshConfig, rotated.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('lets a code work once; the second exchange fails and revokes what the first issued', async () => {
    const client = await createClient(t, 'public', REDIRECT);
    const { verifier, challenge } = pkcePair();
    const signedIn = await signIn(t, { clientId: client.client_id, redirectUri: REDIRECT, user: member, challenge });
    const exchange = () =>
      t.http
        .post('/oauth/token')
        .type('form')
        .send({
          grant_type: 'authorization_code',
          code: signedIn.location!.searchParams.get('code')!,
          redirect_uri: REDIRECT,
          client_id: client.client_id,
          code_verifier: verifier,
        });
    const first = await exchange();
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const second = await exchange();
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({
      error: 'invalid_grant',
      object: 'error',
      code: 'E1222',
      key: 'oauth_invalid_grant',
    });
    expect(second.body.request_id).toBe(second.headers['x-request-id']);

    const me = await t.http.get('/oauth/me').set('Authorization', `Bearer ${first.body.access_token}`);
    expect(me.status).toBe(401);
    expectErrorObject(me.body, 'E1210');
    const refresh = await t.http
      .post('/oauth/token/refresh')
      .type('form')
      .send({ refresh_token: first.body.refresh_token, client_id: client.client_id });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('lets exactly one of two concurrent exchanges of a refresh token through, and treats the other as reuse', async () => {
    const client = await createClient(t, 'public', REDIRECT);
    const tokens = await tokensFor(t, member, client);
    const refresh = () =>
      t.http
        .post('/oauth/token/refresh')
        .type('form')
        .send({ refresh_token: tokens.refresh_token, client_id: client.client_id });
    const results = await Promise.all([refresh(), refresh(), refresh()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    const winner = results.find((r) => r.status === 200)!;
    const me = await t.http.get('/oauth/me').set('Authorization', `Bearer ${winner.body.access_token}`);
    expect(me.status).toBe(401);
    expectErrorObject(me.body, 'E1210');
  });

  it('expires codes after 10 minutes, access tokens after 12 hours and refresh tokens after 30 days (clock moved)', async () => {
    const client = await createClient(t, 'public', REDIRECT);
    const { verifier, challenge } = pkcePair();
    const signedIn = await signIn(t, { clientId: client.client_id, redirectUri: REDIRECT, user: member, challenge });
    t.clock.advance(10 * 60_000 + 1000);
    const late = await t.http
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'authorization_code',
        code: signedIn.location!.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        client_id: client.client_id,
        code_verifier: verifier,
      });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ error: 'invalid_grant', code: 'E1222' });
    t.clock.reset();

    const tokens = await tokensFor(t, member, client);
    const me = () => t.http.get('/oauth/me').set('Authorization', `Bearer ${tokens.access_token}`);
    t.clock.advance(12 * HOUR - 5000);
    expect((await me()).status).toBe(200);
    t.clock.advance(10_000);
    const expired = await me();
    expect(expired.status).toBe(401);
    expectErrorObject(expired.body, 'E1210');

    // The refresh token outlives the access token, up to 30 days.
    t.clock.advance(29 * DAY - 12 * HOUR);
    const refreshed = await t.http
      .post('/oauth/token/refresh')
      .type('form')
      .send({ refresh_token: tokens.refresh_token, client_id: client.client_id });
    expect(refreshed.status).toBe(200);
    t.clock.advance(DAY + 1000);
    const tooLate = await t.http
      .post('/oauth/token/refresh')
      .type('form')
      .send({ refresh_token: refreshed.body.refresh_token, client_id: client.client_id });
    expect(tooLate.status).toBe(200);
    t.clock.advance(30 * DAY + 1000);
    const stale = await t.http
      .post('/oauth/token/refresh')
      .type('form')
      .send({ refresh_token: tooLate.body.refresh_token, client_id: client.client_id });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ error: 'invalid_grant', code: 'E1222' });
  });

  it('requires PKCE S256 from public clients and never redirects to an unregistered URI', async () => {
    const client = await createClient(t, 'public', REDIRECT);
    const noPkce = await t.http
      .get('/oauth2/auth')
      .query({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, state: 'abc' });
    expect(noPkce.status).toBe(302);
    const location = new URL(noPkce.headers.location);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('abc');

    const plain = await t.http.get('/oauth2/auth').query({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      state: 'abc',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'plain',
    });
    expect(new URL(plain.headers.location).searchParams.get('error')).toBe('invalid_request');

    const elsewhere = await t.http.get('/oauth2/auth').query({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: 'https://evil.example/cb',
      state: 'abc',
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.location).toBeUndefined();
    const unknown = await t.http
      .get('/oauth2/auth')
      .query({ response_type: 'code', client_id: 'client_nope', redirect_uri: REDIRECT, state: 'abc' });
    expect(unknown.status).toBe(400);

    // A wrong verifier burns the code.
    const { challenge } = pkcePair();
    const signedIn = await signIn(t, { clientId: client.client_id, redirectUri: REDIRECT, user: member, challenge });
    const wrong = await t.http
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'authorization_code',
        code: signedIn.location!.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        client_id: client.client_id,
        code_verifier: pkcePair().verifier,
      });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
  });

  it('holds confidential clients to their secret, with RFC 6749 errors and the error object alongside', async () => {
    const client = await createClient(t, 'confidential', REDIRECT);
    const { verifier, challenge } = pkcePair();
    const code = async () =>
      (
        await signIn(t, { clientId: client.client_id, redirectUri: REDIRECT, user: member, challenge })
      ).location!.searchParams.get('code')!;
    const basic = (secret: string) => `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}`;

    const wrong = await t.http
      .post('/oauth/token')
      .type('form')
      .set('Authorization', basic('wcs_wrong'))
      .send({ grant_type: 'authorization_code', code: await code(), redirect_uri: REDIRECT, code_verifier: verifier });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
    expect(wrong.body).toMatchObject({ error: 'invalid_client', object: 'error', code: 'E1221' });

    const config = configFor(
      client.client_id,
      `/api/v1/${tenant.slug}/platform/wallet/oauth/token`,
      oidc.ClientSecretBasic(client.client_secret!),
    );
    const callback = new URL(`${REDIRECT}?code=${encodeURIComponent(await code())}&state=s1`);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: 's1',
    });
    expect(tokens.access_token).toMatch(/^wat_/);

    const noSecret = await t.http
      .post('/oauth/token/refresh')
      .type('form')
      .send({ refresh_token: tokens.refresh_token!, client_id: client.client_id });
    expect(noSecret.body.error).toBe('invalid_client');
    const missing = await t.http
      .post(tenant.path('/oauth/token/refresh'))
      .type('form')
      .send({ client_id: client.client_id, client_secret: client.client_secret });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      error: 'invalid_request',
      code: 'E1220',
      object: 'error',
      key: 'oauth_invalid_request',
    });
    const grant = await t.http
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'password', client_id: client.client_id, client_secret: client.client_secret });
    expect(grant.body.error).toMatch(/unsupported_grant_type|unauthorized_client/);
  });

  it('throttles repeated failed sign-ins for one account until the lock passes', async () => {
    const client = await createClient(t, 'public', REDIRECT);
    const user = await createUser(t, { member: tenant });
    const { challenge } = pkcePair();
    const attempt = (password?: string) =>
      signIn(t, { clientId: client.client_id, redirectUri: REDIRECT, user, challenge, password });
    for (let i = 0; i < 5; i++) {
      const failed = await attempt('wrong-password');
      expect(failed.status).toBe(401);
      expect(failed.html).toContain('The email or password is wrong.');
    }
    const locked = await attempt();
    expect(locked.status).toBe(429);
    expect(locked.html).toContain('Too many failed sign-in attempts');
    // Another account is not affected.
    expect(
      (await signIn(t, { clientId: client.client_id, redirectUri: REDIRECT, user: member, challenge })).status,
    ).toBe(303);
    t.clock.advance(15 * 60_000 + 1000);
    const after = await attempt();
    expect(after.status).toBe(303);
    expect(after.location!.searchParams.get('code')).toBeTruthy();
  });

  it('answers /oauth/me at the root for any user and under the base path for members and superusers only', async () => {
    const outsider = await createUser(t);
    const superuser = await createUser(t, { superuser: true });
    const outsiderTokens = await tokensFor(t, outsider);
    const root = await t.http.get('/oauth/me').set('Authorization', `Bearer ${outsiderTokens.access_token}`);
    expect(root.status).toBe(200);
    expect(root.body.memberships).toEqual([]);
    const underApp = await t.http
      .get(tenant.path('/oauth/me'))
      .set('Authorization', `Bearer ${outsiderTokens.access_token}`);
    expect(underApp.status).toBe(403);
    expectErrorObject(underApp.body, 'E1300');
    const superTokens = await tokensFor(t, superuser);
    const su = await t.http.get(tenant.path('/oauth/me')).set('Authorization', `Bearer ${superTokens.access_token}`);
    expect(su.status).toBe(200);
    expect(su.body.is_superuser).toBe(true);
    const key = await t.http.get('/oauth/me').set('Authorization', tenant.basic('live'));
    expect(key.status).toBe(401);
    expectErrorObject(key.body, 'E1200');
  });

  it('documents the token endpoints and the bearer scheme in OpenAPI', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    for (const path of [
      '/oauth/token',
      '/oauth/token/refresh',
      '/api/v1/{app}/platform/wallet/oauth/token',
      '/api/v1/{app}/platform/wallet/oauth/token/refresh',
    ]) {
      expect(doc.paths[path].post.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
      expect(doc.paths[path].post.responses['400']).toBeDefined();
    }
    expect(doc.paths['/oauth/me'].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/oauth2/auth'].get.parameters.map((p: { name: string }) => p.name)).toContain('code_challenge');
    expect(doc.paths['/oauth/token'].post.responses['400'].content['application/json'].examples.E1222.value.error).toBe(
      'invalid_grant',
    );

    const metadata = (await t.http.get('/.well-known/oauth-authorization-server')).body;
    expect(metadata).toMatchObject({
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
    expect(metadata.authorization_endpoint).toBe(`${metadata.issuer}/oauth2/auth`);
    expect(metadata.token_endpoint).toBe(`${metadata.issuer}/oauth/token`);
  });
});
