import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import passport from 'passport';
import type { Mode, Principal, Privilege } from '../context/principal.js';
import { RequestContext } from '../context/request-context.js';
import { AppError } from '../errors/app-error.js';
import { type ErrorDefinition, Errors } from '../errors/error-catalog.js';
import { AUTH_PRIVILEGES, MODE_FROM_CREDENTIAL, PUBLIC_ROUTE, SESSION_PURPOSES } from '../http/decorators.js';

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

type PassportCallback = (err: unknown, user: Principal | false) => void;

interface StrategyInstance {
  authenticate(req: Request, options: object): void;
  success(user: Principal | false): void;
  fail(challenge?: unknown, status?: number): void;
  redirect(url: string, status?: number): void;
  pass(): void;
  error(err: unknown): void;
}

/**
 * What `passport.authenticate(name, { session: false }, callback)` does for one strategy, without
 * the per-request work this service never uses (login/logout/isAuthenticated and the session
 * manager added to every request, which also changes the request object's shape): the
 * registered strategy, instantiated per request with the same actions and outcomes.
 */
function runStrategy(
  name: string,
  req: Request,
  res: Response,
  callback: PassportCallback,
  next: (err?: unknown) => void,
) {
  const registry = passport as unknown as { _strategy(name: string): object | undefined };
  const prototype = registry._strategy(name);
  if (!prototype) return next(new Error(`Unknown authentication strategy "${name}"`));
  const strategy = Object.create(prototype) as StrategyInstance;
  strategy.success = (user) => callback(null, user);
  strategy.fail = () => callback(null, false);
  strategy.redirect = (url, status) => {
    res.statusCode = status || 302;
    res.setHeader('Location', url);
    res.setHeader('Content-Length', '0');
    res.end();
  };
  strategy.pass = () => next();
  strategy.error = (err) => callback(err, false);
  strategy.authenticate(req, { session: false });
}

/**
 * The one auth guard: picks the Passport strategy from the credential, then checks privilege,
 * application and mode against the endpoint's `@Auth(...)` declaration. No declaration: no access.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly context: RequestContext,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const http = ctx.switchToHttp();
    const req = http.getRequest<Request & { principal?: Principal; walletMode?: Mode }>();
    const privileges = this.reflector.getAllAndOverride<Privilege[]>(AUTH_PRIVILEGES, targets) ?? [];

    const kind = credentialKind(req);
    const accepted = new Set(privileges.map((p) => KIND_OF_PRIVILEGE[p]));
    if (!accepted.has(kind)) {
      throw new AppError(
        Errors.E1200,
        `This endpoint does not accept ${kind === 'basic' ? 'a secret key' : kind === 'bearer' ? 'a bearer token' : 'a one-time session'}.`,
      );
    }
    const principal = await this.authenticate(kind, req, http.getResponse<Response>());

    if (!privileges.includes(principal.privilege)) throw new AppError(Errors.E1300);
    const application = this.context.active ? this.context.optionalApplication : undefined;
    if (application && principal.privilege !== 'superuser' && principal.applicationId !== application.id) {
      throw new AppError(Errors.E1300, 'The credential does not belong to this application.');
    }
    if (kind === 'session') {
      const purposes = this.reflector.getAllAndOverride<string[]>(SESSION_PURPOSES, targets);
      if (purposes && !purposes.includes(principal.session?.purpose ?? '')) {
        throw new AppError(Errors.E1300, 'This one-time session cannot be used on this endpoint.');
      }
    }

    const requested = this.context.requestedMode;
    const fromCredential =
      kind === 'session' || this.reflector.getAllAndOverride<boolean>(MODE_FROM_CREDENTIAL, targets);
    const mode: Mode = requested ?? (fromCredential && principal.mode ? principal.mode : 'live');
    if (principal.mode && principal.mode !== mode) {
      throw new AppError(Errors.E1300, `A ${principal.mode} credential cannot be used on ${mode} data.`);
    }

    req.principal = principal;
    req.walletMode = mode;
    this.context.set('principal', principal);
    return true;
  }

  private authenticate(kind: CredentialKind, req: Request, res: Response): Promise<Principal> {
    const strategy = STRATEGIES[kind];
    return new Promise<Principal>((resolve, reject) => {
      const callback = (err: unknown, user: Principal | false) => {
        if (err) return reject(err);
        if (!user) return reject(new AppError(strategy.invalid, undefined, { 'WWW-Authenticate': strategy.challenge }));
        resolve(user);
      };
      try {
        runStrategy(strategy.name, req, res, callback, (err: unknown) => reject(err));
      } catch (err) {
        reject(err);
      }
    }).catch((err: unknown) => {
      if (err instanceof AppError) {
        if (err.status === 401 && !err.headers['WWW-Authenticate']) {
          throw new AppError(err.definition, err.detail, { ...err.headers, 'WWW-Authenticate': strategy.challenge });
        }
        throw err;
      }
      // An unregistered strategy means the service cannot check this kind of credential at all.
      if (err instanceof Error && /Unknown authentication strategy/.test(err.message)) {
        throw new AppError(Errors.E1200, 'This kind of credential is not accepted by the service.');
      }
      throw err;
    });
  }
}
