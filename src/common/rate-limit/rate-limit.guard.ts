import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';
import type { AllConfig } from '../../config/app.config.js';
import { Clock } from '../clock.js';
import { RequestContext } from '../context/request-context.js';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
import { RateLimitStore, retryAfterSeconds } from './rate-limit.store.js';

/**
 * Per-credential rate limit on wallet endpoints, a fixed window per key or user (the client
 * address when unauthenticated). Runs after authentication. Over the limit: E2429 (429) with
 * Retry-After in seconds. Counters live in the injected {@link RateLimitStore} (in-process by default).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    config: ConfigService<AllConfig, true>,
    private readonly clock: Clock,
    private readonly context: RequestContext,
    private readonly store: RateLimitStore,
  ) {
    this.limit = config.get('app.rateLimit', { infer: true });
    this.windowMs = config.get('app.rateLimitWindowMs', { infer: true });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.limit <= 0 || context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const req = http.getRequest<{ params?: Record<string, string>; ip?: string }>();
    if (typeof req.params?.app !== 'string') return true;

    const credential = this.context.optionalPrincipal?.credential;
    const tracker = credential ? `${credential.method}:${credential.subject}` : `ip:${req.ip ?? 'unknown'}`;
    const now = this.clock.nowMs();
    const window = await this.store.hit(tracker, this.windowMs, now);
    const res = http.getResponse<Response>();
    res.setHeader('X-RateLimit-Limit', String(this.limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, this.limit - window.count)));
    if (window.count > this.limit) {
      const seconds = retryAfterSeconds(window.resetAt, now);
      throw new AppError(
        Errors.E2429,
        `Rate limit of ${this.limit} requests per ${this.windowMs / 1000} s exceeded; retry after ${seconds} s.`,
        { 'Retry-After': seconds },
      );
    }
    return true;
  }
}
