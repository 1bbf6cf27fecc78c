import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RequestContext } from '../context/request-context.js';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/**
 * What a service whose work spans transactions and a provider call needs of the request's
 * `Idempotency-Key` (docs/IDEMPOTENCY.md): record, in the transaction that creates its object, that
 * the key's work is committed (`checkpoint`), and, when a later attempt with the same key takes
 * over, the object to resume from (`resumes`) instead of creating a second one. Without a key both
 * do nothing.
 */
@Injectable()
export class IdempotencyScope {
  constructor(
    private readonly context: RequestContext,
    private readonly keys: IdempotencyRepository,
  ) {}

  /** The id of the `object` an earlier attempt with this request's key committed, if any. */
  resumes(object: string): string | undefined {
    const recovery = this.context.heldKey?.lease.recovery;
    return recovery?.object === object ? recovery.id : undefined;
  }

  /**
   * In the transaction that creates `object` `id`: makes it the key's recovery point, committed
   * with it. E2007 when the lease lapsed and another attempt holds the key: the transaction rolls
   * back, so two attempts never both create.
   */
  async checkpoint(manager: EntityManager, object: string, id: string): Promise<void> {
    const held = this.context.heldKey;
    if (!held) return;
    if (!(await this.keys.checkpoint(held.ref, held.lease, { object, id }, manager))) {
      throw new AppError(Errors.E2007);
    }
  }
}
