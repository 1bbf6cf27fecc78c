import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { KybStatus } from '../../../providers/ports/connect.port.js';

export type AccountType = 'own' | 'connected';

/** An application's own account (one per mode) or one of its connected accounts. */
@Entity({ name: 'accounts' })
export class AccountRecord extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') type: AccountType;
  @Column('text', { nullable: true }) name: string | null;
  @Column('text', { nullable: true }) business_name: string | null;
  @Column('text', { nullable: true }) email: string | null;
  @Column('text', { nullable: true }) country: string | null;
  @Column('text', { nullable: true }) default_currency: string | null;
  @Column('text') kyb_status: KybStatus;
  /** Why KYB was rejected, when it was. */
  @Column('text', { nullable: true }) kyb_rejection_reason: string | null;
  @Column('timestamptz', { nullable: true }) kyb_decided_at: Date | null;
  /** The provider holding an account for this connected account (`stripe`), and its id there (`acct_…`; not secret). */
  @Column('text', { nullable: true }) provider: string | null;
  @Column('text', { nullable: true }) provider_account_id: string | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('jsonb') labels: string[];
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
