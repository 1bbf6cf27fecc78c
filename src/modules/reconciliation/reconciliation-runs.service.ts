import { Injectable } from '@nestjs/common';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import { Clock } from '../../common/clock.js';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { ListFilters, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import type { CreateReconciliationRunDto } from './dto/reconciliation-run.dto.js';
import type { ReconciliationRun } from './entities/reconciliation-run.entity.js';
import { OUTCOMES } from './outcomes.js';
import { ReconciliationRunsRepository } from './reconciliation-runs.repository.js';
import {
  toReconciliationItemResponse,
  toReconciliationRunResponse,
  type ReconciliationItemResponse,
  type ReconciliationRunResponse,
} from './reconciliation.responses.js';
import { ReconciliationErrors } from './reconciliation.errors.js';
import { SettlementSources } from './settlement-sources.js';

export const RECONCILIATION_RUN_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    provider: ListFilters.word,
    payout: ListFilters.word,
    trigger: ListFilters.oneOf(['scheduled', 'on_demand']),
    status: ListFilters.oneOf(['pending', 'succeeded', 'failed']),
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at'],
  search: ['id', 'payout'],
};

export const RECONCILIATION_ITEM_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    outcome: ListFilters.oneOf(OUTCOMES),
    reference: ListFilters.word,
    type: ListFilters.word,
    currency: ListFilters.currency,
  },
  sortable: ['created_at'],
  search: ['id', 'reference'],
};

@Injectable()
export class ReconciliationRunsService {
  constructor(
    private readonly runs: ReconciliationRunsRepository,
    private readonly sources: SettlementSources,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  /** Records a pending on-demand run; ReconciliationRunsJob imports and matches it (docs/RECONCILIATION.md). */
  async create(principal: Principal, dto: CreateReconciliationRunDto): Promise<ReconciliationRunResponse> {
    const now = this.clock.now();
    if (!this.sources.of(dto.provider, principal.mode)) {
      throw new AppError(
        ReconciliationErrors.E7960,
        `Provider "${dto.provider}" has no settlements to reconcile in ${principal.mode} mode.`,
      ).on('provider');
    }
    const interval = this.interval(dto, now);
    const record = {
      id: newId(),
      application_id: principal.application.id,
      provider: dto.provider,
      payout: dto.payout ?? null,
      interval_start: interval?.start ?? null,
      interval_end: interval?.end ?? null,
      trigger: 'on_demand',
      status: 'pending',
      error: null,
      line_count: null,
      item_count: null,
      mismatch_count: null,
      outcomes: null,
      claimed_until: null,
      created_at: now,
      succeeded_at: null,
      updated_at: now,
    } as ReconciliationRun;
    const run = await this.runs.transaction(async (manager) => {
      const inserted = await this.runs.insert(record, manager);
      await this.audit.record(manager, {
        applicationId: inserted.application_id,
        action: 'reconciliation_run.created',
        target: { type: 'reconciliation_run', id: inserted.id },
        metadata: { provider: inserted.provider },
      });
      return inserted;
    });
    return toReconciliationRunResponse(run);
  }

  async retrieve(principal: Principal, id: string): Promise<ReconciliationRunResponse> {
    return toReconciliationRunResponse(await this.found(principal, id));
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<ReconciliationRunResponse>> {
    return runList(
      this.runs.query(principal.application.id),
      RECONCILIATION_RUN_LIST,
      query,
      toReconciliationRunResponse,
    );
  }

  async items(principal: Principal, id: string, query: ListQuery): Promise<ListEnvelope<ReconciliationItemResponse>> {
    const run = await this.found(principal, id);
    return runList(
      this.runs.items(principal.application.id, run.id),
      RECONCILIATION_ITEM_LIST,
      query,
      toReconciliationItemResponse,
    );
  }

  private async found(principal: Principal, id: string): Promise<ReconciliationRun> {
    const run = await this.runs.find(principal.application.id, id);
    if (!run) throw new AppError(Errors.E4004, `No reconciliation run with id "${id}".`);
    return run;
  }

  private interval(dto: CreateReconciliationRunDto, now: Date): { start: Date; end: Date } | null {
    const hasInterval = dto.interval_start !== undefined || dto.interval_end !== undefined;
    if (dto.payout !== undefined && !hasInterval) return null;
    const start = new Date(dto.interval_start ?? '');
    const end = new Date(dto.interval_end ?? '');
    if (
      dto.payout !== undefined ||
      Number.isNaN(start.getTime()) ||
      Number.isNaN(end.getTime()) ||
      start >= end ||
      end > now
    ) {
      throw new AppError(
        ReconciliationErrors.E7961,
        'Give either payout, or interval_start and interval_end (start before end, end not after now).',
      ).on(dto.payout !== undefined ? 'payout' : 'interval_start');
    }
    return { start, end };
  }
}
