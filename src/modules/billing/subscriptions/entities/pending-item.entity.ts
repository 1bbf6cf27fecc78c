import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../common/database/mode-record.js';

/**
 * An amount the subscription's next invoice bills (billing part 2 sets `invoice_id`): today the
 * prorations of mid-period changes. `amount` is signed minor units (a credit is negative).
 */
@Entity({ name: 'subscription_pending_items' })
export class PendingItem extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') subscription_id: string;
  @Column('uuid', { nullable: true }) subscription_item_id: string | null;
  @Column('uuid') price_id: string;
  @Column('text') kind: 'proration';
  @Column('text') description: string;
  @Column('integer') quantity: number;
  @Column('bigint') amount: string;
  @Column('text') currency: string;
  @Column('integer') scaling_factor: number;
  @Column('timestamptz') period_start: Date;
  @Column('timestamptz') period_end: Date;
  @Column('uuid', { nullable: true }) invoice_id: string | null;
  @Column('timestamptz') created_at: Date;
}
