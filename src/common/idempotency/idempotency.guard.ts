import { createHash, randomUUID } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Clock } from '../clock.js';
import { RequestContext } from '../context/request-context.js';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
import { VAULT_PATH } from '../http/card-data.js';
import { IdempotencyRepository, type KeyRef, type Lease } from './idempotency.repository.js';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** The routes whose answer carries a new API key (docs/SECURITY.md): their answers are never stored. */
const KEY_ANSWER_PATH = /\/platform\/wallet\/restricted_keys(\/[^/]+\/roll)?\/?$/;

const RETENTION_MS = 24 * 60 * 60 * 1000;
/** How long a running request holds its key without a heartbeat: what a lost attempt blocks its resend for. */
export const LEASE_MS = 10_000;
const HEARTBEAT_MS = 3_000;

/** The key a running request holds, on its response until the answer is stored or the key let go. */
const CLAIM = Symbol('idempotency claim');

interface Claim {
  /** Stores the answer (status, body) under the key; on failure lets the key go and throws. */
  complete(status: number, body: unknown): Promise<void>;
  /** Lets the key go (the request failed); never throws. */
  release(): Promise<void>;
}

type ClaimedResponse = Response & { [CLAIM]?: Claim };

/** A completed key's stored answer, thrown by the guard so that the handler does not run; ErrorFilter sends it. */
export class IdempotentReplay {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}

  /** Sent as Nest sends a handler's result (ExpressAdapter.reply), with `Idempotent-Replayed: true`. */
  send(res: Response): void {
    res.setHeader('Idempotent-Replayed', 'true');
    res.status(this.status);
    const body = this.body;
    if (body === null || body === undefined) res.send();
    else if (typeof body === 'object') res.json(body);
    else res.send(String(body));
  }
}

/**
 * Lets go of the key a request that failed still holds, before its error is answered (ErrorFilter);
 * undefined when it holds none.
 */
export function releaseClaimOf(res: Response): Promise<void> | undefined {
  const claim = (res as ClaimedResponse)[CLAIM];
  if (!claim) return undefined;
  (res as ClaimedResponse)[CLAIM] = undefined;
  return claim.release();
}

/**
 * `Idempotency-Key` on every POST (docs/IDEMPOTENCY.md): the first request with a key runs, its
 * response is kept for 24 hours and replayed to repeats (with `Idempotent-Replayed: true`); the
 * same key with another body is E2006; a repeat while the first is still running is E2007 (409),
 * so concurrent duplicates have one effect. A running request holds its key by a lease of
 * LEASE_MS that a heartbeat moves on, so a request that lost the database (or its process) frees
 * the key within seconds; the next attempt resumes from the recovery point its work committed, or
 * starts afresh. A request that fails releases its key so it can be retried. Keys are scoped to
 * the application and mode.
 *
 * A guard (the last one, after authentication) and a hook on the reply rather than a global
 * interceptor: with any global interceptor Nest puts every request of every route through its rxjs
 * pipeline (defer, mergeAll, an AsyncResource and a ReplaySubject per request), and only keyed POSTs
 * need this. The guard claims the key (or throws the stored answer as an IdempotentReplay); the
 * answer is stored by the adapter's `reply` before it is sent; a failure lets the key go in
 * ErrorFilter before the error is sent, as the interceptor did around the handler.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate, OnApplicationBootstrap {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Wraps the HTTP adapter's `reply` (what sends a handler's result): a claimed key's answer is stored first. */
  onApplicationBootstrap(): void {
    const adapter = this.adapterHost.httpAdapter as
      { reply(res: ClaimedResponse, body: unknown, status?: number): unknown } | undefined;
    if (!adapter) return;
    const reply = adapter.reply.bind(adapter);
    adapter.reply = (res, body, status) => {
      const claim = res[CLAIM];
      if (!claim) return reply(res, body, status);
      res[CLAIM] = undefined;
      return claim.complete(status ?? res.statusCode, body).then(() => reply(res, body, status));
    };
  }

  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    const header = req.headers['idempotency-key'];
    // The card vault's body is card data: it is never hashed or stored (a token is made anew each time).
    // A new API key is in the answer of its creation or roll: never stored, so no key is kept at rest.
    if (req.method !== 'POST' || header === undefined || VAULT_PATH.test(req.path) || KEY_ANSWER_PATH.test(req.path))
      return true;
    const principal = this.context.optionalPrincipal;
    if (!principal) return true;
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
      throw new AppError(Errors.E2005, 'Idempotency-Key must be 1 to 255 printable ASCII characters.');
    }
    const ref: KeyRef = { applicationId: principal.application.id, mode: principal.mode, key: header };
    return this.claim(ref, req, ctx.switchToHttp().getResponse<ClaimedResponse>());
  }

  private async claim(ref: KeyRef, req: Request, res: ClaimedResponse): Promise<boolean> {
    const hash = requestHash(req);
    const lease = await this.keys.claim(ref, hash, randomUUID(), this.clock.now(), this.leaseEnd());
    if (!lease) throw await this.replay(ref, hash);

    this.context.set('idempotency', { ref, lease });
    const heartbeat = setInterval(() => {
      this.keys.heartbeat(ref, lease, this.leaseEnd()).catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    res[CLAIM] = {
      complete: async (status, body) => {
        try {
          await this.keys.complete(ref, lease, status, body, new Date(this.clock.nowMs() + RETENTION_MS));
        } catch (err) {
          await this.release(ref, lease);
          throw err;
        } finally {
          clearInterval(heartbeat);
        }
      },
      release: async () => {
        clearInterval(heartbeat);
        await this.release(ref, lease);
      },
    };
    // An answer sent some other way than `reply` (a stream) lets the key go. A client that went away
    // before the answer does not: the handler may still be running, and stores its answer as usual.
    res.once('close', () => {
      if (res.writableFinished) void releaseClaimOf(res);
    });
    return true;
  }

  /** When the database is gone this fails too; the lease then lapses by itself. */
  private async release(ref: KeyRef, lease: Lease): Promise<void> {
    await this.keys.release(ref, lease, this.clock.now()).catch(() => undefined);
  }

  private leaseEnd(): Date {
    return new Date(this.clock.nowMs() + LEASE_MS);
  }

  private async replay(ref: KeyRef, hash: Buffer): Promise<AppError | IdempotentReplay> {
    const stored = await this.keys.find(ref);
    if (!stored) return new AppError(Errors.E2007);
    if (!Buffer.from(stored.request_hash).equals(hash)) return new AppError(Errors.E2006);
    if (stored.status !== 'completed') return new AppError(Errors.E2007);
    return new IdempotentReplay(stored.response_status ?? 200, stored.response_body);
  }
}

/** What a key's request is compared by: method, path and body (the same key with another request is E2006). */
export function requestHash(req: Pick<Request, 'method' | 'path' | 'body'>): Buffer {
  return createHash('sha256')
    .update(`${req.method} ${req.path}\n${JSON.stringify(req.body ?? null)}`)
    .digest();
}
