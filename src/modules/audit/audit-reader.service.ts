import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/context/principal.js';
import { FilterPatterns, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import { AuditRepository } from './audit.repository.js';
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

const EXPORT_PAGE = 500;

/**
 * Reads the audit log: the list (filters, cursor) and the JSON lines export. Who may is the
 * permission table's `audit_events` group (owners and admins; src/common/auth/permissions.ts).
 * Apart from AuditService, which every module reaches through the AuditRecorder port, so that the
 * writer needs no UsersService (which needs ApplicationsService, which audits).
 */
@Injectable()
export class AuditReader {
  constructor(private readonly repository: AuditRepository) {}

  async list(principal: Principal, query: ListQuery): Promise<ListEnvelope<AuditEventResponse>> {
    return runList(this.repository.query(principal.application.id), AUDIT_EVENT_LIST, query, toAuditEventResponse);
  }

  /**
   * The application's rows created in [from, to), oldest first (chain order), read a page at a time
   * as the consumer takes them.
   */
  async export(
    principal: Principal,
    window: { from: Date | null; to: Date | null },
  ): Promise<AsyncGenerator<AuditEventResponse>> {
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
}
