import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';

/** Paths whose standards require form bodies (OAuth 2.0 token requests, RFC 6749 §4.1.3). */
const FORM_PATHS = [/^\/oauth\//, /^\/api\/v1\/[^/]+\/platform\/wallet\/oauth\//];
/** The one route taking multipart/form-data: POST /files (its own interceptor parses it, with its own limits). */
const MULTIPART_PATH = /^\/api\/v1\/[^/]+\/platform\/wallet\/files\/?$/;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** A body must be JSON (or a form where a standard says so); anything else is a 415 before parsing. */
export function contentTypeMiddleware(req: Request, _res: Response, next: NextFunction): void {
  if (!hasBody(req)) return next();
  if (req.is('application/json') || req.is('+json')) return next();
  if (req.is('application/x-www-form-urlencoded') && FORM_PATHS.some((p) => p.test(req.path))) return next();
  if (req.method === 'POST' && req.is('multipart/form-data') && MULTIPART_PATH.test(req.path)) return next();
  next(new AppError(Errors.E2002));
}
