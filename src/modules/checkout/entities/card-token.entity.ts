import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

/**
 * A test-mode vault token (`tok_…` is this id without dashes): the card's facts and the sandbox
 * outcome its number selected; never the number or the CVC.
 */
@Entity({ name: 'card_tokens' })
export class CardToken extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') checkout_id: string;
  @Column('text') brand: string;
  @Column('text') last4: string;
  @Column('integer') exp_month: number;
  @Column('integer') exp_year: number;
  @Column('text') fingerprint: string;
  @Column('text', { nullable: true }) card_holder_name: string | null;
  @Column('text') sandbox_outcome: string;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') expires_at: Date;
  @Column('timestamptz', { nullable: true }) used_at: Date | null;
}
