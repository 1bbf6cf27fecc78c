import type { AuditRecorder, AuthFailure } from '../../../common/audit/audit-recorder.js';
import 'reflect-metadata';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ClsService } from 'nestjs-cls';
import type { IdempotencyRepository } from '../../../common/idempotency/idempotency.repository.js';
import { SessionStrategy } from './session.strategy.js';
import type { SessionsService, VerifiedSession } from '../sessions.service.js';
import type { ApplicationRef, Principal } from '../../../common/context/principal.js';
import { RequestContext, type WalletStore } from '../../../common/context/request-context.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Auth, SessionPurposes } from '../../../common/http/decorators.js';
import type { RoutePermissions } from '../../../common/auth/route-permissions.js';
import { AuthGuard, presentedCredential } from '../../../common/auth/auth.guard.js';
import type { Request } from 'express';
import type { ConfigService } from '@nestjs/config';
import { Clock } from '../../../common/clock.js';
import { AuthFailureThrottle } from '../../../common/rate-limit/auth-failure-throttle.js';
import { InMemoryRateLimitStore } from '../../../common/rate-limit/rate-limit.store.js';
import type { AllConfig } from '../../../config/app.config.js';

class Endpoints {
  @Auth('none')
  @SessionPurposes('checkout')
  checkoutOnly() {}

  @Auth('machine', 'user', 'superuser', 'none')
  anyCaller() {}

  @Auth('machine')
  machineOnly() {}
}

const APP: ApplicationRef = { id: 'app-1', slug: 'app-1', name: 'App', countries: ['TH'] };
const SESSIONS: Record<string, VerifiedSession> = {
  'wss-checkout': { sessionId: 's1', applicationId: 'app-1', mode: 'test', purpose: 'checkout', targetId: 'co_1' },
  'wss-intent': {
    sessionId: 's2',
    applicationId: 'app-1',
    mode: 'test',
    purpose: 'bank_account_intent',
    targetId: 'bai_1',
  },
  'wss-other-app': { sessionId: 's3', applicationId: 'app-2', mode: 'test', purpose: 'checkout', targetId: 'co_1' },
};

/**
 * The guard with the real session strategy; the session lookup answers from the table above
 * (after `lookupDelay`, when given). `failureLimit`: the failed-authentication budget (0: none).
 */
function setup(
  requestedMode?: 'test' | 'live',
  { failureLimit = 0, lookupDelay }: { failureLimit?: number; lookupDelay?: Promise<void> } = {},
) {
  // The request's store as nestjs-cls keeps it: one object, which `get()` without a key answers.
  const fields: Record<string, unknown> = { application: APP, requestedMode };
  const store = { get: (key: string) => fields[key] };
  const cls = {
    isActive: () => true,
    get: (key?: string) => (key === undefined ? fields : fields[key]),
    set: (key: string, value: unknown) => {
      fields[key] = value;
    },
  } as unknown as ClsService<WalletStore>;
  const context = new RequestContext(cls);
  const verify = async (token: string) => {
    await lookupDelay;
    return SESSIONS[token] ?? null;
  };
  new SessionStrategy(
    { verify } as unknown as SessionsService,
    {
      holdsWorkOf: async () => false,
    } as unknown as IdempotencyRepository,
  );
  const settings: Record<string, number> = { 'app.authFailureLimit': failureLimit, 'app.rateLimitWindowMs': 60_000 };
  const failures = new AuthFailureThrottle(
    { get: (key: string) => settings[key] } as unknown as ConfigService<AllConfig, true>,
    new Clock(),
    new InMemoryRateLimitStore(),
  );
  const audit = {
    noted: [] as AuthFailure[],
    record: async () => undefined,
    noteAuthFailure(failure: AuthFailure) {
      this.noted.push(failure);
    },
  };
  // Session-only endpoints: permissions.ts limits keys and roles, not sessions, so no route table is needed here.
  const guard = new AuthGuard(
    new Reflector(),
    context,
    failures,
    { of: () => undefined } as unknown as RoutePermissions,
    audit as unknown as AuditRecorder,
  );
  const call = async (handler: keyof Endpoints, headers: Record<string, string>) => {
    const req = { headers, query: {}, params: {}, ip: '192.0.2.1' } as { headers: Record<string, string> };
    const ctx = {
      getType: () => 'http',
      getHandler: () => Endpoints.prototype[handler],
      getClass: () => Endpoints,
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}) }),
    } as unknown as ExecutionContext;
    await guard.canActivate(ctx);
    return req;
  };
  return { call, store, audit };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.definition.code;
    throw err;
  }
}

