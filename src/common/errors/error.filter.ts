import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import type { AllConfig } from '../../config/app.config.js';
import { AppError } from './app-error.js';
import { type ErrorDefinition, Errors } from './error-catalog.js';
import { errorDocUrl } from './error-docs.js';
import { requestIdOf } from '../http/request-id.js';
import { IdempotentReplay, releaseClaimOf } from '../idempotency/idempotency.guard.js';
import { logAccessIfNotLogged } from '../observability/early-access-log.js';
import { Metrics } from '../observability/metrics.js';

export interface ErrorBody {
  object: 'error';
  code: string;
  key: string;
  i18n_key: string;
  message: string;
  /** The one request parameter at fault (`amount`, `line_items[0].price`), when there is one. */
  param?: string;
  /** Named values the message speaks of (e.g. the permission a restricted key lacks), when the code has any. */
  params?: Record<string, string | string[]>;
  /** The public page documenting the code (`GET /errors/{code}`). */
  doc_url: string;
  request_id: string;
}

const BY_STATUS: Record<number, ErrorDefinition> = {
  400: Errors.E2000,
  401: Errors.E1200,
  403: Errors.E1300,
  404: Errors.E4040,
  405: Errors.E4040,
  409: Errors.E4090,
  413: Errors.E2003,
  415: Errors.E2002,
  429: Errors.E2429,
};

/** Errors raised by the body parsers before any controller runs carry a `type`. */
function fromBodyParser(error: { type?: string; status?: number }): AppError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return new AppError(Errors.E2001);
    case 'entity.too.large':
      return new AppError(Errors.E2003);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError(Errors.E2002, 'The request body uses a charset or encoding the service does not accept.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError(Errors.E2000, 'The request body could not be read.');
    default:
      return undefined;
  }
}

/** The spec's flat error object for `error` (also each failed member of a batch answer). */
export function errorBody(error: AppError, requestId: string, publicUrl: string): ErrorBody {
  const param = error.param;
  return {
    object: 'error',
    code: error.definition.code,
    key: error.definition.key,
    i18n_key: error.definition.i18n_key,
    message: error.message,
    ...(param === undefined ? {} : { param }),
    ...(error.params === undefined ? {} : { params: error.params }),
    doc_url: errorDocUrl(publicUrl, error.definition.code),
    request_id: requestId,
  };
}

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Node socket errors of a connection that could not be made or was lost. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
/**
 * What pg and its pool say when the server went away or no client could be had in time, and what
 * TypeORM says when a transaction goes on after its connection died and was released mid-way.
 */
const CONNECTION_MESSAGES =
  /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client was closed and is not queryable|connection to server .* failed|Query runner already released|query runner was already released/i;

/**
 * Whether `error` (or anything it wraps: TypeORM's `driverError`, a `cause`, an AggregateError's
 * members) says the database cannot be reached: PostgreSQL's admin shutdown, crash shutdown and
 * cannot-connect-now (57P01-57P03), any connection exception (class 08), insufficient resources
 * (class 53: too many connections, out of memory, disk full), a refused, reset or timed-out
 * socket, a terminated connection, a transaction's released query runner, or no pool client in
 * time.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, driverError, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      driverError?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (/^57P0[123]$/.test(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    // 53300 too many connections (and the rest of class 53, insufficient resources: out of memory,
    // disk full, a configured limit): the server refuses for now, the request can be retried.
    if (typeof code === 'string' && /^53[0-9A-Z]{3}$/.test(code)) return true;
    if (typeof code === 'string' && CONNECTION_ERRNOS.has(code)) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
    queue.push(cause, driverError, ...(Array.isArray(errors) ? errors : []));
  }
  return false;
}

/**
 * What an unexpected error may put in the log: its name, message, code and stack, never the
 * properties drivers attach (TypeORM's `parameters` and `query`, pg's `detail` with row values),
 * which can carry account numbers or other secrets.
 */
export function describeForLog(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { value: typeof error };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    stack: error.stack,
  };
}

/**
 * Every error leaves as the spec's flat error object with a request id; anything unknown becomes
 * an opaque 500 whose cause is logged, never sent.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  private readonly publicUrl: string;

  constructor(
    private readonly metrics: Metrics,
    config: ConfigService<AllConfig, true>,
  ) {
    this.publicUrl = config.get('app.publicUrl', { infer: true });
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    // A repeat of a completed Idempotency-Key: its stored answer, not an error.
    if (exception instanceof IdempotentReplay) return exception.send(response);
    // A request that failed while holding an Idempotency-Key lets it go before its error is answered.
    const released = releaseClaimOf(response);
    if (released) {
      void released.then(() => this.answer(exception, request, response));
      return;
    }
    this.answer(exception, request, response);
  }

  private answer(exception: unknown, request: Request, response: Response): void {
    const error = this.toAppError(exception);
    if (error.definition.code === Errors.E5001.code) {
      // An outage answers every request with 503 E5001: one line each, without the stack, so the
      // log of an outage stays readable (its cause, the driver's message and code, is kept).
      const { message, code } = (exception ?? {}) as { message?: unknown; code?: unknown };
      this.logger.warn(
        { database: { message: String(message ?? ''), code }, request_id: requestIdOf(request) },
        `database unavailable on ${request.method} ${request.path}`,
      );
    } else if (error.status >= 500) {
      this.logger.error(
        { err: describeForLog(exception), request_id: requestIdOf(request) },
        `unhandled error on ${request.method} ${request.path}`,
      );
    }
    if (response.headersSent) return;
    this.metrics.errors.inc({ status: String(error.status), code: error.definition.code });

    const requestId = requestIdOf(request);
    const body = errorBody(error, requestId, this.publicUrl);
    response.setHeader('X-Request-Id', requestId);
    if (error.status === 401 && !error.headers['WWW-Authenticate']) {
      response.setHeader('WWW-Authenticate', 'Basic realm="wallet", Bearer realm="wallet"');
    }
    for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
    // A refusal by the Express middleware before pino-http (the body parsers, the guards) gets its access line here.
    logAccessIfNotLogged(request, response);
    response.status(error.status).json(body);
  }

  private toAppError(exception: unknown): AppError {
    if (exception instanceof AppError) return exception;
    if (exception && typeof exception === 'object') {
      // Express hands body-parser errors over wrapped in an HttpException, with the original as cause.
      const raw = exception instanceof HttpException && exception.cause ? exception.cause : exception;
      const parsed = fromBodyParser(raw as { type?: string });
      if (parsed) return parsed;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const definition = BY_STATUS[status];
      if (definition) return new AppError(definition);
    }
    if (isDatabaseUnavailable(exception)) {
      return new AppError(Errors.E5001, undefined, { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
    }
    return new AppError(Errors.E5000);
  }
}
