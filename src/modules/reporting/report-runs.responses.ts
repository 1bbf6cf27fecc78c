import type { ReportRun } from './entities/report-run.entity.js';

export function toReportRunResponse(r: ReportRun) {
  return {
    id: r.id,
    object: 'reporting.report_run' as const,
    livemode: r.livemode,
    report_type: r.report_type,
    parameters: r.parameters,
    status: r.status,
    error: r.error,
    /** The CSV's file id (GET /files/{id}/contents downloads it) once succeeded, else null. */
    result: r.result_file_id,
    row_count: r.row_count,
    created_at: r.created_at.toISOString(),
    succeeded_at: r.succeeded_at ? r.succeeded_at.toISOString() : null,
    updated_at: r.updated_at.toISOString(),
  };
}

export type ReportRunResponse = ReturnType<typeof toReportRunResponse>;
