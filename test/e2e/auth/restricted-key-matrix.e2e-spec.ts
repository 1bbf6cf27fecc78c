import {
  keyAllows,
  PERMISSION_LEVELS,
  RESOURCE_GROUPS,
  requirementOf,
  WALLET_ROUTES,
  OTHER_ROUTES,
  WALLET_BASE_PATH,
  type Access,
  type PermissionLevel,
  type ResourceGroup,
  type RestrictedPermissions,
} from '../../../src/common/auth/permissions.js';
import { findError } from '../../../src/common/errors/error-catalog.js';
import { ApiKeysService } from '../../../src/modules/applications/index.js';
import { ENDPOINTS, documentedOperation, type EndpointCase, type Outcome } from '../../factories/matrix/endpoints.js';
import { matrixFixtures } from '../../factories/matrix/fixtures.js';
import { expectErrorObject, startApp, type TestApp } from '../../support/harness.js';
import { recordSecret } from '../../support/secrets.js';

/** Outcomes decided before the permission check (the credential kind, the application): the same for every key. */
const BEFORE_PERMISSIONS = new Set(['E1200', 'E1211', 'E1213', 'E1300']);

type Level = PermissionLevel;

const isResourceGroup = (group: string): group is ResourceGroup =>
  (RESOURCE_GROUPS as readonly string[]).includes(group);

/**
 * The key a case calls with: for `none`, every other group at `write` and this one at `none` (so a
 * key's other permissions are seen not to leak into this group); else only this group at `level`.
 */
function permissionsFor(group: ResourceGroup | null, level: Level): Partial<RestrictedPermissions> {
  if (group === null) return {};
  if (level !== 'none') return { [group]: level };
  return Object.fromEntries(RESOURCE_GROUPS.filter((g) => g !== group).map((g) => [g, 'write']));
}

/**
 * Every documented operation × (none, read, write) for a restricted key, expectations derived from
 * permissions.ts: an allowed call gets exactly what a secret key gets in the credential matrix (its
 * row's `test key` outcome: 200, or the handler's own code for the row's records), any other call
 * is 403 E1240 whose `params.permission` names `group:access`.
 */
describe('restricted key × every route (permissions.ts)', () => {
  let t: TestApp;
  let documented: Array<{ operation: string; authenticated: boolean }>;
  const keys = new Map<string, string>();
  let prepared: Awaited<ReturnType<typeof matrixFixtures>>;

  beforeAll(async () => {
    t = await startApp({ env: { AUTH_FAILURE_RATE_LIMIT: '0' }, liveDoubles: true });
    const doc = (await t.http.get('/docs-json')).body as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post', 'delete', 'put', 'patch'].includes(method))
        .map(([method, op]) => ({
          operation: `${method.toUpperCase()} ${path}`,
          authenticated: (op.security ?? []).length > 0,
        })),
    );
    prepared = await matrixFixtures(t);
    const service = t.app.get(ApiKeysService);
    const make = async (name: string, permissions: Partial<RestrictedPermissions>) => {
      const created = await service.createRestrictedKey(prepared.f.tenant.applicationId, 'test', { name, permissions });
      recordSecret(created.secret);
      keys.set(name, created.secret!);
    };
    await make('nothing', {});
    for (const group of RESOURCE_GROUPS)
      for (const level of PERMISSION_LEVELS) await make(`${group}:${level}`, permissionsFor(group, level));
  });
  afterAll(() => t.close());

  it('has an entry in permissions.ts for every documented authenticated operation', () => {
    const missing = documented
      .filter((d) => d.authenticated)
      .filter((d) => {
        const [method, path] = d.operation.split(' ');
        return requirementOf(method, path) === undefined;
      })
      .map((d) => d.operation);
    expect({ 'operations without a permission entry': missing }).toEqual({
      'operations without a permission entry': [],
    });
  });

  it('names only documented authenticated operations in permissions.ts', () => {
    const known = new Set(documented.filter((d) => d.authenticated).map((d) => d.operation));
    const entries = [
      ...Object.keys(WALLET_ROUTES).map((k) => k.replace(' ', ` ${WALLET_BASE_PATH}`)),
      ...Object.keys(OTHER_ROUTES),
    ];
    expect({ stale: entries.filter((e) => !known.has(e)) }).toEqual({ stale: [] });
  });

  type Case = readonly [string, EndpointCase, { group: ResourceGroup; access: Access } | null, Level];
  const cases = ENDPOINTS.flatMap((endpoint): Case[] => {
    const [method, path] = documentedOperation(endpoint).split(' ');
    const requirement = requirementOf(method, path);
    if (requirement === undefined) return [];
    // Routes any credential may call, session-only routes and account management (never grantable):
    // one case, with a key that has no permission at all.
    if (typeof requirement === 'string' || !isResourceGroup(requirement.group))
      return [[`${endpoint.name} (${JSON.stringify(requirement)})`, endpoint, null, 'none' as Level] as const];
    const resource = { group: requirement.group, access: requirement.access };
    return PERMISSION_LEVELS.map(
      (level) => [`${endpoint.name} with ${requirement.group}:${level}`, endpoint, resource, level] as const,
    );
  });

  it.each(cases)('%s', async (_name, endpoint, requirement, level) => {
    const { f, rows } = prepared;
    const row = rows.get(endpoint.name)!;
    const key = keys.get(requirement ? `${requirement.group}:${level}` : 'nothing')!;
    const secretKeyOutcome = endpoint.expect['test key'];
    const permission = requirement ? `${requirement.group}:${requirement.access}` : undefined;
    const allowed =
      requirement === null ||
      BEFORE_PERMISSIONS.has(String(secretKeyOutcome)) ||
      keyAllows(permissionsFor(requirement.group, level), requirement.group, requirement.access);
    const expected: Outcome = allowed ? secretKeyOutcome : 'E1240';

    let req = t.http[endpoint.method](endpoint.path(f, 'test', row)).set(
      f.tenant.as('test', { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }),
    );
    if (endpoint.body)
      req = req.send(typeof endpoint.body === 'function' ? endpoint.body(f, 'test', row) : endpoint.body);
    const res = await req;
    if (expected === 200) {
      expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
      return;
    }
    expect({ status: res.status, code: res.body.code }).toEqual({
      status: findError(expected)!.http_status,
      code: expected,
    });
    expectErrorObject(res.body, expected);
    if (expected === 'E1240') expect(res.body.params).toEqual({ permission });
  });
});
