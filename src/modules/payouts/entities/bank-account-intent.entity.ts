import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

/** A hosted create-bank-account link for one account; usable once, until `expires_at`. */
@Entity({ name: 'bank_account_intents' })
export class BankAccountIntent extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') account_id: string;
  /** The X-Country of the creating request: the page creates the bank account for this country. */
  @Column('text') country: string;
  @Column('text') return_url: string;
  @Column('text') refresh_url: string;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('uuid') session_id: string;
  /** `open` or `completed`; an open intent past `expires_at` reads as `expired`. */
  @Column('text') status: 'open' | 'completed';
  @Column('uuid', { nullable: true }) bank_account_id: string | null;
  @Column('timestamptz') expires_at: Date;
  @Column('timestamptz', { nullable: true }) completed_at: Date | null;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
