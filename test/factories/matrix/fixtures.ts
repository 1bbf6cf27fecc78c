import { createTenant, type TestApp } from '../../support/harness.js';
import { createUser, issueSession, tokensFor } from '../auth.js';
import { ENDPOINTS, type EndpointCase, type Fixtures, type RowFixtures } from './endpoints.js';

/**
 * The records every matrix over ENDPOINTS calls with: two tenants, bearer tokens (a member of the
 * first, a member of the other, a superuser), sessions, a customer per mode, and each row's own
 * records from its `setup`. Sessions of 60 s expire when the caller moves the clock by 61 s.
 */
export async function matrixFixtures(
  t: TestApp,
  /** The rows whose `setup` to run (every row when absent). */
  only?: (endpoint: EndpointCase) => boolean,
): Promise<{ f: Fixtures; rows: Map<string, RowFixtures> }> {
  const f = {} as Fixtures;
  const rows = new Map<string, RowFixtures>();
  f.tenant = await createTenant(t);
  f.other = await createTenant(t);
  const [member, nonMember, superuser] = await Promise.all([
    createUser(t, { member: f.tenant }),
    createUser(t, { member: f.other }),
    createUser(t, { superuser: true }),
  ]);
  f.bearer = {
    member: (await tokensFor(t, member)).access_token,
    nonMember: (await tokensFor(t, nonMember)).access_token,
    superuser: (await tokensFor(t, superuser)).access_token,
  };
  f.targetId = 'target-right';
  f.sessions = {
    right: (await issueSession(t, f.tenant, { targetId: f.targetId, ttlSeconds: 3600 })).token,
    otherTarget: (await issueSession(t, f.tenant, { targetId: 'target-other', ttlSeconds: 3600 })).token,
    otherApp: (await issueSession(t, f.other, { targetId: f.targetId, ttlSeconds: 3600 })).token,
    expired: (await issueSession(t, f.tenant, { targetId: f.targetId, ttlSeconds: 60 })).token,
  };
  f.customers = {
    test: (await t.http.post(f.tenant.path('/customers')).set(f.tenant.as('test')).send({ name: 'T' })).body.id,
    live: (await t.http.post(f.tenant.path('/customers')).set(f.tenant.as('live')).send({ name: 'L' })).body.id,
  };
  for (const endpoint of ENDPOINTS) {
    if (only && !only(endpoint)) continue;
    rows.set(endpoint.name, endpoint.setup ? await endpoint.setup(t, f) : { ids: {} });
  }
  return { f, rows };
}
