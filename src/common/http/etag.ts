import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

/**
 * Express's ETag (a weak one, the SHA-1 of the body) only on the answers to GET and HEAD, the only
 * requests a client can make conditional (If-None-Match, answered 304 by Express). Express computes
 * one for every response it sends, POSTs included: a hash of each body that no client can use, ~2%
 * of a single meter event's CPU. And while an ETag function is set at all, `res.send` turns every
 * body into a Buffer first (the response then goes out as headers + Buffer in a `writev`), even when
 * the function answers nothing for it.
 *
 * So the application has no ETag function, and a GET or HEAD answers through a view of it that has
 * Express's own (`res.app`, which `res.send` reads its settings from, is that view for the request):
 * the other methods' answers are sent as strings, headers and body in one write.
 */
export function etagOnlyForReads(app: NestExpressApplication): void {
  const express = app.getHttpAdapter().getInstance() as { settings: Record<string, unknown> };
  const weak = express.settings['etag fn'];
  if (typeof weak !== 'function') return;
  // The view: the application itself (its methods, its other settings, later changes to them included),
  // with Express's ETag settings as its own (`res.sendFile` reads `etag`).
  const reads = Object.create(express) as typeof express;
  reads.settings = Object.create(express.settings) as Record<string, unknown>;
  reads.settings['etag fn'] = weak;
  reads.settings['etag'] = express.settings['etag'];
  app.set('etag', false);
  // First of all middleware, so an answer sent before any other (a refusal) is tagged alike.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD') (res as { app: unknown }).app = reads;
    next();
  });
}
