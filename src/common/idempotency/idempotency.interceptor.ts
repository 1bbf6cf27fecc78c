import { createHash } from 'node:crypto';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { Clock } from '../clock.js';
import type { Mode } from '../context/principal.js';
import { RequestContext } from '../context/request-context.js';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const RETENTION_MS = 24 * 60 * 60 * 1000;

interface StoredKey {
  request_hash: Buffer;
  status: 'processing' | 'completed';
  response_status: number | null;
  response_body: unknown;
}

/**
 * `Idempotency-Key` on every POST: the first request with a key runs, its response is kept for
 * 24 hours and replayed to repeats (with `Idempotent-Replayed: true`); the same key with another
 * body is E2006; a repeat while the first is still running is E2007 (409), so concurrent
 * duplicates have one effect. A request that fails releases its key so it can be retried.
 * Keys are scoped to the application and mode.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @InjectDataSource('platform') private readonly db: DataSource,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<Request>();
    const header = req.headers['idempotency-key'];
    if (req.method !== 'POST' || header === undefined) return next.handle();
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
    const hash = createHash('sha256')
      .update(`${req.method} ${req.path}\n${JSON.stringify(req.body ?? null)}`)
      .digest();
    const now = this.clock.now();
    await this.db.query(
      `DELETE FROM platform.idempotency_keys WHERE application_id = $1 AND mode = $2 AND key = $3 AND expires_at <= $4`,
      [applicationId, mode, key, now],
    );
    const inserted: unknown[] = await this.db.query(
      `INSERT INTO platform.idempotency_keys (application_id, mode, key, request_hash, status, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'processing', $5, $6)
       ON CONFLICT (application_id, mode, key) DO NOTHING
       RETURNING key`,
      [applicationId, mode, key, hash, now, new Date(now.getTime() + RETENTION_MS)],
    );
    if (inserted.length === 0) return this.replay(applicationId, mode, key, hash, res);

    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.db.query(
        `UPDATE platform.idempotency_keys SET status = 'completed', response_status = $4, response_body = $5
         WHERE application_id = $1 AND mode = $2 AND key = $3`,
        [applicationId, mode, key, res.statusCode, JSON.stringify(body ?? null)],
      );
      return body;
    } catch (err) {
      await this.db.query(
        `DELETE FROM platform.idempotency_keys WHERE application_id = $1 AND mode = $2 AND key = $3`,
        [applicationId, mode, key],
      );
      throw err;
    }
  }

  private async replay(applicationId: string, mode: Mode, key: string, hash: Buffer, res: Response): Promise<unknown> {
    const rows: StoredKey[] = await this.db.query(
      `SELECT request_hash, status, response_status, response_body FROM platform.idempotency_keys
       WHERE application_id = $1 AND mode = $2 AND key = $3`,
      [applicationId, mode, key],
    );
    const stored = rows[0];
    if (!stored) throw new AppError(Errors.E2007);
    if (!Buffer.from(stored.request_hash).equals(hash)) throw new AppError(Errors.E2006);
    if (stored.status !== 'completed') throw new AppError(Errors.E2007);
    res.status(stored.response_status ?? 200);
    res.setHeader('Idempotent-Replayed', 'true');
    return stored.response_body;
  }
}
