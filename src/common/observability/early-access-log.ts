import type { Request, Response } from 'express';
import { PinoLogger } from 'nestjs-pino';
import { startTime } from 'pino-http';

type Timed = Response & { [startTime]?: number };

/** Marks when the request arrived, where pino-http takes its response time from. */
export function markRequestStart(res: Response): void {
  (res as Timed)[startTime] = Date.now();
}

/**
 * pino-http writes the access log's line per request, but it runs as Nest middleware, after the
 * Express middleware that can refuse a request first: the content type check, the body parsers
 * (malformed JSON, a body over the limit), the body guard and the card-data guard. Such a refusal
 * reaches the error filter without passing pino-http and had no access line, so the requests an
 * operator most needs to see when a partner's integration misbehaves were the ones missing.
 *
 * For a request pino-http has not seen, this writes the line pino-http would have written, when the
 * response has been sent: the same logger, serializers and redaction (so the same shape: `req` with
 * id, method and the redacted URL, `res.statusCode`, `responseTime` from the request's arrival,
 * "request completed" at info). Nothing is written when the access log is off (a level above info).
 */
export function logAccessIfNotLogged(req: Request, res: Response): void {
  const logger = PinoLogger.root as PinoLogger['logger'] | undefined;
  if (!logger?.isLevelEnabled('info') || (req as Request & { log?: unknown }).log) return;
  res.once('finish', () => {
    const started = (res as Timed)[startTime];
    logger.info(
      { req, res, ...(started === undefined ? {} : { responseTime: Date.now() - started }) },
      'request completed',
    );
  });
}
