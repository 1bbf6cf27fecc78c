import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

/** One account's money in one currency; `available` and `hold` are written only by the PostingService. */
@Entity({ name: 'balances' })
export class Balance extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid', { nullable: true }) customer_id: string | null;
  /** The ledger account this balance belongs to, e.g. `customer`, `application`, `fees`, `disputes`. */
  @Column('text') account: string;
  @Column('text') currency: string;
  @Column('text', { nullable: true }) name: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('bigint') available: number;
  @Column('bigint') hold: number;
  @Column('integer') scaling_factor: number;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
