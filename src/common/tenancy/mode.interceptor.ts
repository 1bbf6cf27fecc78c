import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import type { Mode } from '../context/principal.js';
import { RequestContext } from '../context/request-context.js';

/**
 * Binds the request to `wallet_test` or `wallet_live`. The auth guard decided the mode (and
 * refused a credential of the other mode); from here on ModeDb serves only that schema.
 */
@Injectable()
export class ModeInterceptor implements NestInterceptor {
  constructor(private readonly context: RequestContext) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<{ walletMode?: Mode }>();
    if (req.walletMode) this.context.set('mode', req.walletMode);
    return next.handle();
  }
}
