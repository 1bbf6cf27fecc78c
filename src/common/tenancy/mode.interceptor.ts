import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { RequestContext } from '../context/request-context.js';

/**
 * Binds the request to `wallet_test` or `wallet_live`: the schema ModeDb serves from here on is the
 * principal's mode (the auth guard decided it and refused a credential of the other mode). The
 * only place a request's schema is chosen; jobs and the CLI bind theirs with `runInMode`.
 */
@Injectable()
export class ModeInterceptor implements NestInterceptor {
  constructor(private readonly context: RequestContext) {}

  intercept(_ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const principal = this.context.optionalPrincipal;
    if (principal) this.context.set('mode', principal.mode);
    return next.handle();
  }
}
