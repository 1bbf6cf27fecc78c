import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

export interface FeeDetail {
  type: string;
  amount: number;
  currency: string;
  application: string | null;
}

const numeric = { to: (v: unknown) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** A ledger entry. Immutable: the database refuses UPDATE and DELETE on this table. */
@Entity({ name: 'balance_transactions' })
export class BalanceTransaction extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') journal_id: string;
  @Column('uuid') balance_id: string;
  @Column('uuid', { nullable: true }) customer_id: string | null;
  @Column('text') account: string;
  @Column('text') currency: string;
  @Column('bigint') amount: number;
  /** The balance's `available + hold` right after this entry was applied. */
  @Column('bigint') running_balance: number;
  /** Its place (from 1) in its balance's hash chain, and its hash (docs/LEDGER.md, "Statements"). */
  @Column('bigint', { nullable: true, transformer: numeric }) chain_seq: number | null;
  @Column('text', { nullable: true }) entry_hash: string | null;
  @Column('text') state: 'available' | 'hold';
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { nullable: true }) original_currency: string | null;
  @Column('bigint', { nullable: true }) original_amount: number | null;
  @Column('numeric', { nullable: true, transformer: numeric }) exchange_rate: number | null;
  @Column('text') event_type: string;
  @Column('text', { nullable: true }) event_id: string | null;
  @Column('text', { nullable: true }) parent_event_type: string | null;
  @Column('text', { nullable: true }) parent_event_id: string | null;
  @Column('text', { nullable: true }) transfer_id: string | null;
  @Column('text', { nullable: true }) category: string | null;
  @Column('text', { nullable: true }) forex_quote_id: string | null;
  @Column('text') type: string;
  @Column('text') source: string;
  @Column('text', { nullable: true }) reporting_category: string | null;
  @Column('text', { nullable: true }) plane: string | null;
  @Column('integer') scaling_factor: number;
  @Column('bigint') fee: number;
  @Column('bigint') net: number;
  @Column('bigint') gross_amount: number;
  @Column('jsonb') fee_details: FeeDetail[];
  @Column('boolean') record_only: boolean;
  @Column('timestamptz', { nullable: true }) available_on: Date | null;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
