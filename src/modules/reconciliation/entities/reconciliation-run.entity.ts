import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { ReconciliationRunStatus } from '../reconciliation-run.transitions.js';
import type { Outcome } from '../outcomes.js';

/** One reconciliation of a provider's settlement (a payout, or the payouts of an interval) with the ledger. */
@Entity({ name: 'reconciliation_runs' })
export class ReconciliationRun extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') provider: string;
  /** The provider payout (`trsf_…`, `po_…`); null for a run over an interval's payouts. */
  @Column('text', { nullable: true }) payout: string | null;
  @Column('timestamptz', { nullable: true }) interval_start: Date | null;
  @Column('timestamptz', { nullable: true }) interval_end: Date | null;
  @Column('text') trigger: 'scheduled' | 'on_demand';
  @Column('text') status: ReconciliationRunStatus;
  @Column('text', { nullable: true }) error: string | null;
  /** Settlement lines imported from the provider. */
  @Column('integer', { nullable: true }) line_count: number | null;
  @Column('integer', { nullable: true }) item_count: number | null;
  @Column('integer', { nullable: true }) mismatch_count: number | null;
  @Column('jsonb', { nullable: true }) outcomes: Record<Outcome, number> | null;
  /** The lease of the replica running it. */
  @Column('timestamptz', { nullable: true }) claimed_until: Date | null;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz', { nullable: true }) succeeded_at: Date | null;
  @Column('timestamptz') updated_at: Date;
}
