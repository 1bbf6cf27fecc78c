import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
  applyDecorators,
} from '@nestjs/common';
import type { Observable } from 'rxjs';
import { RequestContext } from '../context/request-context.js';
import { ReadReplica } from '../database/read-replica.js';

/** Runs after the auth guard (the mode is bound): sends the handler's per-mode reads to the replica when it may. */
@Injectable()
export class ReadReplicaInterceptor implements NestInterceptor {
  constructor(
    private readonly replica: ReadReplica,
    private readonly context: RequestContext,
  ) {}

  async intercept(_: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (this.replica.configured && (await this.replica.forTolerantRead())) this.context.set('readReplica', true);
    return next.handle();
  }
}

/**
 * The handler's reads may lag the primary by up to READ_REPLICA_MAX_LAG_MS: with DATABASE_READ_URL
 * set they go to the read replica while its lag is within that, else to the primary. Only for
 * handlers that write nothing and whose callers never read their own write through them in the
 * same flow (lists of events, ledger entries, report runs: docs/API.md "Reads from a replica").
 */
export const ReadReplicaTolerant = () => applyDecorators(UseInterceptors(ReadReplicaInterceptor));
