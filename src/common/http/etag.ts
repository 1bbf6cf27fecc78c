import type { NestExpressApplication } from '@nestjs/platform-express';
import { CLS_REQ, ClsServiceManager } from 'nestjs-cls';

type ETagFn = (body: string | Buffer, encoding?: BufferEncoding) => string | undefined;

/**
 * Express's ETag (a weak one, the SHA-1 of the body) only on the answers to GET and HEAD, the only
 * requests a client can make conditional (If-None-Match, answered 304 by Express). Express computes
 * one for every response it sends, POSTs included: a hash of each body that no client can use, ~2%
 * of a single meter event's CPU. The method is the request context's request's; with no request in
 * the context (a request refused before the context is set up), the ETag is computed as before.
 */
export function etagOnlyForReads(app: NestExpressApplication): void {
  const express = app.getHttpAdapter().getInstance() as { get(setting: string): unknown };
  const weak = express.get('etag fn') as ETagFn | undefined;
  if (typeof weak !== 'function') return;
  const cls = ClsServiceManager.getClsService();
  const reads: ETagFn = (body, encoding) => {
    const req = cls.get()?.[CLS_REQ] as { method?: string } | undefined;
    const method = req?.method;
    return method === undefined || method === 'GET' || method === 'HEAD' ? weak(body, encoding) : undefined;
  };
  app.set('etag', reads);
}
