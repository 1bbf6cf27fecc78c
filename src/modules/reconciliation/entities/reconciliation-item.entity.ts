import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { Outcome } from '../outcomes.js';

const bigint = { to: (v: unknown) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** One provider reference of a run and how it matched the ledger. Written once, by the run's matching statement. */
@Entity({ name: 'reconciliation_items' })
export class ReconciliationItem extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') run_id: string;
  @Column('text') outcome: Outcome;
  @Column('text') reference: string;
  @Column('text') type: string;
  /** The charge or refund of the ledger side, when there is one. */
  @Column('uuid', { nullable: true }) record_id: string | null;
  @Column('text') currency: string;
  @Column('bigint', { nullable: true, transformer: bigint }) ledger_amount: number | null;
  @Column('bigint', { nullable: true, transformer: bigint }) provider_amount: number | null;
  @Column('bigint', { nullable: true, transformer: bigint }) ledger_fee: number | null;
  @Column('bigint', { nullable: true, transformer: bigint }) provider_fee: number | null;
  /** How many gross lines the provider reported for the reference (2 or more: `duplicate`). */
  @Column('integer') provider_lines: number;
  @Column('timestamptz') created_at: Date;
}
