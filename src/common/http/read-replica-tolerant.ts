import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
  applyDecorators,
} from '@nestjs/common';
import { catchError, type Observable } from 'rxjs';
import { RequestContext } from '../context/request-context.js';
import { ReadReplica } from '../database/read-replica.js';
import { isDatabaseUnavailable } from '../errors/error.filter.js';

/**
 * What a read on the replica may fail with that the primary would not: the replica unreachable
 * (it went away after the lag reading) or a query cancelled by a conflict with recovery (40001,
 * the replica replaying a change that removes rows the query still needed).
 */
function isReplicaFailure(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '40001' && typeof message === 'string' && /conflict with recovery/i.test(message);
}

/**
 * Runs after the auth guard (the mode is bound): sends the handler's per-mode reads to the replica
 * when it may, and runs the handler again on the primary when the replica fails it.
 */
@Injectable()
export class ReadReplicaInterceptor implements NestInterceptor {
  constructor(
    private readonly replica: ReadReplica,
    private readonly context: RequestContext,
  ) {}

  async intercept(_: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (!this.replica.configured || !(await this.replica.forTolerantRead())) return next.handle();
    this.context.set('readReplica', true);
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (!isReplicaFailure(error)) throw error;
        this.replica.distrust(error as Error);
        this.context.set('readReplica', false);
        return next.handle();
      }),
    );
  }
}

/**
 * The handler's reads may lag the primary by up to READ_REPLICA_MAX_LAG_MS: with DATABASE_READ_URL
 * set they go to the read replica while its lag is within that, else to the primary. Only for
 * handlers that write nothing and whose callers never read their own write through them in the
 * same flow (lists of events, ledger entries, report runs: docs/API.md "Reads from a replica").
 */
export const ReadReplicaTolerant = () => applyDecorators(UseInterceptors(ReadReplicaInterceptor));