describe('AuthGuard with one-time sessions', () => {
  it('admits a session of the declared purpose with privilege none, in the session mode', async () => {
    const { call, store } = setup();
    await call('checkoutOnly', { 'x-session-token': 'wss-checkout' });
    const principal = store.get('principal') as Principal;
    expect(principal.credential).toEqual({
      applicationId: 'app-1',
      mode: 'test',
      privilege: 'none',
      method: 'session',
      subject: 's1',
      session: { purpose: 'checkout', targetId: 'co_1' },
    });
    expect(principal.mode).toBe('test');
    expect(principal.application).toBe(APP);
  });

  it('refuses a session of another purpose, another application or the other mode with E1300', async () => {
    expect(await codeOf(setup().call('checkoutOnly', { 'x-session-token': 'wss-intent' }))).toBe('E1300');
    expect(await codeOf(setup().call('checkoutOnly', { 'x-session-token': 'wss-other-app' }))).toBe('E1300');
    expect(await codeOf(setup('live').call('checkoutOnly', { 'x-session-token': 'wss-checkout' }))).toBe('E1300');
  });

  it('accepts any purpose where none is declared, and refuses sessions where the endpoint takes none', async () => {
    expect(await codeOf(setup().call('anyCaller', { 'x-session-token': 'wss-intent' }))).toBe('ok');
    expect(await codeOf(setup().call('machineOnly', { 'x-session-token': 'wss-checkout' }))).toBe('E1200');
  });

  it('answers E1212 for an unknown token and E1213 without any credential', async () => {
    expect(await codeOf(setup().call('checkoutOnly', { 'x-session-token': 'wss-nope' }))).toBe('E1212');
    expect(await codeOf(setup().call('checkoutOnly', {}))).toBe('E1213');
  });

  it('looks at Authorization first, so a bad Basic header beats a good session', async () => {
    expect(
      await codeOf(setup().call('anyCaller', { authorization: 'Digest x', 'x-session-token': 'wss-checkout' })),
    ).toBe('E1200');
  });

  it('notes each failed authentication for the audit log by the scheme tried', async () => {
    const { call, audit } = setup();
    expect(await codeOf(call('anyCaller', { authorization: 'Digest x' }))).toBe('E1200');
    expect(await codeOf(call('checkoutOnly', { 'x-session-token': 'wss-nope' }))).toBe('E1212');
    expect(audit.noted).toEqual([
      { applicationId: 'app-1', clientAddress: '192.0.2.1', credential: 'digest' },
      { applicationId: 'app-1', clientAddress: '192.0.2.1', credential: 'session' },
    ]);
  });

  it('names a presented secret key by its public prefix only, never the key', () => {
    const key = 'sk_test_ABCDEFGHIJKLmnopqrstuvwxyz0123456789';
    const basic = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    expect(presentedCredential({ headers: { authorization: basic } } as unknown as Request)).toBe(
      'sk_test_ABCDEFGHIJKL',
    );
    expect(presentedCredential({ headers: { authorization: 'Bearer wat_secret' } } as unknown as Request)).toBe(
      'bearer',
    );
    expect(presentedCredential({ headers: {} } as unknown as Request)).toBe('none');
  });
});

describe('AuthGuard and the failed-authentication budget', () => {
  it('answers at most the budget of 401s when failures race: the ones counted over it get E2429', async () => {
    let release!: () => void;
    const lookupDelay = new Promise<void>((resolve) => (release = resolve));
    const { call } = setup(undefined, { failureLimit: 5, lookupDelay });
    // All ten are being looked up before any has failed.
    const codes = Array.from({ length: 10 }, () => codeOf(call('checkoutOnly', { 'x-session-token': 'wss-nope' })));
    release();
    const answered = await Promise.all(codes);
    expect(answered.filter((c) => c === 'E1212')).toHaveLength(5);
    expect(answered.filter((c) => c === 'E2429')).toHaveLength(5);
    // The budget is spent: a further failure is E2429, and a valid session is still admitted.
    expect(await codeOf(call('checkoutOnly', { 'x-session-token': 'wss-nope' }))).toBe('E2429');
    expect(await codeOf(call('checkoutOnly', { 'x-session-token': 'wss-checkout' }))).toBe('ok');
  });

  it('does not count a valid credential, nor refuse it before or after the budget is spent', async () => {
    const { call } = setup(undefined, { failureLimit: 2 });
    for (let i = 0; i < 5; i++)
      expect(await codeOf(call('checkoutOnly', { 'x-session-token': 'wss-checkout' }))).toBe('ok');
    expect(await codeOf(call('checkoutOnly', { 'x-session-token': 'wss-nope' }))).toBe('E1212');
    expect(await codeOf(call('checkoutOnly', { 'x-session-token': 'wss-checkout' }))).toBe('ok');
    expect(await codeOf(call('checkoutOnly', { 'x-session-token': 'wss-nope' }))).toBe('E1212');
    expect(await codeOf(call('checkoutOnly', { 'x-session-token': 'wss-nope' }))).toBe('E2429');
    expect(await codeOf(call('checkoutOnly', { 'x-session-token': 'wss-checkout' }))).toBe('ok');
  });
});
