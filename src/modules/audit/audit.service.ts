import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  AuditRecorder,
  type AuditActor,
  type AuditEntry,
  type AuthFailure,
} from '../../common/audit/audit-recorder.js';
import { Clock } from '../../common/clock.js';
import type { Principal } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { AppError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids.js';
import { FilterPatterns, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import { UsersService } from '../users/index.js';
import { auditHash, PLATFORM_CHAIN } from './audit-chain.js';
import { AuditErrors } from './audit.errors.js';
import { AuditRepository, type NewAuditRow } from './audit.repository.js';
import { withoutSecrets } from './audit-redaction.js';
import { AuthFailureBursts } from './auth-failure-bursts.js';
import { toAuditEventResponse, type AuditEventResponse } from './audit.responses.js';

export const AUDIT_EVENT_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    actor_type: { type: 'text', values: ['secret_key', 'user', 'session', 'cli', 'system', 'anonymous'] },
    actor_id: { type: 'text', pattern: FilterPatterns.word },
    action: { type: 'text', pattern: FilterPatterns.word },
    target_type: { type: 'text', pattern: FilterPatterns.word },
    target_id: { type: 'text', pattern: FilterPatterns.word },
    request_id: { type: 'text', pattern: FilterPatterns.word },
    livemode: { type: 'boolean' },
    created_at: { type: 'timestamp' },
  },
  sortable: ['created_at'],
  search: ['action', 'target_id', 'actor_id'],
};

const READER_ROLES = new Set(['owner', 'admin']);
const EXPORT_PAGE = 500;

/**
 * The audit log: `record` appends a row to the application's hash chain in the caller's
 * transaction (the AuditRecorder port every module uses); `list` and `export` read it for owners
 * and admins.
 */
@Injectable()
export class AuditService extends AuditRecorder {
  constructor(
    private readonly repository: AuditRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly users: UsersService,
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
    await this.repository.append(manager, row, (previous, seq) => auditHash(previous, { ...row, chain_seq: seq }));
  }

  noteAuthFailure(failure: AuthFailure): void {
    this.bursts.note(failure, this.clock.nowMs());
  }

  async list(principal: Principal, query: ListQuery): Promise<ListEnvelope<AuditEventResponse>> {
    await this.assertReader(principal);
    return runList(this.repository.query(principal.application.id), AUDIT_EVENT_LIST, query, toAuditEventResponse);
  }

  /**
   * The application's rows created in [from, to), oldest first (chain order), read a page at a time
   * as the consumer takes them. The reader is checked before the first byte.
   */
  async export(
    principal: Principal,
    window: { from: Date | null; to: Date | null },
  ): Promise<AsyncGenerator<AuditEventResponse>> {
    await this.assertReader(principal);
    const repository = this.repository;
    const applicationId = principal.application.id;
    return (async function* pages() {
      let after = 0;
      for (;;) {
        const rows = await repository.exportPage(applicationId, window, after, EXPORT_PAGE);
        for (const row of rows) yield toAuditEventResponse(row);
        if (rows.length < EXPORT_PAGE) return;
        after = Number(rows[rows.length - 1].chain_seq);
      }
    })();
  }

  /** Owners and admins of the application, and superusers (until the permission table lands, issue 37 part 1). */
  private async assertReader(principal: Principal): Promise<void> {
    const credential = principal.credential;
    if (credential.privilege === 'superuser') return;
    if (credential.method === 'bearer') {
      const role = await this.users.roleIn(credential.subject, principal.application.id);
      if (role && READER_ROLES.has(role)) return;
    }
    throw new AppError(AuditErrors.E1270);
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
