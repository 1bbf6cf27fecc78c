import type { NextFunction, Request, Response } from 'express';
import { newId } from '../ids.js';
import { markRequestStart } from '../observability/early-access-log.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

type WithId = Request & { id?: string };

/** First middleware of all: a request id from a sane X-Request-Id, or a fresh one; echoed back. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : `req_${newId().replace(/-/g, '')}`;
  (req as WithId).id = id;
  res.setHeader('X-Request-Id', id);
  markRequestStart(res);
  next();
}

export function requestIdOf(req: Request): string {
  const withId = req as WithId;
  if (!withId.id) withId.id = `req_${newId().replace(/-/g, '')}`;
  return withId.id;
}
