import {
  RESOURCE_GROUPS,
  ROLES,
  requirementOf,
  type Access,
  type PermissionGroup,
  type Role,
} from '../../../src/common/auth/permissions.js';
import type { Mode } from '../../../src/common/context/principal.js';
import { findError } from '../../../src/common/errors/error-catalog.js';
import { createUser, tokensFor } from '../../factories/auth.js';
import { ENDPOINTS, documentedOperation, type EndpointCase, type Outcome } from '../../factories/matrix/endpoints.js';
import { matrixFixtures } from '../../factories/matrix/fixtures.js';
import { expectErrorObject, startApp, type TestApp } from '../../support/harness.js';

type Verdict = 'allowed' | 'E1241' | 'E1244';

/**
 * docs/SECURITY.md's roles table, row by row, written out here rather than read from permissions.ts:
 * a change to the table in the code that the documentation does not make fails this test.
 */
const ROLES_TABLE: Record<Role, (group: PermissionGroup, access: Access, mode: Mode) => Verdict> = {
  owner: () => 'allowed',
  admin: () => 'allowed',
  developer: (group, access, mode) =>
    group === 'audit_events'
      ? 'E1241'
      : access === 'write' && mode === 'live' && (group === 'api_keys' || group === 'webhook_endpoints')
        ? 'E1244'
        : 'allowed',
  analyst: (group, access) =>
    group === 'audit_events'
      ? 'E1241'
      : access === 'read' || group === 'reports' || group === 'reconciliation'
        ? 'allowed'
        : 'E1241',
  viewer: (group, access) =>
    access === 'read' && group !== 'api_keys' && group !== 'audit_events' ? 'allowed' : 'E1241',
};

/** The routes that stand for each group and access: the first read and the first write row of each group. */
function representatives(): Array<{ endpoint: EndpointCase; group: PermissionGroup; access: Access }> {
  const out = new Map<string, { endpoint: EndpointCase; group: PermissionGroup; access: Access }>();
  for (const endpoint of ENDPOINTS) {
    const [method, path] = documentedOperation(endpoint).split(' ');
    const requirement = requirementOf(method, path);
    if (requirement === undefined || typeof requirement === 'string') continue;
    const key = `${requirement.group}:${requirement.access}`;
    if (!out.has(key)) out.set(key, { endpoint, ...requirement });
  }
  // The one route that shows a webhook endpoint's signing secret: a viewer must not reach it.
  const rotate = ENDPOINTS.find((e) => e.name === 'POST /webhook_endpoints/:id/rotate_secret')!;
  out.set('webhook_endpoints:write (secret)', { endpoint: rotate, group: 'webhook_endpoints', access: 'write' });
  return [...out.values()];
}

const ROUTES = representatives();
/** Live-mode writes: the test-mode-only rules, and one ordinary group to show live writes are not all refused. */
const LIVE_GROUPS: PermissionGroup[] = ['api_keys', 'webhook_endpoints', 'customers', 'reports'];

describe('roles × representative routes (docs/SECURITY.md, "Roles")', () => {
  let t: TestApp;
  let prepared: Awaited<ReturnType<typeof matrixFixtures>>;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await startApp({ env: { AUTH_FAILURE_RATE_LIMIT: '0' }, liveDoubles: true });
    prepared = await matrixFixtures(t, (endpoint) => ROUTES.some((r) => r.endpoint === endpoint));
    for (const role of ROLES) {
      const user = await createUser(t, { member: prepared.f.tenant, role });
      tokens[role] = (await tokensFor(t, user)).access_token;
    }
  });
  afterAll(() => t.close());

  it('covers every resource group and the account group, reading and writing', () => {
    const covered = new Set(ROUTES.map((r) => `${r.group}:${r.access}`));
    const groups = [...RESOURCE_GROUPS, 'api_keys', 'audit_events'];
    // Groups without a route of one kind (the audit log is read-only) are listed, so a new route there shows up here.
    const missing = groups
      .flatMap((g) => (['read', 'write'] as const).map((a) => `${g}:${a}`))
      .filter((k) => !covered.has(k));
    expect(missing).toEqual(['audit_events:write']);
  });

  const cases = ROLES.flatMap((role) => [
    ...ROUTES.map((r) => [role, 'test' as Mode, r] as const),
    ...ROUTES.filter((r) => r.access === 'write' && LIVE_GROUPS.includes(r.group)).map(
      (r) => [role, 'live' as Mode, r] as const,
    ),
  ]);

  it.each(cases.map((c) => [`${c[0]} ${c[2].endpoint.name} (${c[2].group}:${c[2].access}, ${c[1]})`, ...c] as const))(
    '%s',
    async (_name, role, mode, { endpoint, group, access }) => {
      const { f, rows } = prepared;
      const row = rows.get(endpoint.name)!;
      // A route members cannot call at all (meter events: keys and superusers, decisions.md) is E1300 before roles.
      const verdict = endpoint.expect['user member'] === 'E1300' ? 'allowed' : ROLES_TABLE[role](group, access, mode);
      // Allowed: what the credential matrix's member (a developer, test mode) or live key gets on the row.
      const expected: Outcome =
        verdict === 'allowed'
          ? mode === 'test'
            ? endpoint.expect['user member']
            : endpoint.expect['live key']
          : verdict;
      let req = t.http[endpoint.method](endpoint.path(f, mode, row)).set({
        Authorization: `Bearer ${tokens[role]}`,
        'X-Test-Mode': mode === 'test' ? 'true' : 'false',
        'X-Country': 'TH',
      });
      if (endpoint.body)
        req = req.send(typeof endpoint.body === 'function' ? endpoint.body(f, mode, row) : endpoint.body);
      const res = await req;
      if (expected === 200) {
        expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
        return;
      }
      // A live key's outcome on a bearer-only route is E1200, and the matrix's member (a developer) is
      // refused the owners' routes (E1241): a role allowed there answers 200.
      if (verdict === 'allowed' && (expected === 'E1200' || expected === 'E1241')) {
        expect(res.status).toBe(200);
        return;
      }
      expect({ status: res.status, code: res.body.code }).toEqual({
        status: findError(expected)!.http_status,
        code: expected,
      });
      expectErrorObject(res.body, expected);
      if (verdict !== 'allowed') {
        expect(res.body.params).toEqual({
          permission: `${group}:${access}`,
          role,
          allowed_roles: ROLES.filter((r) => ROLES_TABLE[r](group, access, mode) === 'allowed'),
        });
      }
    },
  );
});
