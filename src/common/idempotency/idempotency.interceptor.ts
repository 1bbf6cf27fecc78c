import { createHash, randomUUID } from 'node:crypto';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { Clock } from '../clock.js';
import type { Mode } from '../context/principal.js';
import { RequestContext } from '../context/request-context.js';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
import { VAULT_PATH } from '../http/card-data.js';
import { IdempotencyRepository, type KeyRef } from './idempotency.repository.js';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** The routes whose answer carries a new API key (docs/SECURITY.md): their answers are never stored. */
const KEY_ANSWER_PATH = /\/platform\/wallet\/restricted_keys(\/[^/]+\/roll)?\/?$/;

const RETENTION_MS = 24 * 60 * 60 * 1000;
/** How long a running request holds its key without a heartbeat: what a lost attempt blocks its resend for. */
export const LEASE_MS = 10_000;
const HEARTBEAT_MS = 3_000;

/**
 * `Idempotency-Key` on every POST (docs/IDEMPOTENCY.md): the first request with a key runs, its
 * response is kept for 24 hours and replayed to repeats (with `Idempotent-Replayed: true`); the
 * same key with another body is E2006; a repeat while the first is still running is E2007 (409),
 * so concurrent duplicates have one effect. A running request holds its key by a lease of
 * LEASE_MS that a heartbeat moves on, so a request that lost the database (or its process) frees
 * the key within seconds; the next attempt resumes from the recovery point its work committed, or
 * starts afresh. A request that fails releases its key so it can be retried. Keys are scoped to
 * the application and mode.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<Request>();
    const header = req.headers['idempotency-key'];
    // The card vault's body is card data: it is never hashed or stored (a token is made anew each time).
    // A new API key is in the answer of its creation or roll: never stored, so no key is kept at rest.
    if (req.method !== 'POST' || header === undefined || VAULT_PATH.test(req.path) || KEY_ANSWER_PATH.test(req.path))
      return next.handle();
    const principal = this.context.optionalPrincipal;
    if (!principal) return next.handle();
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
      throw new AppError(Errors.E2005, 'Idempotency-Key must be 1 to 255 printable ASCII characters.');
    }
    const res = ctx.switchToHttp().getResponse<Response>();
    return from(this.handle(principal.application.id, principal.mode, header, req, res, next));
  }

  private async handle(
    applicationId: string,
    mode: Mode,
    key: string,
    req: Request,
    res: Response,
    next: CallHandler,
  ): Promise<unknown> {
    const hash = requestHash(req);
    const ref: KeyRef = { applicationId, mode, key };
    const lease = await this.keys.claim(ref, hash, randomUUID(), this.clock.now(), this.leaseEnd());
    if (!lease) return this.replay(ref, hash, res);

    this.context.set('idempotency', { ref, lease });
    const heartbeat = setInterval(() => {
      this.keys.heartbeat(ref, lease, this.leaseEnd()).catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.keys.complete(ref, lease, res.statusCode, body, new Date(this.clock.nowMs() + RETENTION_MS));
      return body;
    } catch (err) {
      // When the database is gone this fails too; the lease then lapses by itself.
      await this.keys.release(ref, lease, this.clock.now()).catch(() => undefined);
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
  }

  private leaseEnd(): Date {
    return new Date(this.clock.nowMs() + LEASE_MS);
  }

  private async replay(ref: KeyRef, hash: Buffer, res: Response): Promise<unknown> {
    const stored = await this.keys.find(ref);
    if (!stored) throw new AppError(Errors.E2007);
    if (!Buffer.from(stored.request_hash).equals(hash)) throw new AppError(Errors.E2006);
    if (stored.status !== 'completed') throw new AppError(Errors.E2007);
    res.status(stored.response_status ?? 200);
    res.setHeader('Idempotent-Replayed', 'true');
    return stored.response_body;
  }
}

/** What a key's request is compared by: method, path and body (the same key with another request is E2006). */
export function requestHash(req: Pick<Request, 'method' | 'path' | 'body'>): Buffer {
  return createHash('sha256')
    .update(`${req.method} ${req.path}\n${JSON.stringify(req.body ?? null)}`)
    .digest();
}
