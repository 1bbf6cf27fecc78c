import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Mode } from '../context/principal.js';
import { RequestContext } from '../context/request-context.js';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
import { REQUIRES_COUNTRY } from '../http/decorators.js';
import { ApplicationResolver } from './application-resolver.js';

export function parseTestMode(raw: string | string[] | undefined): Mode | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'true') return 'test';
  if (raw === 'false') return 'live';
  throw new AppError(Errors.E3004, `X-Test-Mode must be "true" or "false", got ${JSON.stringify(raw)}.`);
}

/**
 * First step of every wallet request: the `{app}` slug to an application (404 when unknown),
 * X-Test-Mode parsed strictly, and X-Country checked where the endpoint needs it.
 */
@Injectable()
export class TenancyGuard implements CanActivate {
  constructor(
    private readonly applications: ApplicationResolver,
    private readonly context: RequestContext,
    private readonly reflector: Reflector,
  ) {}

  /** Each route's `@RequiresCountry()`, read on its first request (handler, then controller class). */
  private readonly countryRequired = new WeakMap<object, WeakMap<object, boolean>>();

  private needsCountry(ctx: ExecutionContext): boolean {
    const handler = ctx.getHandler();
    const controller = ctx.getClass();
    let byClass = this.countryRequired.get(handler);
    if (!byClass) this.countryRequired.set(handler, (byClass = new WeakMap()));
    let needs = byClass.get(controller);
    if (needs === undefined) {
      needs = this.reflector.getAllAndOverride<boolean>(REQUIRES_COUNTRY, [handler, controller]) === true;
      byClass.set(controller, needs);
    }
    return needs;
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    const slug = req.params?.app;
    if (typeof slug !== 'string') return true;

    const application = await this.applications.bySlug(slug);
    if (!application) throw new AppError(Errors.E3001, `No application has the slug "${slug}".`);
    this.context.set('application', application);
    this.context.set('requestedMode', parseTestMode(req.headers['x-test-mode']));

    const country = req.headers['x-country'];
    const needsCountry = this.needsCountry(ctx);
    if (typeof country === 'string' && country !== '') {
      const code = country.toUpperCase();
      if (!/^[A-Z]{2}$/.test(code))
        throw new AppError(Errors.E3003, `X-Country must be a two-letter country code, got "${country}".`).on(
          'X-Country',
        );
      if (!application.countries.includes(code)) {
        if (needsCountry)
          throw new AppError(Errors.E3003, `The application is not enabled for country ${code}.`).on('X-Country');
      } else {
        this.context.set('country', code);
      }
    } else if (needsCountry) {
      throw new AppError(Errors.E3002).on('X-Country');
    }
    return true;
  }
}
