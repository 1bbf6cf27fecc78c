import { type CanActivate, type ExecutionContext, Injectable, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportAuthGuard, type IAuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import type { Credential, Mode, Principal, Privilege } from '../context/principal.js';
import { RequestContext } from '../context/request-context.js';
import { AppError } from '../errors/app-error.js';
import { type ErrorDefinition, Errors } from '../errors/error-catalog.js';
import { AUTH_PRIVILEGES, MODE_FROM_CREDENTIAL, PUBLIC_ROUTE, SESSION_PURPOSES } from '../http/decorators.js';
import { AuditRecorder } from '../audit/audit-recorder.js';
import { AuthFailureThrottle } from '../rate-limit/auth-failure-throttle.js';
import { AccessErrors } from './access.errors.js';
import { keyAllows } from './permissions.js';
import { type ResolvedRequirement, RoutePermissions } from './route-permissions.js';

type CredentialKind = 'basic' | 'bearer' | 'session';

/** The Passport strategy behind each credential kind, and the code for a credential it rejects. */
export const STRATEGIES: Record<CredentialKind, { name: string; invalid: ErrorDefinition; challenge: string }> = {
  basic: { name: 'secret-key', invalid: Errors.E1211, challenge: 'Basic realm="wallet"' },
  bearer: { name: 'bearer', invalid: Errors.E1210, challenge: 'Bearer realm="wallet", error="invalid_token"' },
  session: { name: 'session', invalid: Errors.E1212, challenge: 'Session realm="wallet"' },
};

const KIND_OF_PRIVILEGE: Record<Privilege, CredentialKind> = {
  machine: 'basic',
  user: 'bearer',
  superuser: 'bearer',
  none: 'session',
};

/** A route's `@Auth(...)`, `@Public()`, `@SessionPurposes(...)` and `@ModeFromCredential()`, read once. */
interface RoutePolicy {
  public: boolean;
  privileges: Privilege[];
  /** The credential kinds the privileges accept. */
  kinds: Set<CredentialKind>;
  sessionPurposes: string[] | undefined;
  modeFromCredential: boolean;
  /** The route's entry in permissions.ts (resolved at boot by RoutePermissions). */
  requirement: ResolvedRequirement | 'any' | 'session' | undefined;
}

/** Where `@nestjs/passport` leaves the strategy's result on the request; the guard moves it to the context. */
const CREDENTIAL_PROPERTY = 'walletCredential';

function credentialKind(req: Request): CredentialKind {
  const authorization = req.headers.authorization;
  if (authorization !== undefined && authorization !== '') {
    const scheme = authorization.split(' ', 1)[0].toLowerCase();
    if (scheme === 'basic') return 'basic';
    if (scheme === 'bearer') return 'bearer';
    throw new AppError(Errors.E1200, `The Authorization scheme "${scheme}" is not supported; use Basic or Bearer.`);
  }
  // Authorization wins; the session header is looked at only without it.
  const session = req.headers['x-session-token'];
  if (typeof session === 'string' && session !== '') return 'session';
  throw new AppError(Errors.E1213);
}

/**
 * `@nestjs/passport`'s guard for one strategy: no Passport session, the credential left on the
 * request under a private property, and a rejected credential answered with the catalog code and
 * the strategy's challenge.
 */
function strategyGuard(kind: CredentialKind): Type<IAuthGuard> {
  const { name, invalid, challenge } = STRATEGIES[kind];
  class StrategyGuard extends PassportAuthGuard(name) {
    override getAuthenticateOptions() {
      return { session: false, property: CREDENTIAL_PROPERTY };
    }

    override handleRequest<T>(err: unknown, credential: T | false): T {
      if (err instanceof AppError) {
        if (err.status === 401 && !err.headers['WWW-Authenticate']) {
          throw new AppError(err.definition, err.detail, { ...err.headers, 'WWW-Authenticate': challenge });
        }
        throw err;
      }
      // An unregistered strategy means the service cannot check this kind of credential at all.
      if (err instanceof Error && /Unknown authentication strategy/.test(err.message)) {
        throw new AppError(Errors.E1200, 'This kind of credential is not accepted by the service.');
      }
      if (err) throw err;
      if (!credential) throw new AppError(invalid, undefined, { 'WWW-Authenticate': challenge });
      return credential;
    }
  }
  return StrategyGuard;
}

const STRATEGY_GUARDS: Record<CredentialKind, Type<IAuthGuard>> = {
  basic: strategyGuard('basic'),
  bearer: strategyGuard('bearer'),
  session: strategyGuard('session'),
};

/**
 * The one auth guard: picks the Passport strategy from the credential (as novu's guard picks from
 * the scheme), then checks privilege, application and mode against the endpoint's `@Auth(...)`
 * declaration and writes the request's one `Principal` into the context. No declaration: no access.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly guards: Record<CredentialKind, IAuthGuard> = {
    basic: new STRATEGY_GUARDS.basic(),
    bearer: new STRATEGY_GUARDS.bearer(),
    session: new STRATEGY_GUARDS.session(),
  };

  constructor(
    private readonly reflector: Reflector,
    private readonly context: RequestContext,
    private readonly failures: AuthFailureThrottle,
    private readonly permissions: RoutePermissions,
    private readonly audit: AuditRecorder,
  ) {}

  /** Each route's policy, read from its decorators on its first request (handler, then controller class). */
  private readonly policies = new WeakMap<object, WeakMap<object, RoutePolicy>>();

  private policyOf(ctx: ExecutionContext): RoutePolicy {
    const handler = ctx.getHandler();
    const controller = ctx.getClass();
    let byClass = this.policies.get(handler);
    if (!byClass) this.policies.set(handler, (byClass = new WeakMap()));
    let policy = byClass.get(controller);
    if (!policy) {
      const targets = [handler, controller];
      const privileges = this.reflector.getAllAndOverride<Privilege[]>(AUTH_PRIVILEGES, targets) ?? [];
      policy = {
        public: this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) === true,
        privileges,
        kinds: new Set(privileges.map((p) => KIND_OF_PRIVILEGE[p])),
        sessionPurposes: this.reflector.getAllAndOverride<string[]>(SESSION_PURPOSES, targets),
        modeFromCredential: this.reflector.getAllAndOverride<boolean>(MODE_FROM_CREDENTIAL, targets) === true,
        requirement: this.permissions.of(handler),
      };
      byClass.set(controller, policy);
    }
    return policy;
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const policy = this.policyOf(ctx);
    if (policy.public) return true;
    const req = ctx.switchToHttp().getRequest<Request & { [CREDENTIAL_PROPERTY]?: Credential }>();

    const { credential, kind } = await this.authenticate(ctx, req, policy).catch(async (err: unknown) => {
      if (err instanceof AppError && err.status === 401) {
        this.audit.noteAuthFailure({
          applicationId: this.context.optionalApplication?.id ?? null,
          clientAddress: req.ip ?? 'unknown',
          credential: presentedCredential(req),
        });
        throw (await this.failures.recordFailure(req)) ?? err;
      }
      throw err;
    });

    if (!policy.privileges.includes(credential.privilege)) throw new AppError(Errors.E1300);
    const application = this.context.optionalApplication;
    if (application && credential.privilege !== 'superuser' && credential.applicationId !== application.id) {
      throw new AppError(Errors.E1300, 'The credential does not belong to this application.');
    }
    if (kind === 'session') {
      const purposes = policy.sessionPurposes;
      if (purposes && !purposes.includes(credential.session?.purpose ?? '')) {
        throw new AppError(Errors.E1300, 'This one-time session cannot be used on this endpoint.');
      }
    }

    const requested = this.context.requestedMode;
    const fromCredential = kind === 'session' || policy.modeFromCredential;
    const mode: Mode = requested ?? (fromCredential && credential.mode ? credential.mode : 'live');
    if (credential.mode && credential.mode !== mode) {
      throw new AppError(Errors.E1300, `A ${credential.mode} credential cannot be used on ${mode} data.`);
    }

    checkPermission(credential, policy.requirement, mode);

    this.context.set('credential', credential);
    if (application) {
      const principal: Principal = {
        credential,
        application,
        mode,
        livemode: mode === 'live',
        country: this.context.optionalCountry,
      };
      this.context.set('principal', principal);
      // The schema ModeDb binds for the rest of the request. Set here, with the principal it comes
      // from, rather than by an interceptor of its own: a global interceptor puts every request of
      // every route through Nest's rxjs pipeline (defer, mergeAll, an AsyncResource per layer).
      this.context.set('mode', mode);
    }
    return true;
  }

  /** The request's credential, checked by the strategy its kind names; a 401 when there is none or it is invalid. */
  private async authenticate(
    ctx: ExecutionContext,
    req: Request & { [CREDENTIAL_PROPERTY]?: Credential },
    policy: RoutePolicy,
  ): Promise<{ credential: Credential; kind: CredentialKind }> {
    const kind = credentialKind(req);
    if (!policy.kinds.has(kind)) {
      throw new AppError(
        Errors.E1200,
        `This endpoint does not accept ${kind === 'basic' ? 'a secret key' : kind === 'bearer' ? 'a bearer token' : 'a one-time session'}.`,
      );
    }
    await this.guards[kind].canActivate(ctx);
    const credential = req[CREDENTIAL_PROPERTY] as Credential;
    req[CREDENTIAL_PROPERTY] = undefined;
    return { credential, kind };
  }
}

