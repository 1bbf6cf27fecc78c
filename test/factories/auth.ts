import { createHash, randomBytes } from 'node:crypto';
import type { Mode } from '../../src/common/context/principal.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { OAuthService, SessionsService } from '../../src/modules/auth/index.js';
import { UsersService } from '../../src/modules/users/index.js';
import type { Tenant, TestApp } from '../support/harness.js';

let counter = 0;

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

/** A user made through the same service the CLI uses; optionally a member of `member` or a superuser. */
export async function createUser(
  t: TestApp,
  options: { member?: Tenant; role?: string; superuser?: boolean } = {},
): Promise<TestUser> {
  counter += 1;
  const email = `user-${process.pid}-${Date.now().toString(36)}-${counter}@example.test`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const users = t.app.get(UsersService);
  const created = await users.create({ email, password, superuser: options.superuser });
  if (options.member) await users.grant({ email, app: options.member.slug, role: options.role ?? 'developer' });
  return { id: created.id, email, password };
}

export async function createClient(
  t: TestApp,
  type: 'public' | 'confidential',
  redirectUri = 'http://127.0.0.1:9/callback',
) {
  return t.app.get(OAuthService).createClient({ name: `Test ${type} client`, type, redirectUris: [redirectUri] });
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Signs in through the login form (plain HTTP, no browser) and returns the code from the redirect. */
export async function signIn(
  t: TestApp,
  input: {
    clientId: string;
    redirectUri: string;
    user: TestUser;
    challenge?: string;
    state?: string;
    password?: string;
  },
): Promise<{ status: number; location?: URL; html: string }> {
  const params = {
    response_type: 'code',
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    scope: 'wallet',
    state: input.state ?? 'st-' + randomBytes(6).toString('hex'),
    ...(input.challenge ? { code_challenge: input.challenge, code_challenge_method: 'S256' } : {}),
  };
  const res = await t.http
    .post('/oauth/authorize')
    .type('form')
    .send({ ...params, email: input.user.email, password: input.password ?? input.user.password });
  return {
    status: res.status,
    location: res.headers.location ? new URL(res.headers.location) : undefined,
    html: res.text,
  };
}

/** The whole code flow for a public client over plain HTTP: the tokens of `user`. */
export async function tokensFor(t: TestApp, user: TestUser, client?: { client_id: string; redirect_uris: string[] }) {
  const c = client ?? (await createClient(t, 'public'));
  const { verifier, challenge } = pkcePair();
  const signedIn = await signIn(t, { clientId: c.client_id, redirectUri: c.redirect_uris[0], user, challenge });
  const code = signedIn.location?.searchParams.get('code');
  if (!code) throw new Error(`sign-in did not redirect with a code: ${signedIn.status} ${signedIn.location}`);
  const res = await t.http.post('/oauth/token').type('form').send({
    grant_type: 'authorization_code',
    code,
    redirect_uri: c.redirect_uris[0],
    client_id: c.client_id,
    code_verifier: verifier,
  });
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    token_type: string;
    scope: string;
  };
}

/** Issues a one-time session as a hosted-flow endpoint would, inside a context bound to the tenant and mode. */
export async function issueSession(
  t: TestApp,
  tenant: Tenant,
  input: { mode?: Mode; purpose?: string; targetId?: string; ttlSeconds?: number } = {},
) {
  const context = t.app.get(RequestContext);
  const application = { id: tenant.applicationId, slug: tenant.slug, name: tenant.slug, countries: ['TH'] };
  return context.runInMode(
    input.mode ?? 'test',
    () =>
      t.app.get(SessionsService).issue({
        purpose: input.purpose ?? 'checkout',
        targetId: input.targetId ?? 'target-1',
        ttlSeconds: input.ttlSeconds ?? 900,
      }),
    { application },
  );
}
