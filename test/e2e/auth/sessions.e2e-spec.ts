import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SessionsService } from '../../../src/modules/auth/index.js';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { issueSession } from '../../factories/auth.js';

describe('one-time sessions', () => {
  let t: TestApp;
  let tenant: Tenant;
  const catalog = (headers: Record<string, string>) => t.http.get(tenant.path('/errors/catalog')).set(headers);

  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t);
  });
  afterEach(() => t.clock.reset());
  afterAll(() => t.close());

  it('issues a token bound to the application, mode, purpose and target, stored only as a hash', async () => {
    const issued = await issueSession(t, tenant, {
      purpose: 'bank_account_intent',
      targetId: 'intent-1',
      ttlSeconds: 600,
    });
    expect(issued.token).toMatch(/^wss_[A-Za-z0-9_-]{43}$/);
    expect(issued.expiresAt.getTime() - t.clock.nowMs()).toBeGreaterThan(599_000);
    const verified = await t.app.get(SessionsService).verify(issued.token);
    expect(verified).toEqual({
      sessionId: issued.sessionId,
      applicationId: tenant.applicationId,
      mode: 'test',
      purpose: 'bank_account_intent',
      targetId: 'intent-1',
    });
    const db = t.app.get<DataSource>(getDataSourceToken('platform'));
    const [row] = await db.query(
      `SELECT row_to_json(s)::text AS json FROM platform.one_time_sessions s WHERE id = $1`,
      [issued.sessionId],
    );
    expect(row.json).not.toContain(issued.token.slice(4));
    const res = await catalog({ 'X-Session-Token': issued.token });
    expect(res.status).toBe(200);
  });

  it('refuses a completed session with E1212 and WWW-Authenticate', async () => {
    const issued = await issueSession(t, tenant);
    expect((await catalog({ 'X-Session-Token': issued.token })).status).toBe(200);
    await t.app.get(RequestContext).runInMode('test', () => t.app.get(SessionsService).complete(issued.sessionId));
    const used = await catalog({ 'X-Session-Token': issued.token });
    expect(used.status).toBe(401);
    expectErrorObject(used.body, 'E1212');
    expect(used.headers['www-authenticate']).toMatch(/^Session/);
  });

  it('expires a session at its ttl on the service clock', async () => {
    const issued = await issueSession(t, tenant, { ttlSeconds: 900 });
    t.clock.advance(899_000);
    expect((await catalog({ 'X-Session-Token': issued.token })).status).toBe(200);
    t.clock.advance(2_000);
    const expired = await catalog({ 'X-Session-Token': issued.token });
    expect(expired.status).toBe(401);
    expectErrorObject(expired.body, 'E1212');
  });

  it('takes the mode from the session and refuses the other mode with E1300', async () => {
    const live = await issueSession(t, tenant, { mode: 'live' });
    expect((await catalog({ 'X-Session-Token': live.token })).status).toBe(200);
    expect((await catalog({ 'X-Session-Token': live.token, 'X-Test-Mode': 'false' })).status).toBe(200);
    const onTest = await catalog({ 'X-Session-Token': live.token, 'X-Test-Mode': 'true' });
    expect(onTest.status).toBe(403);
    expectErrorObject(onTest.body, 'E1300');
  });

  it('lets Authorization win over X-Session-Token, and refuses garbage tokens with E1212', async () => {
    const issued = await issueSession(t, tenant);
    const badBasic = await catalog({
      Authorization: `Basic ${Buffer.from('nope:').toString('base64')}`,
      'X-Session-Token': issued.token,
      'X-Test-Mode': 'true',
    });
    expect(badBasic.status).toBe(401);
    expectErrorObject(badBasic.body, 'E1211');
    for (const token of [
      'wss_short',
      issued.token.slice(0, -1) + (issued.token.endsWith('A') ? 'B' : 'A'),
      "' OR 1=1 --",
    ]) {
      const res = await catalog({ 'X-Session-Token': token });
      expect(res.status).toBe(401);
      expectErrorObject(res.body, 'E1212');
    }
  });

  it('refuses nonsensical issue requests', async () => {
    await expect(issueSession(t, tenant, { ttlSeconds: 0 })).rejects.toThrow(/ttlSeconds/);
    await expect(issueSession(t, tenant, { ttlSeconds: 8 * 24 * 3600 })).rejects.toThrow(/ttlSeconds/);
  });
});
