import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  AuditRecorder,
  type AuditActor,
  type AuditEntry,
  type AuthFailure,
} from '../../common/audit/audit-recorder.js';
import { Clock } from '../../common/clock.js';
import { RequestContext } from '../../common/context/request-context.js';
import { newId } from '../../common/ids.js';
import { PLATFORM_CHAIN } from './audit-chain.js';
import { AuditOnCommit } from './audit-on-commit.js';
import type { NewAuditRow } from './audit.repository.js';
import { withoutSecrets } from './audit-redaction.js';
import { AuthFailureBursts } from './auth-failure-bursts.js';

/**
 * The audit log's writer: `record` appends a row to the application's hash chain in the caller's
 * transaction (the AuditRecorder port every module uses). Reading is AuditReader's.
 */
@Injectable()
export class AuditService extends AuditRecorder {
  constructor(
    private readonly onCommit: AuditOnCommit,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly bursts: AuthFailureBursts,
  ) {
    super();
  }

  async record(manager: EntityManager, entry: AuditEntry): Promise<void> {
    const actor = entry.actor ?? this.actorOfRequest();
    const session = this.context.optionalPrincipal?.credential.session;
    const metadata = withoutSecrets({
      ...(entry.actor === undefined && session ? { session_purpose: session.purpose } : {}),
      ...(entry.metadata ?? {}),
    });
    const changes =
      entry.before === undefined && entry.after === undefined
        ? null
        : withoutSecrets({ before: entry.before ?? null, after: entry.after ?? null });
    const row: NewAuditRow = {
      id: newId(),
      chain_id: entry.applicationId ?? PLATFORM_CHAIN,
      application_id: entry.applicationId,
      livemode: entry.livemode !== undefined ? entry.livemode : (this.context.optionalLivemode ?? null),
      actor_type: actor.type,
      actor_id: actor.id,
      action: entry.action,
      target_type: entry.target.type,
      target_id: entry.target.id,
      request_id: this.context.requestId ?? null,
      client_address: this.context.clientAddress,
      user_agent: this.context.userAgent,
      changes,
      metadata,
      created_at: this.clock.now(),
    };
    await this.onCommit.defer(manager, row);
  }

  noteAuthFailure(failure: AuthFailure): void {
    this.bursts.note(failure, this.clock.nowMs());
  }

  private actorOfRequest(): AuditActor {
    const credential = this.context.optionalPrincipal?.credential;
    if (!credential) {
      const operator = this.context.operator;
      if (operator) return { type: 'cli', id: operator };
      return this.context.requestId ? { type: 'anonymous', id: null } : { type: 'system', id: null };
    }
    if (credential.method === 'secret_key') return { type: 'secret_key', id: credential.subject };
    if (credential.method === 'session') return { type: 'session', id: credential.subject };
    return { type: 'user', id: credential.subject };
  }
}