/**
 * A restricted key's levels and a member's role against the route's entry in permissions.ts. Secret
 * keys, superusers and one-time sessions are not limited here (their limits are the route's
 * `@Auth(...)` and the session's purpose). Everything but the two reads is worked out at boot.
 */
function checkPermission(credential: Credential, requirement: RoutePolicy['requirement'], mode: Mode): void {
  if (requirement === undefined || typeof requirement === 'string') return;
  if (credential.permissions && !keyAllows(credential.permissions, requirement.group, requirement.access)) {
    const { permission } = requirement;
    throw new AppError(AccessErrors.E1240, `This restricted key lacks the permission "${permission}".`).with({
      permission,
    });
  }
  const role = credential.role;
  if (role && !requirement.allowedRoles[mode].includes(role)) {
    const { permission } = requirement;
    const allowed = [...requirement.allowedRoles[mode]];
    if (mode === 'live' && requirement.allowedRoles.test.includes(role)) {
      throw new AppError(
        AccessErrors.E1244,
        `The role "${role}" may do "${permission}" in test mode only; in live mode: ${allowed.join(', ')}.`,
      ).with({ permission, role, allowed_roles: allowed });
    }
    throw new AppError(
      AccessErrors.E1241,
      `The role "${role}" does not allow "${permission}"; roles that do: ${allowed.join(', ')}.`,
    ).with({ permission, role, allowed_roles: allowed });
  }
}

/**
 * What a failed request presented, for the audit log's burst rows: a secret key's public prefix
 * (`sk_test_` or `rk_test_` and the lookup characters, never more), else only the scheme tried.
 */
export function presentedCredential(req: Request): string {
  const authorization = req.headers.authorization ?? '';
  const basic = /^basic\s+(\S+)/i.exec(authorization);
  if (basic) {
    const username = Buffer.from(basic[1], 'base64').toString('utf8').split(':', 1)[0];
    const prefix = /^[sr]k_(test|live)_[A-Za-z0-9]{0,12}/.exec(username);
    return prefix ? prefix[0] : 'basic';
  }
  const scheme = /^(\S+)\s/.exec(authorization)?.[1]?.toLowerCase();
  if (scheme) return scheme.slice(0, 20);
  return req.headers['x-session-token'] !== undefined ? 'session' : 'none';
}
