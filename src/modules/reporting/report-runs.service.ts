import { Injectable } from '@nestjs/common';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import { Clock } from '../../common/clock.js';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { ListFilters, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import { isTimeZone } from './csv.js';
import type { CreateReportRunDto } from './dto/report-run.dto.js';
import type { ReportParameters, ReportRun } from './entities/report-run.entity.js';
import { REPORT_TYPES, REPORTS, type ReportType } from './report-types.js';
import { ReportRunsRepository } from './report-runs.repository.js';
import { toReportRunResponse, type ReportRunResponse } from './report-runs.responses.js';
import { ReportingErrors } from './reporting.errors.js';

export const REPORT_RUN_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    report_type: ListFilters.oneOf(REPORT_TYPES),
    status: ListFilters.oneOf(['pending', 'succeeded', 'failed']),
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at'],
  search: ['id'],
};

@Injectable()
export class ReportRunsService {
  constructor(
    private readonly runs: ReportRunsRepository,
    private readonly clock: Clock,
    private readonly audit: AuditRecorder,
  ) {}

  /** Records a pending run; ReportRunsJob produces its CSV (docs/REPORTS.md). */
  async create(principal: Principal, dto: CreateReportRunDto): Promise<ReportRunResponse> {
    const now = this.clock.now();
    const type = dto.report_type as ReportType;
    const parameters = this.parameters(principal, type, dto, now);
    const record = {
      id: newId(),
      application_id: principal.application.id,
      report_type: type,
      parameters,
      status: 'pending',
      error: null,
      result_file_id: null,
      row_count: null,
      claimed_until: null,
      created_at: now,
      succeeded_at: null,
      updated_at: now,
    } as ReportRun;
    const run = await this.runs.transaction(async (manager) => {
      const inserted = await this.runs.insert(record, manager);
      await this.audit.record(manager, {
        applicationId: inserted.application_id,
        action: 'reporting.report_run.created',
        target: { type: 'reporting.report_run', id: inserted.id },
        metadata: { report_type: type },
      });
      return inserted;
    });
    return toReportRunResponse(run);
  }

  async retrieve(principal: Principal, id: string): Promise<ReportRunResponse> {
    const run = await this.runs.find(principal.application.id, id);
    if (!run) throw new AppError(Errors.E4004, `No report run with id "${id}".`);
    return toReportRunResponse(run);
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<ReportRunResponse>> {
    return runList(this.runs.query(principal.application.id), REPORT_RUN_LIST, query, toReportRunResponse);
  }

  private parameters(principal: Principal, type: ReportType, dto: CreateReportRunDto, now: Date): ReportParameters {
    const p = dto.parameters;
    const start = new Date(p.interval_start);
    const end = new Date(p.interval_end);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start >= end || end > now) {
      throw new AppError(
        ReportingErrors.E7900,
        `parameters.interval_start (${p.interval_start}) must be before parameters.interval_end (${p.interval_end}), which must not be after now.`,
      ).on(start >= end ? 'parameters.interval_start' : 'parameters.interval_end');
    }
    if (p.currency && !REPORTS[type].currency) {
      throw new AppError(
        ReportingErrors.E7903,
        `parameters.currency: ${type} reports meter events, which have no currency; leave it out.`,
      ).on('parameters.currency');
    }
    const known = REPORTS[type].columns.map(([name]) => name);
    const unknown = (p.columns ?? []).filter((c) => !known.includes(c));
    if (unknown.length > 0) {
      throw new AppError(
        ReportingErrors.E7901,
        `parameters.columns: ${type} has no column ${unknown.map((c) => `"${c}"`).join(', ')}; its columns are ${known.join(', ')}.`,
      ).on('parameters.columns');
    }
    const timezone = p.timezone ?? (principal.country === 'TH' ? 'Asia/Bangkok' : 'UTC');
    if (!isTimeZone(timezone)) {
      throw new AppError(ReportingErrors.E7902, `parameters.timezone "${timezone}" is not an IANA time zone name.`).on(
        'parameters.timezone',
      );
    }
    return {
      interval_start: p.interval_start,
      interval_end: p.interval_end,
      currency: p.currency ? p.currency.toUpperCase() : null,
      columns: p.columns ? [...new Set(p.columns)] : null,
      timezone,
    };
  }
}
