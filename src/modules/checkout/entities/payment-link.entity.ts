import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { TargetType } from './checkout.entity.js';

/** A shareable link to a collection target: every visit opens a fresh checkout. */
@Entity({ name: 'payment_links' })
export class PaymentLink extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') country: string;
  @Column('text') target_type: TargetType;
  @Column('uuid') target_id: string;
  @Column('boolean') active: boolean;
  @Column('text', { nullable: true }) success_url: string | null;
  @Column('text', { nullable: true }) cancel_url: string | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
