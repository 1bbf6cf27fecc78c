import type { NextFunction, Request, Response } from 'express';
import { CLS_REQ, type ClsService, type ClsStore } from 'nestjs-cls';
import { requestIdOf } from '../http/request-id.js';

/** What the request context keeps of the request once its response is done: what a late log line binds. */
export interface FinishedRequest {
  id: string;
  method: string;
  url: string;
  headers: Record<string, never>;
}

/**
 * The request context's setup ({@link requestContextMiddleware}): the request id, and the request
 * let go of once its response is done.
 *
 * Why let go: Node arms a keep-alive socket's idle timer when a response ends, inside that
 * request's async context, and the timer keeps the context's stores. Without this, every idle
 * keep-alive connection holds its last request whole (the request, its response, the parsed body
 * and the framework's state for it, about 10 KB) until its next request or its timeout: 217 such
 * requests alive for ~10 in flight in a heap snapshot at 1,150 events/s, 26 after
 * (docs/ARCHITECTURE.md, "The hot path"). After 'close' the store keeps the principal, the mode
 * and the request id, and the request only as `{ id, method, url }` for the log mixin.
 */
export function setUpRequestStore(cls: ClsService, req: Request, res: Response): void {
  const id = requestIdOf(req);
  const store: ClsStore & { requestId?: string } = cls.get();
  store.requestId = id;
  res.once('close', () => {
    const finished: FinishedRequest = { id, method: req.method, url: req.originalUrl ?? req.url, headers: {} };
    store[CLS_REQ] = finished;
  });
}

/**
 * The request context (nestjs-cls), mounted with `app.use` rather than as Nest module middleware:
 * each request runs in a new store holding the request (`CLS_REQ`) and {@link setUpRequestStore}'s
 * fields, which is what nestjs-cls's own `ClsMiddleware` does with this module's options.
 *
 * Why not `ClsModule`'s `mount: true`: Nest's module middleware remembers each request it has seen
 * in a WeakSet (one per middleware), and `ClsMiddleware` files each request's store in a WeakMap
 * keyed by the request. A weak collection drops an entry only when a GC finds its key dead, and a
 * request that outlived a scavenge stays until the next Mark-Compact; every few thousand requests
 * one of these tables grows or is rebuilt, which walks all of it on the event loop. With four such
 * tables (these three and the body guard's, now a marker on the body) growing in step, that was a
 * 15-33 ms stall every 10-20 s under load, every request in flight waiting
 * (docs/ARCHITECTURE.md, "The hot path"). Nothing here reads the WeakMap (no `ClsGuard` or
 * `ClsInterceptor`, no proxy providers, no plugins), so nothing is lost by not filling it.
 */
export function requestContextMiddleware(cls: ClsService): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    cls.run(() => {
      try {
        cls.set(CLS_REQ, req);
        setUpRequestStore(cls, req, res);
      } catch (err) {
        return next(err);
      }
      next();
    });
  };
}
