import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { ReportRunStatus } from '../report-run.transitions.js';

export interface ReportParameters {
  interval_start: string;
  interval_end: string;
  currency: string | null;
  columns: string[] | null;
  timezone: string;
}

@Entity({ name: 'report_runs' })
export class ReportRun extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') report_type: string;
  @Column('jsonb') parameters: ReportParameters;
  @Column('text') status: ReportRunStatus;
  @Column('text', { nullable: true }) error: string | null;
  @Column('uuid', { nullable: true }) result_file_id: string | null;
  @Column('integer', { nullable: true }) row_count: number | null;
  /** The lease of the replica producing the report. */
  @Column('timestamptz', { nullable: true }) claimed_until: Date | null;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz', { nullable: true }) succeeded_at: Date | null;
  @Column('timestamptz') updated_at: Date;
}
