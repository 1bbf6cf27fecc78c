import type { Mode } from '../../../src/common/context/principal.js';
import { findError } from '../../../src/common/errors/error-catalog.js';
import { expectErrorObject, startApp, type TestApp } from '../../support/harness.js';
import { matrixFixtures } from '../../factories/matrix/fixtures.js';
import {
  CREDENTIALS,
  ENDPOINTS,
  type Credential,
  type Fixtures,
  type RowFixtures,
} from '../../factories/matrix/endpoints.js';

/** Every endpoint × every credential kind: the rows and their expected outcomes are in factories/matrix/endpoints.ts. */
function credentialHeaders(
  f: Fixtures,
  credential: Credential,
  row: RowFixtures,
): { mode: Mode; headers: Record<string, string> } {
  const sessions = { ...f.sessions, ...row.sessions };
  const test = { 'X-Test-Mode': 'true', 'X-Country': 'TH' };
  const bearer = (token: string) => ({ mode: 'test' as Mode, headers: { ...test, Authorization: `Bearer ${token}` } });
  const session = (token: string) => ({ mode: 'test' as Mode, headers: { ...test, 'X-Session-Token': token } });
  switch (credential) {
    case 'none':
      return { mode: 'test', headers: test };
    case 'bad Basic':
      return {
        mode: 'test',
        headers: { ...test, Authorization: `Basic ${Buffer.from('sk_test_not-a-key:').toString('base64')}` },
      };
    case 'test key':
      return { mode: 'test', headers: f.tenant.as('test') };
    case 'live key':
      return { mode: 'live', headers: f.tenant.as('live') };
    case "other app's key":
      return { mode: 'test', headers: { ...test, Authorization: f.other.basic('test') } };
    case 'bad bearer':
      return bearer('wat_' + 'A'.repeat(43));
    case 'user member':
      return bearer(f.bearer.member);
    case 'user non-member':
      return bearer(f.bearer.nonMember);
    case 'superuser':
      return bearer(f.bearer.superuser);
    case 'session, right target':
      return session(sessions.right);
    case 'session, other target':
      return session(sessions.otherTarget);
    case 'session, other app':
      return session(sessions.otherApp);
    case 'session, expired':
      return session(sessions.expired);
  }
}

describe('endpoint × credential matrix', () => {
  let t: TestApp;
  const f = {} as Fixtures;
  const rows = new Map<string, RowFixtures>();

  beforeAll(async () => {
    // Hundreds of deliberately rejected credentials from one address: the failed-authentication
    // throttle (tested in rate-limit.e2e-spec.ts) would answer them 429 before the matrix's codes.
    t = await startApp({ env: { AUTH_FAILURE_RATE_LIMIT: '0' }, liveDoubles: true });
    const prepared = await matrixFixtures(t);
    Object.assign(f, prepared.f);
    for (const [name, row] of prepared.rows) rows.set(name, row);
    // Expire the 60-second session by moving the clock, not by waiting (it worked until then).
    const before = await t.http
      .get(f.tenant.path('/errors/catalog'))
      .set({ 'X-Test-Mode': 'true', 'X-Session-Token': f.sessions.expired });
    expect(before.status).toBe(200);
    t.clock.advance(61_000);
  });
  afterAll(() => t.close());

  const cases = ENDPOINTS.flatMap((endpoint) =>
    CREDENTIALS.map((credential) => [endpoint.name, credential, endpoint] as const),
  );

  it.each(cases)('%s with %s', async (_name, credential, endpoint) => {
    const expected = endpoint.expect[credential];
    const row = rows.get(endpoint.name)!;
    const { mode, headers } = credentialHeaders(f, credential, row);
    let req = t.http[endpoint.method](endpoint.path(f, mode, row)).set(headers);
    if (endpoint.body)
      req = req.send(typeof endpoint.body === 'function' ? endpoint.body(f, mode, row) : endpoint.body);
    const res = await req;
    if (expected === 200) {
      expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
      return;
    }
    const definition = findError(expected)!;
    expect({ status: res.status, code: res.body.code }).toEqual({ status: definition.http_status, code: expected });
    expectErrorObject(res.body, expected);
    if (res.status === 401) expect(res.headers['www-authenticate']).toBeTruthy();
  });
});
