import type { Request, Response } from 'express';
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
 * The request context's setup (nestjs-cls middleware): the request id, and the request let go of
 * once its response is done.
 *
 * Why let go: Node arms a keep-alive socket's idle timer when a response ends, inside that
 * request's async context, and the timer keeps the context's stores. Without this, every idle
 * keep-alive connection holds its last request whole (the request, its response, the parsed body
 * and the framework's state for it, about 10 KB) until its next request or its timeout: 217 such
 * requests alive for ~10 in flight in a heap snapshot at 1,150 events/s, 26 after (issue 18,
 * docs/PERFORMANCE.md "Fourth session"). After 'close' the store keeps the principal, the mode
 * and the request id, and the request only as `{ id, method, url }` for the log mixin.
 */
export function setUpRequestStore(cls: ClsService, req: Request, res: Response): void {
  const id = requestIdOf(req);
  cls.set('requestId', id);
  const store: ClsStore = cls.get();
  res.once('close', () => {
    const finished: FinishedRequest = { id, method: req.method, url: req.originalUrl ?? req.url, headers: {} };
    store[CLS_REQ] = finished;
  });
}
